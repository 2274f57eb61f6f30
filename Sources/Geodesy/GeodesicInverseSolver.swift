/// The inverse problem (Karney 2013, sections 4 and 5).
///
/// The points are first put in a canonical order (first point in the southern hemisphere and
/// furthest from the equator, eastward longitude difference), then one of four cases applies:
/// meridional (solved on the meridian directly), equatorial (a = arc of the equator), short
/// (solved on a sphere of the mean local radius), or general: Newton's method on the azimuth α₁
/// until the longitude difference matches, with bisection as a fallback, started from the
/// astroid solution for nearly antipodal points.
struct InverseSolution {
  var distanceMeters: Double
  var initialAzimuth: SineCosine
  var finalAzimuth: SineCosine
}

/// What each case of the solver finds, in the canonical order.
private typealias Solved = (azimuths: (initial: SineCosine, final: SineCosine), distance: Double)

/// A point as the inverse solver sees it: on the auxiliary sphere, reduced latitude β.
struct ReducedLatitude {
  var sine: Double
  var cosine: Double
  /// √(1 + e′² sin² β).
  var scale: Double
}

extension Geodesic {
  private static let newtonIterations = 20
  private static let totalIterations = newtonIterations + Double.significandBitCount + 11
  private static let bisectionTolerance = tolerance0 * tolerance2

  func solveInverse(from a: GeodeticPosition, to b: GeodeticPosition) -> InverseSolution {
    // Canonical order: lon12 ≥ 0, |lat1| ≥ |lat2|, lat1 ≤ 0.
    var lon12 = GeodesicAngles.difference(from: a.longitude, to: b.longitude)
    var lonSign: Double = lon12.sign == .minus ? -1 : 1
    lon12 = GeodesicAngles.rounded(lon12 * lonSign)
    let lam12 = lon12.radians
    let lambda = GeodesicAngles.sineCosine(degrees: lon12)
    var lat1 = GeodesicAngles.rounded(a.latitude)
    var lat2 = GeodesicAngles.rounded(b.latitude)
    let swapped = abs(lat1) < abs(lat2)
    if swapped {
      lonSign = -lonSign
      swap(&lat1, &lat2)
    }
    let latSign: Double = lat1 < 0 ? 1 : -1
    lat1 *= latSign
    lat2 *= latSign
    let beta1 = reducedLatitude(degrees: lat1)
    var beta2 = reducedLatitude(degrees: lat2)
    // Make |β₁| = |β₂| exact when the latitudes are equal or opposite.
    if beta1.cosine < -beta1.sine {
      if beta2.cosine == beta1.cosine {
        beta2.sine = Double(signOf: beta2.sine, magnitudeOf: beta1.sine)
      }
    } else if abs(beta2.sine) == -beta1.sine {
      beta2.cosine = beta1.cosine
    }

    var solved: Solved
    if let meridian = meridional(beta1, beta2, lat1IsPole: lat1 == -90, lambda: lambda) {
      solved = meridian
    } else if beta1.sine == 0 && lon12 <= 180 - flattening * 180 {
      // Both on the equator and not so far apart that the shortest path leaves it.
      solved = (((1, 0), (1, 0)), equatorialRadiusMeters * lam12)
    } else {
      solved = general(beta1, beta2, lam12: lam12, lambda: lambda)
    }

    if swapped { swap(&solved.azimuths.initial, &solved.azimuths.final) }
    let swapSign: Double = swapped ? -1 : 1
    return InverseSolution(
      distanceMeters: 0 + solved.distance,
      initialAzimuth: (
        solved.azimuths.initial.sine * swapSign * lonSign,
        solved.azimuths.initial.cosine * swapSign * latSign
      ),
      finalAzimuth: (
        solved.azimuths.final.sine * swapSign * lonSign,
        solved.azimuths.final.cosine * swapSign * latSign
      ))
  }

  private func reducedLatitude(degrees: Double) -> ReducedLatitude {
    var beta = GeodesicAngles.sineCosine(degrees: degrees)
    beta.sine *= oneMinusFlattening
    GeodesicAngles.normalize(&beta.sine, &beta.cosine)
    beta.cosine = max(Geodesic.tiny, beta.cosine)
    return ReducedLatitude(
      sine: beta.sine, cosine: beta.cosine,
      scale: (1 + secondEccentricitySquared * beta.sine * beta.sine).squareRoot())
  }

  /// The solution along a meridian when both points are on one (or the first is a pole) and
  /// the meridian is the shortest path; nil otherwise.
  private func meridional(
    _ beta1: ReducedLatitude, _ beta2: ReducedLatitude, lat1IsPole: Bool,
    lambda: SineCosine
  ) -> Solved? {
    guard lat1IsPole || lambda.sine == 0 else { return nil }
    let initial = (sine: lambda.sine, cosine: lambda.cosine)
    let final = (sine: 0.0, cosine: 1.0)
    let ssig1 = beta1.sine
    let csig1 = initial.cosine * beta1.cosine
    let ssig2 = beta2.sine
    let csig2 = final.cosine * beta2.cosine
    let sig12 = arcTangent2(
      GeodesicAngles.positivePart(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
    // On a meridian α₀ = 0, so k = e′ and ε = n.
    let lengths = self.lengths(
      eps: thirdFlattening, sig12: sig12, sigma1: (ssig1, csig1), sigma2: (ssig2, csig2),
      beta1Scale: beta1.scale, beta2Scale: beta2.scale)
    // Past the pole (sig12 ≥ 1 with negative reduced length) a shorter path exists.
    guard sig12 < 1 || lengths.reduced >= 0 else { return nil }
    if sig12 < 3 * Geodesic.tiny
      || (sig12 < Geodesic.tolerance0 && (lengths.distance < 0 || lengths.reduced < 0))
    {
      return ((initial, final), 0)
    }
    return ((initial, final), lengths.distance * polarRadius)
  }

  /// The general case: a short line directly, otherwise Newton's method on α₁.
  ///
  /// Each step solves λ₁₂(α₁) = λ₁₂ with the derivative from the reduced length. The bracket
  /// [below, above] shrinks as the search goes; when a Newton step leaves it or the first
  /// twenty steps have not converged, the search bisects it instead, so it always ends.
  private func general(
    _ beta1: ReducedLatitude, _ beta2: ReducedLatitude, lam12: Double,
    lambda: SineCosine
  ) -> Solved {
    let start = inverseStart(beta1, beta2, lam12: lam12, lambda: lambda)
    if let short = start.shortLine {
      return ((start.initial, short.final), short.sig12 * polarRadius * short.radiusScale)
    }
    var alp1 = start.initial
    // The bracket: α₁ = 0 gives λ₁₂ too small, α₁ = 180° too large.
    var below = (sine: Geodesic.tiny, cosine: 1.0)
    var above = (sine: Geodesic.tiny, cosine: -1.0)
    var nearlyDone = false
    var bracketClosed = false
    var trial = lambda12(beta1, beta2, alp1: alp1, lambda: lambda, derivative: true)
    for iteration in 0..<Self.totalIterations {
      let useNewton = iteration < Self.newtonIterations
      if iteration > 0 {
        trial = lambda12(beta1, beta2, alp1: alp1, lambda: lambda, derivative: useNewton)
      }
      let error = trial.lambdaError
      if bracketClosed || !(abs(error) >= (nearlyDone ? 8 : 1) * Geodesic.tolerance0) { break }
      if error > 0
        && (iteration > Self.newtonIterations
          || alp1.cosine / alp1.sine > above.cosine / above.sine)
      {
        above = alp1
      } else if error < 0
        && (iteration > Self.newtonIterations
          || alp1.cosine / alp1.sine < below.cosine / below.sine)
      {
        below = alp1
      }
      if useNewton && trial.derivative > 0 {
        let step = -error / trial.derivative
        if abs(step) < .pi {
          let (sd, cd) = (sine(step), cosine(step))
          let newSine = alp1.sine * cd + alp1.cosine * sd
          if newSine > 0 {
            alp1 = (newSine, alp1.cosine * cd - alp1.sine * sd)
            GeodesicAngles.normalize(&alp1.sine, &alp1.cosine)
            nearlyDone = abs(error) <= 16 * Geodesic.tolerance0
            continue
          }
        }
      }
      // Newton overshot or is not converging: bisect the bracket.
      alp1 = ((below.sine + above.sine) / 2, (below.cosine + above.cosine) / 2)
      GeodesicAngles.normalize(&alp1.sine, &alp1.cosine)
      nearlyDone = false
      bracketClosed =
        abs(below.sine - alp1.sine) + (below.cosine - alp1.cosine) < Self.bisectionTolerance
        || abs(alp1.sine - above.sine) + (alp1.cosine - above.cosine) < Self.bisectionTolerance
    }
    let lengths = self.lengths(
      eps: trial.eps, sig12: trial.sig12, sigma1: trial.sigma1, sigma2: trial.sigma2,
      beta1Scale: beta1.scale, beta2Scale: beta2.scale)
    return ((alp1, trial.alp2), lengths.distance * polarRadius)
  }
}
