import Glibc

// The one place the orbit model reaches libm.

@inline(__always) func orbitSine(_ x: Double) -> Double { sin(x) }
@inline(__always) func orbitCosine(_ x: Double) -> Double { cos(x) }
@inline(__always) func orbitArcTangent2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) func orbitRounded(_ x: Double) -> Double { x.rounded() }
