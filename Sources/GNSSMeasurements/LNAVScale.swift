/// The scale factors of the LNAV fields this emulator broadcasts (IS-GPS-200 Tables 20-I, 20-III
/// and 20-X): a field carries round(value / scale) as an integer.
struct LNAVScale {
  /// One unit of the integer, in the value's unit (semicircles for angles).
  let unit: Double
  /// True for angles, whose values are radians but whose unit is semicircles.
  let isAngle: Bool

  static let squareRootOfSemiMajorAxis = LNAVScale(unit: 0x1p-19, isAngle: false)
  static let eccentricity = LNAVScale(unit: 0x1p-33, isAngle: false)
  static let semicircles31 = LNAVScale(unit: 0x1p-31, isAngle: true)
  static let semicircles43 = LNAVScale(unit: 0x1p-43, isAngle: true)
  static let clockBias = LNAVScale(unit: 0x1p-31, isAngle: false)
  static let clockDrift = LNAVScale(unit: 0x1p-43, isAngle: false)

  /// The integer a value in SI units (radians for angles) is sent as.
  func integer(_ value: Double) -> Int64 {
    Int64(((isAngle ? value / .pi : value) / unit).rounded())
  }

  /// A value rounded to a multiple of the unit.
  func rounded(_ value: Double) -> Double {
    (value / unit).rounded() * unit
  }

  /// An angle in radians rounded to a multiple of the unit in semicircles.
  func roundedRadians(_ radians: Double) -> Double {
    (radians / .pi / unit).rounded() * unit * .pi
  }
}
