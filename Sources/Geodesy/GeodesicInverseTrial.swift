/// One evaluation of the inverse problem's target function: the longitude difference reached
/// by the geodesic leaving the first point at a trial azimuth α₁ (Karney 2013, section 4).
struct InverseTrial {
  /// λ₁₂(α₁) minus the wanted longitude difference, radians.
  var lambdaError: Double
  /// dλ₁₂/dα₁ (when asked for), from the reduced length (eq. 46).
  var derivative: Double
  var alp2: SineCosine
  var sig12: Double
  var sigma1: (Double, Double)
  var sigma2: (Double, Double)
  var eps: Double
}

extension Geodesic {
  func lambda12(
    _ beta1: ReducedLatitude, _ beta2: ReducedLatitude, alp1: SineCosine,
    lambda: SineCosine, derivative: Bool
  ) -> InverseTrial {
    let (sbet1, cbet1, sbet2, cbet2) = (beta1.sine, beta1.cosine, beta2.sine, beta2.cosine)
    let salp1 = alp1.sine
    // An equatorial start heading due north or south is nudged off the degenerate case.
    let calp1 = sbet1 == 0 && alp1.cosine == 0 ? -Geodesic.tiny : alp1.cosine
    let salp0 = salp1 * cbet1
    let calp0 = hypotenuse(calp1, salp1 * sbet1)

    var ssig1 = sbet1
    var csig1 = calp1 * cbet1
    let somg1 = salp0 * sbet1
    let comg1 = csig1
    GeodesicAngles.normalize(&ssig1, &csig1)

    // Clairaut: cos β₂ sin α₂ = sin α₀; cos α₂ from the difference of squares, kept accurate
    // by using the smaller of the two differences.
    let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
    let calp2 =
      cbet2 != cbet1 || abs(sbet2) != -sbet1
      ? ((calp1 * cbet1) * (calp1 * cbet1)
        + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)))
        .squareRoot() / cbet2
      : abs(calp1)
    var ssig2 = sbet2
    var csig2 = calp2 * cbet2
    let somg2 = salp0 * sbet2
    let comg2 = csig2
    GeodesicAngles.normalize(&ssig2, &csig2)

    let sig12 = arcTangent2(
      GeodesicAngles.positivePart(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
    let somg12 = GeodesicAngles.positivePart(comg1 * somg2 - somg1 * comg2)
    let comg12 = comg1 * comg2 + somg1 * somg2
    // ω₁₂ − λ₁₂(target), as one atan2 for accuracy.
    let eta = arcTangent2(
      somg12 * lambda.cosine - comg12 * lambda.sine, comg12 * lambda.cosine + somg12 * lambda.sine)
    let eps = GeodesicSeries.epsilon(kSquared: calp0 * calp0 * secondEccentricitySquared)
    let c3 = longitudeSeries.c3(eps)
    let b312 = c3.sum(sine: ssig2, cosine: csig2) - c3.sum(sine: ssig1, cosine: csig1)
    let domg12 = -flattening * longitudeSeries.a3(eps) * salp0 * (sig12 + b312)

    var slope = 0.0
    if derivative {
      if calp2 == 0 {
        slope = -2 * oneMinusFlattening * beta1.scale / sbet1
      } else {
        let reduced = lengths(
          eps: eps, sig12: sig12, sigma1: (ssig1, csig1), sigma2: (ssig2, csig2),
          beta1Scale: beta1.scale, beta2Scale: beta2.scale
        ).reduced
        slope = reduced * oneMinusFlattening / (calp2 * cbet2)
      }
    }
    return InverseTrial(
      lambdaError: eta + domg12, derivative: slope, alp2: (salp2, calp2), sig12: sig12,
      sigma1: (ssig1, csig1), sigma2: (ssig2, csig2), eps: eps)
  }

  /// The distance s₁₂/b and reduced length m₁₂/b of the arc σ₁ → σ₂ (eqs. 38–41).
  func lengths(
    eps: Double, sig12: Double, sigma1: (Double, Double), sigma2: (Double, Double),
    beta1Scale dn1: Double, beta2Scale dn2: Double
  ) -> (distance: Double, reduced: Double) {
    let (ssig1, csig1) = sigma1
    let (ssig2, csig2) = sigma2
    let a1m1 = GeodesicSeries.a1MinusOne(eps)
    let a2m1 = GeodesicSeries.a2MinusOne(eps)
    let c1 = GeodesicSeries.c1(eps)
    let c2 = GeodesicSeries.c2(eps)
    let b1 = c1.sum(sine: ssig2, cosine: csig2) - c1.sum(sine: ssig1, cosine: csig1)
    let b2 = c2.sum(sine: ssig2, cosine: csig2) - c2.sum(sine: ssig1, cosine: csig1)
    let a1 = 1 + a1m1
    let a2 = 1 + a2m1
    let j12 = (a1m1 - a2m1) * sig12 + (a1 * b1 - a2 * b2)
    let reduced = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
    return (a1 * (sig12 + b1), reduced)
  }
}
