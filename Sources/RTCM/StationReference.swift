/// The antenna reference point of a reference station: message 1005, or 1006 with the antenna
/// height (RTCM 10403.3, 3.5.3).
///
///     DF002 12 | DF003 12 | DF021 6 | DF022 1 | DF023 1 | DF024 1 | DF141 1 | DF025 38
///     | DF142 1 | DF001 1 | DF026 38 | DF364 2 | DF027 38 [| DF028 16]
public struct StationReference: Hashable, Sendable {
  /// The resolution of the ECEF coordinates and the antenna height, meters.
  public static let resolutionMeters = 0.0001

  /// The reference station ID (DF003, 0–4095).
  public var stationID: Int
  /// The ITRF realization year (DF021, 0 when unspecified).
  public var itrfYear: Int
  /// The systems the station serves (DF022 GPS, DF023 GLONASS, DF024 Galileo).
  public var servesGPS: Bool
  /// DF023.
  public var servesGLONASS: Bool
  /// DF024.
  public var servesGalileo: Bool
  /// True for a physical station, false for a virtual one (DF141).
  public var isPhysical: Bool
  /// The antenna reference point, ECEF meters (DF025–DF027).
  public var x: Double
  /// ECEF Y, meters.
  public var y: Double
  /// ECEF Z, meters.
  public var z: Double
  /// The antenna height above the marker, meters (DF028); nil for message 1005.
  public var antennaHeightMeters: Double?

  /// A station serving GPS only, physical, with no ITRF year and no antenna height (1005).
  public init(
    stationID: Int, x: Double, y: Double, z: Double, antennaHeightMeters: Double? = nil,
    itrfYear: Int = 0, servesGPS: Bool = true, servesGLONASS: Bool = false,
    servesGalileo: Bool = false, isPhysical: Bool = true
  ) {
    self.stationID = stationID
    self.x = x
    self.y = y
    self.z = z
    self.antennaHeightMeters = antennaHeightMeters
    self.itrfYear = itrfYear
    self.servesGPS = servesGPS
    self.servesGLONASS = servesGLONASS
    self.servesGalileo = servesGalileo
    self.isPhysical = isPhysical
  }

  /// 1006 when the antenna height is given, 1005 otherwise.
  public var messageNumber: Int { antennaHeightMeters == nil ? 1005 : 1006 }

  /// The message's payload.
  ///
  /// - Throws: `RTCMError.valueOutOfRange` for a coordinate beyond ±13,743,895 m or a height
  ///   beyond 6.5535 m.
  public func payload() throws(RTCMError) -> [UInt8] {
    var writer = RTCMBitWriter()
    writer.append(unsigned: UInt64(messageNumber), width: 12)
    writer.append(unsigned: UInt64(stationID & 0xFFF), width: 12)
    writer.append(unsigned: UInt64(itrfYear & 0x3F), width: 6)
    writer.append(servesGPS)
    writer.append(servesGLONASS)
    writer.append(servesGalileo)
    writer.append(!isPhysical)
    writer.append(signed: try Self.field("ECEF-X", x, width: 38), width: 38)
    writer.append(false)  // DF142: single receiver oscillator
    writer.append(false)  // DF001: reserved
    writer.append(signed: try Self.field("ECEF-Y", y, width: 38), width: 38)
    writer.append(unsigned: 0, width: 2)  // DF364: quarter cycle indicator
    writer.append(signed: try Self.field("ECEF-Z", z, width: 38), width: 38)
    if let height = antennaHeightMeters {
      let units = (height / Self.resolutionMeters).rounded()
      guard units >= 0, units < 65536 else {
        throw .valueOutOfRange(name: "antenna height", value: height)
      }
      writer.append(unsigned: UInt64(units), width: 16)
    }
    return writer.bytes
  }

  /// A coordinate as a signed field of `width` bits, at `resolutionMeters`.
  static func field(_ name: String, _ meters: Double, width: Int) throws(RTCMError) -> Int64 {
    let units = (meters / resolutionMeters).rounded()
    let limit = Double(Int64(1) << (width - 1))
    guard units.isFinite, units > -limit, units < limit else {
      throw .valueOutOfRange(name: name, value: meters)
    }
    return Int64(units)
  }

  /// Decodes a 1005 or 1006 payload.
  ///
  /// - Throws: `RTCMError.unsupportedMessage` for another number, `.payloadTooShort`.
  public init(payload: [UInt8]) throws(RTCMError) {
    var reader = RTCMBitReader(payload)
    let number = try reader.integer(12)
    guard number == 1005 || number == 1006 else { throw .unsupportedMessage(number) }
    reader = RTCMBitReader(payload, message: number)
    _ = try reader.integer(12)
    stationID = try reader.integer(12)
    itrfYear = try reader.integer(6)
    servesGPS = try reader.flag()
    servesGLONASS = try reader.flag()
    servesGalileo = try reader.flag()
    isPhysical = !(try reader.flag())
    x = Double(try reader.signed(38)) * Self.resolutionMeters
    _ = try reader.unsigned(2)
    y = Double(try reader.signed(38)) * Self.resolutionMeters
    _ = try reader.unsigned(2)
    z = Double(try reader.signed(38)) * Self.resolutionMeters
    antennaHeightMeters =
      number == 1006 ? Double(try reader.unsigned(16)) * Self.resolutionMeters : nil
  }
}
