import Glibc

// The one place the measurement engine reaches libm.

enum MeasurementMath {
  @inline(__always) static func sine(_ x: Double) -> Double { sin(x) }
  @inline(__always) static func cosine(_ x: Double) -> Double { cos(x) }
  @inline(__always) static func tangent(_ x: Double) -> Double { tan(x) }
  @inline(__always) static func arcTangent2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
  @inline(__always) static func arcSine(_ x: Double) -> Double { asin(x) }
  @inline(__always) static func exponential(_ x: Double) -> Double { exp(x) }
  @inline(__always) static func power(_ x: Double, _ y: Double) -> Double { pow(x, y) }
}
