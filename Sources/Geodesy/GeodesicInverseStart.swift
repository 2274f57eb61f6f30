/// The starting guess for the inverse problem (Karney 2013, section 5).
struct InverseStart {
  /// The solution of a short line, which needs no iteration.
  struct ShortLine {
    /// The arc length on the auxiliary sphere, radians.
    var sig12: Double
    var final: SineCosine
    /// √(1 + e′² sin² βₘ) at the mean reduced latitude: distance = b · σ₁₂ · radiusScale.
    var radiusScale: Double
  }

  /// α₁: the answer for a short line, the first Newton guess otherwise.
  var initial: SineCosine
  var shortLine: ShortLine?
}

extension Geodesic {
  private static let tolerance1 = 200 * tolerance0
  private static let astroidThreshold = 1000 * tolerance2

  /// A short line is solved on a sphere; a nearly antipodal pair starts from the astroid
  /// (eq. 55–57); anything else from the great circle on the auxiliary sphere.
  func inverseStart(
    _ beta1: ReducedLatitude, _ beta2: ReducedLatitude, lam12: Double,
    lambda: SineCosine
  ) -> InverseStart {
    let (sbet1, cbet1, sbet2, cbet2) = (beta1.sine, beta1.cosine, beta2.sine, beta2.cosine)
    let sbet12 = sbet2 * cbet1 - cbet2 * sbet1  // sin(β₂ − β₁)
    let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
    let sbet12a = sbet2 * cbet1 + cbet2 * sbet1  // sin(β₂ + β₁)
    let isShort = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
    var somg12 = lambda.sine
    var comg12 = lambda.cosine
    var radiusScale = 1.0
    if isShort {
      var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
      sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
      radiusScale = (1 + secondEccentricitySquared * sbetm2).squareRoot()
      let omg12 = lam12 / (oneMinusFlattening * radiusScale)
      (somg12, comg12) = (sine(omg12), cosine(omg12))
    }

    var salp1 = cbet2 * somg12
    var calp1 =
      comg12 >= 0
      ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
      : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
    let ssig12 = hypotenuse(salp1, calp1)
    let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

    if isShort && ssig12 < shortLineTolerance {
      var salp2 = cbet1 * somg12
      var calp2 =
        sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
      GeodesicAngles.normalize(&salp2, &calp2)
      GeodesicAngles.normalize(&salp1, &calp1)
      return InverseStart(
        initial: (salp1, calp1),
        shortLine: .init(
          sig12: arcTangent2(ssig12, csig12), final: (salp2, calp2), radiusScale: radiusScale))
    }

    let nearlyAntipodal =
      csig12 < 0 && ssig12 < 6 * thirdFlattening * .pi * cbet1 * cbet1
    if nearlyAntipodal {
      // Scale the neighbourhood of the antipode so that the problem becomes the astroid's.
      let lam12x = arcTangent2(-lambda.sine, -lambda.cosine)  // λ₁₂ − π
      let eps = GeodesicSeries.epsilon(kSquared: sbet1 * sbet1 * secondEccentricitySquared)
      let lambdaScale = flattening * cbet1 * longitudeSeries.a3(eps) * .pi
      let betaScale = lambdaScale * cbet1
      let x = lam12x / lambdaScale
      let y = sbet12a / betaScale
      if y > -Self.tolerance1 && x > -1 - Self.astroidThreshold {
        // Near the equator the astroid degenerates; this limit is accurate there.
        salp1 = min(1, -x)
        calp1 = -(1 - salp1 * salp1).squareRoot()
      } else {
        let k = Self.astroid(x, y)
        let omg12a = lambdaScale * (-x * k / (1 + k))
        somg12 = sine(omg12a)
        comg12 = -cosine(omg12a)
        salp1 = cbet2 * somg12
        calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
      }
    }
    if salp1 > 0 {
      GeodesicAngles.normalize(&salp1, &calp1)
    } else {
      (salp1, calp1) = (1, 0)
    }
    return InverseStart(initial: (salp1, calp1), shortLine: nil)
  }

  /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (eq. 55), or 0 when
  /// y = 0 and x² ≤ 1.
  static func astroid(_ x: Double, _ y: Double) -> Double {
    let p = x * x
    let q = y * y
    let r = (p + q - 1) / 6
    guard !(q == 0 && r <= 0) else { return 0 }
    let s = p * q / 4
    let r2 = r * r
    let r3 = r * r2
    let discriminant = s * (s + 2 * r3)
    var u = r
    if discriminant >= 0 {
      var t3 = s + r3
      t3 += t3 < 0 ? -discriminant.squareRoot() : discriminant.squareRoot()
      let t = cubeRoot(t3)
      u += t + (t != 0 ? r2 / t : 0)
    } else {
      let angle = arcTangent2((-discriminant).squareRoot(), -(s + r3))
      u += 2 * r * cosine(angle / 3)
    }
    let v = (u * u + q).squareRoot()
    let uv = u < 0 ? q / (v - u) : u + v
    let w = (uv - q) / (2 * v)
    return uv / ((uv + w * w).squareRoot() + w)
  }
}
