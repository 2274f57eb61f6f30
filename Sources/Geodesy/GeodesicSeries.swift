/// The series of Karney, "Algorithms for geodesics" (J. Geodesy 87, 2013), to sixth order.
///
/// Every integral along a geodesic is expanded in ε = (√(1+k²) − 1)/(√(1+k²) + 1), where
/// k = e′ cos α₀, and in the third flattening n = f/(2 − f). For WGS-84 both are below 0.0017, so
/// the truncation error is about 10⁻¹⁸, well under a double's rounding. Coefficients are held in
/// fixed-size values and summed by unrolled Horner and Clenshaw steps: nothing here allocates.

/// A trigonometric series Σₗ cₗ sin 2lσ with l = 1…6.
struct SineSeries {
  var c1 = 0.0
  var c2 = 0.0
  var c3 = 0.0
  var c4 = 0.0
  var c5 = 0.0
  var c6 = 0.0

  /// Σₗ cₗ sin 2lσ at the angle whose sine and cosine are given, by Clenshaw summation.
  @inline(__always)
  func sum(sine s: Double, cosine c: Double) -> Double {
    let twiceCosine2 = 2 * (c - s) * (c + s)
    let b6 = c6
    let b5 = c5 + twiceCosine2 * b6
    let b4 = c4 + twiceCosine2 * b5 - b6
    let b3 = c3 + twiceCosine2 * b4 - b5
    let b2 = c2 + twiceCosine2 * b3 - b4
    let b1 = c1 + twiceCosine2 * b2 - b3
    return 2 * s * c * b1
  }
}

/// The series that do not depend on the ellipsoid, only on ε.
enum GeodesicSeries {
  /// ε from k² = e′² cos² α₀.
  @inline(__always)
  static func epsilon(kSquared k2: Double) -> Double {
    k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
  }

  /// A₁ − 1, the scale of the distance integral I₁(σ) = A₁ (σ + Σ C₁ₗ sin 2lσ) (eq. 17).
  @inline(__always)
  static func a1MinusOne(_ eps: Double) -> Double {
    let e2 = eps * eps
    let t = e2 * (1.0 / 4 + e2 * (1.0 / 64 + e2 / 256))
    return (t + eps) / (1 - eps)
  }

  /// C₁ₗ, the Fourier coefficients of the distance integral (eq. 18).
  @inline(__always)
  static func c1(_ eps: Double) -> SineSeries {
    let e2 = eps * eps
    let e3 = e2 * eps
    let e4 = e2 * e2
    return SineSeries(
      c1: eps * (-1.0 / 2 + e2 * (3.0 / 16 - e2 / 32)),
      c2: e2 * (-1.0 / 16 + e2 * (1.0 / 32 - e2 * 9 / 2048)),
      c3: e3 * (-1.0 / 48 + e2 * 3 / 256),
      c4: e4 * (-5.0 / 512 + e2 * 3 / 512),
      c5: e4 * eps * (-7.0 / 1280),
      c6: e4 * e2 * (-7.0 / 2048))
  }

  /// C′₁ₗ, the coefficients of the reverted series σ = τ + Σ C′₁ₗ sin 2lτ (eq. 21).
  @inline(__always)
  static func c1Prime(_ eps: Double) -> SineSeries {
    let e2 = eps * eps
    let e3 = e2 * eps
    let e4 = e2 * e2
    return SineSeries(
      c1: eps * (1.0 / 2 + e2 * (-9.0 / 32 + e2 * 205 / 1536)),
      c2: e2 * (5.0 / 16 + e2 * (-37.0 / 96 + e2 * 1335 / 4096)),
      c3: e3 * (29.0 / 96 - e2 * 75 / 128),
      c4: e4 * (539.0 / 1536 - e2 * 2391 / 2560),
      c5: e4 * eps * (3467.0 / 7680),
      c6: e4 * e2 * (38081.0 / 61440))
  }

  /// A₂ − 1, the scale of I₂(σ) = A₂ (σ + Σ C₂ₗ sin 2lσ), used for the reduced length (eq. 42).
  @inline(__always)
  static func a2MinusOne(_ eps: Double) -> Double {
    let e2 = eps * eps
    let t = e2 * (1.0 / 4 + e2 * (9.0 / 64 + e2 * 25 / 256))
    return t * (1 - eps) - eps
  }

  /// C₂ₗ (eq. 43).
  @inline(__always)
  static func c2(_ eps: Double) -> SineSeries {
    let e2 = eps * eps
    let e3 = e2 * eps
    let e4 = e2 * e2
    return SineSeries(
      c1: eps * (1.0 / 2 + e2 * (1.0 / 16 + e2 / 32)),
      c2: e2 * (3.0 / 16 + e2 * (1.0 / 32 + e2 * 35 / 1024)),
      c3: e3 * (5.0 / 48 + e2 * 5 / 256),
      c4: e4 * (35.0 / 512 + e2 * 7 / 512),
      c5: e4 * eps * (63.0 / 1280),
      c6: e4 * e2 * (77.0 / 2048))
  }
}

/// The longitude series, whose coefficients depend on the ellipsoid through n: worked out once
/// per ellipsoid as polynomials in ε, then evaluated per geodesic.
struct LongitudeSeries: Sendable {
  /// A₃ = 1 − Σₖ aₖ εᵏ, k = 1…5 (eq. 24).
  private let a: (Double, Double, Double, Double, Double)
  /// C₃ₗ = Σₖ cₗₖ εᵏ, k = l…5 (eq. 25), one tuple per l.
  private let c31: (Double, Double, Double, Double, Double)
  private let c32: (Double, Double, Double, Double)
  private let c33: (Double, Double, Double)
  private let c34: (Double, Double)
  private let c35: Double

  init(thirdFlattening n: Double) {
    let n2 = n * n
    a = (
      1.0 / 2 - n / 2, 1.0 / 4 + n / 8 - 3 * n2 / 8, 1.0 / 16 + 3 * n / 16 + n2 / 16,
      3.0 / 64 + n / 32, 3.0 / 128
    )
    c31 = (
      1.0 / 4 - n / 4, 1.0 / 8 - n2 / 8, 3.0 / 64 + 3 * n / 64 - n2 / 64, 5.0 / 128 + n / 64,
      3.0 / 128
    )
    c32 = (
      1.0 / 16 - 3 * n / 32 + n2 / 32, 3.0 / 64 - n / 32 - 3 * n2 / 64, 3.0 / 128 + n / 128,
      5.0 / 256
    )
    c33 = (5.0 / 192 - 3 * n / 64 + 5 * n2 / 192, 3.0 / 128 - 5 * n / 192, 7.0 / 512)
    c34 = (7.0 / 512 - 7 * n / 256, 7.0 / 512)
    c35 = 21.0 / 2560
  }

  /// A₃(ε), the scale of I₃(σ) = A₃ (σ + Σ C₃ₗ sin 2lσ).
  @inline(__always)
  func a3(_ eps: Double) -> Double {
    1 - eps * (a.0 + eps * (a.1 + eps * (a.2 + eps * (a.3 + eps * a.4))))
  }

  /// C₃ₗ(ε), l = 1…5.
  @inline(__always)
  func c3(_ eps: Double) -> SineSeries {
    let e2 = eps * eps
    let e3 = e2 * eps
    let e4 = e2 * e2
    return SineSeries(
      c1: eps * (c31.0 + eps * (c31.1 + eps * (c31.2 + eps * (c31.3 + eps * c31.4)))),
      c2: e2 * (c32.0 + eps * (c32.1 + eps * (c32.2 + eps * c32.3))),
      c3: e3 * (c33.0 + eps * (c33.1 + eps * c33.2)),
      c4: e4 * (c34.0 + eps * c34.1),
      c5: e4 * eps * c35)
  }
}
