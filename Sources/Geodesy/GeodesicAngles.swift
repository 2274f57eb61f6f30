/// An angle as its sine and cosine, which is how the solvers carry angles around.
typealias SineCosine = (sine: Double, cosine: Double)

/// Angle arithmetic for the geodesic solvers, in degrees where the inputs are degrees.
///
/// Multiples of 90° come out exact (sin 90° = 1, cos 90° = 0), so the poles and the equator are
/// recognised as such rather than as points a rounding error away from them.
enum GeodesicAngles {
  /// The sine and cosine of an angle in degrees, exact at multiples of 90°.
  @inline(__always)
  static func sineCosine(degrees: Double) -> SineCosine {
    var reduced = reducedTo180(degrees)
    let quadrant = (reduced / 90).rounded()
    reduced -= 90 * quadrant
    let s = sine(reduced.radians)
    let c = cosine(reduced.radians)
    switch Int(quadrant) & 3 {
    case 0: return (s, c + 0)
    case 1: return (c, 0 - s)
    case 2: return (-s, 0 - c)
    default: return (-c, s + 0)
    }
  }

  /// atan2(y, x) in degrees, -180 to 180, exact at multiples of 90° and never past ±90° when
  /// `x` is not negative.
  @inline(__always)
  static func arcTangent2Degrees(_ y: Double, _ x: Double) -> Double {
    var y = y
    var x = x
    var quadrant = 0
    if abs(y) > abs(x) {
      swap(&x, &y)
      quadrant = 2
    }
    if x.sign == .minus {
      x = -x
      quadrant += 1
    }
    let angle = arcTangent2(y, x).degrees
    switch quadrant {
    case 1: return Double(signOf: y, magnitudeOf: 180) - angle
    case 2: return 90 - angle
    case 3: return -90 + angle
    default: return angle
    }
  }

  /// An azimuth from its sine and cosine, in degrees 0 to less than 360.
  @inline(__always)
  static func azimuthDegrees(sine: Double, cosine: Double) -> Double {
    let angle = arcTangent2Degrees(sine, cosine)
    let positive = angle < 0 ? angle + 360 : angle + 0
    return positive >= 360 ? 0 : positive
  }

  /// `to - from` reduced to -180...180 degrees.
  @inline(__always)
  static func difference(from: Double, to: Double) -> Double {
    reducedTo180(to - from)
  }

  /// A longitude reduced to -180...180 degrees; ±180 stay as they are.
  @inline(__always)
  static func normalizedLongitude(_ degrees: Double) -> Double {
    reducedTo180(degrees)
  }

  /// The angle in -180...180 degrees, skipping libm's `remainder` for the usual case of an
  /// angle already there.
  @inline(__always)
  private static func reducedTo180(_ degrees: Double) -> Double {
    abs(degrees) <= 180 ? degrees : degrees.remainder(dividingBy: 360)
  }

  /// Rounds angles very close to zero onto a coarse grid (multiples of 2⁻⁵⁷ near zero), so that
  /// underflow in tiny latitudes and longitude differences cannot make the solvers misjudge
  /// which case they are in. Larger angles are unchanged.
  @inline(__always)
  static func rounded(_ degrees: Double) -> Double {
    let grid = 1.0 / 16
    let magnitude = abs(degrees)
    let snapped = magnitude < grid ? grid - (grid - magnitude) : magnitude
    return Double(signOf: degrees, magnitudeOf: snapped)
  }

  /// `x` when positive, otherwise +0 (never −0, which would turn atan2(−0, −1) into −π;
  /// `max(0, −0.0)` is −0.0 in Swift).
  @inline(__always)
  static func positivePart(_ x: Double) -> Double { x > 0 ? x : 0 }

  /// Scales a sine and cosine pair to unit length.
  @inline(__always)
  static func normalize(_ s: inout Double, _ c: inout Double) {
    let length = hypotenuse(s, c)
    s /= length
    c /= length
  }
}
