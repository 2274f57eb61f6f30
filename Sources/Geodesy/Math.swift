import Glibc

// The one place Geodesy reaches libm.

@inline(__always) func sine(_ x: Double) -> Double { sin(x) }
@inline(__always) func cosine(_ x: Double) -> Double { cos(x) }
@inline(__always) func arcTangent2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) func arcSine(_ x: Double) -> Double { asin(x) }
@inline(__always) func hypotenuse(_ x: Double, _ y: Double) -> Double { hypot(x, y) }
@inline(__always) func cubeRoot(_ x: Double) -> Double { cbrt(x) }

extension Double {
  /// Degrees to radians: one multiplication by the rounded π/180.
  var radians: Double { self * (.pi / 180) }
  /// Radians to degrees: one multiplication by the rounded 180/π.
  var degrees: Double { self * (180 / .pi) }
}
