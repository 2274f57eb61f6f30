/// A moving base's antenna at one epoch: u-blox's proprietary message 4072, sub-type 0
/// ("reference station PVT"), which a ZED-F9P in moving base mode sends beside its MSM so that
/// a rover on the same vehicle can give its position relative to the moving antenna
/// (NAV-RELPOSNED with `isMoving`).
///
/// u-blox does not publish this message's layout, and no decoder (RTKLIB, pyrtcm) reads its
/// contents; a real rover needs no more than the message number and sub-type to recognise it.
/// The fields after the sub-type are therefore the emulator's own, in RTCM's conventions:
///
///     DF002 12 (4072) | sub-type 12 (0) | DF003 12 | GPS epoch time 30 (ms of the week, as
///     MSM's DF004) | ECEF X, Y, Z 38 each (0.1 mm, as DF025–DF027) | ECEF velocity X, Y, Z 25
///     each (mm/s, signed)
///
/// so that two emulated F9Ps can run as a moving base and its rover; a real F9P rover fed by
/// the emulator's moving base would not understand the position part.
public struct MovingBaseReference: Hashable, Sendable {
  /// u-blox's proprietary message number.
  public static let messageNumber = 4072
  /// The sub-type of the reference station PVT.
  public static let subType = 0
  /// The resolution of the ECEF coordinates, meters.
  public static let resolutionMeters = StationReference.resolutionMeters
  /// The resolution of the velocity, meters per second.
  public static let velocityResolution = 0.001

  /// The reference station ID (DF003, 0–4095).
  public var stationID: Int
  /// The epoch: milliseconds of the GPS week (0–604,799,999).
  public var gpsMillisecondsOfWeek: Int
  /// The antenna, ECEF meters.
  public var x: Double
  public var y: Double
  public var z: Double
  /// The antenna's velocity, ECEF meters per second.
  public var velocityX: Double
  public var velocityY: Double
  public var velocityZ: Double

  /// A moving base's position and velocity at an epoch.
  public init(
    stationID: Int, gpsMillisecondsOfWeek: Int, x: Double, y: Double, z: Double,
    velocityX: Double, velocityY: Double, velocityZ: Double
  ) {
    self.stationID = stationID
    self.gpsMillisecondsOfWeek = gpsMillisecondsOfWeek
    self.x = x
    self.y = y
    self.z = z
    self.velocityX = velocityX
    self.velocityY = velocityY
    self.velocityZ = velocityZ
  }

  /// The message's payload.
  ///
  /// - Throws: `RTCMError.valueOutOfRange` for a coordinate beyond ±13,743,895 m, a speed
  ///   beyond ±16,777 m/s on an axis or an epoch outside the week.
  public func payload() throws(RTCMError) -> [UInt8] {
    guard (0..<604_800_000).contains(gpsMillisecondsOfWeek) else {
      throw .valueOutOfRange(name: "epoch time", value: Double(gpsMillisecondsOfWeek))
    }
    var writer = RTCMBitWriter()
    writer.append(unsigned: UInt64(Self.messageNumber), width: 12)
    writer.append(unsigned: UInt64(Self.subType), width: 12)
    writer.append(unsigned: UInt64(stationID & 0xFFF), width: 12)
    writer.append(unsigned: UInt64(gpsMillisecondsOfWeek), width: 30)
    for (name, meters) in [("ECEF-X", x), ("ECEF-Y", y), ("ECEF-Z", z)] {
      writer.append(signed: try StationReference.field(name, meters, width: 38), width: 38)
    }
    for (name, speed) in [
      ("velocity X", velocityX), ("velocity Y", velocityY), ("velocity Z", velocityZ),
    ] {
      let units = (speed / Self.velocityResolution).rounded()
      guard units.isFinite, abs(units) < Double(1 << 24) else {
        throw .valueOutOfRange(name: name, value: speed)
      }
      writer.append(signed: Int64(units), width: 25)
    }
    return writer.bytes
  }

  /// Decodes a 4072.0 payload.
  ///
  /// - Throws: `RTCMError.unsupportedMessage` for another number or sub-type,
  ///   `.payloadTooShort`, `.invalidField` for an epoch time past the week.
  public init(payload: [UInt8]) throws(RTCMError) {
    var reader = RTCMBitReader(payload)
    let number = try reader.integer(12)
    guard number == Self.messageNumber else { throw .unsupportedMessage(number) }
    reader = RTCMBitReader(payload, message: number)
    _ = try reader.integer(12)
    guard try reader.integer(12) == Self.subType else { throw .unsupportedMessage(number) }
    stationID = try reader.integer(12)
    gpsMillisecondsOfWeek = try reader.integer(30)
    guard gpsMillisecondsOfWeek < 604_800_000 else {
      throw .invalidField(
        message: number, name: "epoch time", value: Int64(gpsMillisecondsOfWeek))
    }
    x = Double(try reader.signed(38)) * Self.resolutionMeters
    y = Double(try reader.signed(38)) * Self.resolutionMeters
    z = Double(try reader.signed(38)) * Self.resolutionMeters
    velocityX = Double(try reader.signed(25)) * Self.velocityResolution
    velocityY = Double(try reader.signed(25)) * Self.velocityResolution
    velocityZ = Double(try reader.signed(25)) * Self.velocityResolution
  }

  /// True for a payload of message 4072 sub-type 0, whatever follows.
  public static func isReferencePVT(_ payload: [UInt8]) -> Bool {
    subType(of: payload) == subType
  }

  /// The sub-type of a message 4072's payload: the 12 bits after its number; nil for another
  /// message or a payload too short.
  public static func subType(of payload: [UInt8]) -> Int? {
    var reader = RTCMBitReader(payload)
    guard (try? reader.integer(12)) == messageNumber else { return nil }
    return try? reader.integer(12)
  }
}
