/// UBX-CFG-DAT: the geodetic datum. A setting is a user datum (44 bytes); a poll answers the
/// datum in use with its number and name (52 bytes).
///
///     set: majA R8 | flat R8 | dX R4 | dY R4 | dZ R4 | rotX R4 | rotY R4 | rotZ R4 | scale R4
///     get: datumNum U2 | datumName CH[6] | (the set's fields)
public struct UBXDatum: Hashable, Sendable {
  /// The number a poll reports for a user-defined datum.
  public static let userDatumNumber: UInt16 = 0xFFFF

  public var number: UInt16
  public var name: String
  public var semiMajorAxisMeters: Double
  public var inverseFlattening: Double
  /// dX, dY, dZ in metres, rotX, rotY, rotZ in milli-arc-seconds, scale in ppm.
  public var parameters: [Float]

  /// WGS-84, the factory datum.
  public static let wgs84 = UBXDatum(
    number: 0, name: "WGS84", semiMajorAxisMeters: 6_378_137, inverseFlattening: 298.257223563,
    parameters: [0, 0, 0, 0, 0, 0, 0])

  /// Creates a datum.
  public init(
    number: UInt16, name: String, semiMajorAxisMeters: Double, inverseFlattening: Double,
    parameters: [Float]
  ) {
    self.number = number
    self.name = name
    self.semiMajorAxisMeters = semiMajorAxisMeters
    self.inverseFlattening = inverseFlattening
    self.parameters = parameters
  }

  /// The ranges of the receiver description: majA, flat, dX/dY/dZ, rotX/Y/Z, scale.
  static let ranges: [(name: String, range: ClosedRange<Double>)] = [
    ("majA", 6_300_000...6_500_000), ("flat", 0...500), ("dX", -5000...5000),
    ("dY", -5000...5000), ("dZ", -5000...5000), ("rotX", -20...20), ("rotY", -20...20),
    ("rotZ", -20...20), ("scale", 0...50),
  ]

  /// Reads a 44-byte user datum setting.
  ///
  /// - Throws: `UBXConfigurationError` for another length or a value out of its range.
  public init(setting payload: [UInt8]) throws(UBXConfigurationError) {
    guard payload.count == 44 else { throw .wrongLength(.cfgDAT, count: payload.count) }
    var reader = UBXPayloadReader(payload)
    var values: [Double] = []
    for width in [8, 8, 4, 4, 4, 4, 4, 4, 4] {
      let bits = reader.unsigned(byteCount: width) ?? 0
      let value =
        width == 8
        ? Double(bitPattern: bits) : Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
      let (name, range) = Self.ranges[values.count]
      guard range.contains(value) else {
        throw .outOfRange(.cfgDAT, field: name, value: UInt64(truncatingIfNeeded: bits))
      }
      values.append(value)
    }
    self.init(
      number: Self.userDatumNumber, name: "USER", semiMajorAxisMeters: values[0],
      inverseFlattening: values[1], parameters: values[2...].map { Float($0) })
  }

  /// The 52-byte payload a poll answers.
  public var payload: [UInt8] {
    var writer = UBXPayloadWriter()
    writer.u2(number)
    writer.characters(name, width: 6)
    writer.unsigned(semiMajorAxisMeters.bitPattern, byteCount: 8)
    writer.unsigned(inverseFlattening.bitPattern, byteCount: 8)
    for value in parameters { writer.u4(value.bitPattern) }
    return writer.bytes
  }
}
