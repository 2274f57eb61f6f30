/// atan2 without libm, for the many directions of a sky each epoch: a degree-8 polynomial in
/// x² times x for atan on [0, 1] (a least-squares fit on Chebyshev nodes, made for this file
/// with numpy), folded into the other octants. Its error is below 1.2e-8 rad (7e-7°), against
/// a few hundred instructions for each libm call.
@inline(__always)
func polynomialArcTangent2(_ y: Double, _ x: Double) -> Double {
  let absoluteX = abs(x)
  let absoluteY = abs(y)
  let larger = max(absoluteX, absoluteY)
  guard larger > 0 else { return 0 }
  let ratio = min(absoluteX, absoluteY) / larger
  let t = ratio * ratio
  var angle =
    ratio
    * (0.999_999_984_242_635_3
      + t
      * (-0.333_330_667_806_915
        + t
        * (0.199_924_835_785_015_46
          + t
          * (-0.142_025_705_116_963_75
            + t
            * (0.106_367_540_980_898_54
              + t
              * (-0.074_954_454_432_200_63
                + t
                * (0.042_587_607_463_831_69
                  + t * (-0.016_005_030_502_423_457 + t * 0.002_834_064_298_688_125_3))))))))
  if absoluteY > absoluteX { angle = .pi / 2 - angle }
  if x < 0 { angle = .pi - angle }
  return y < 0 ? -angle : angle
}
