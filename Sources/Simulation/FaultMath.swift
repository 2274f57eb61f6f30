import Glibc

// The one place the fault machinery reaches libm.

@inline(__always) func faultExponential(_ x: Double) -> Double { exp(x) }
@inline(__always) func faultLogarithm(_ x: Double) -> Double { log(x) }
@inline(__always) func faultSine(_ x: Double) -> Double { sin(x) }
@inline(__always) func faultCosine(_ x: Double) -> Double { cos(x) }
@inline(__always) func faultArcTangent2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
