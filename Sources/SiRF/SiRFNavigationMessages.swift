/// The satellite data SiRF's navigation messages carry, one channel each.
public struct SiRFChannel: Hashable, Sendable {
  /// The satellite's PRN (GPS 1–32, SBAS 120–158).
  public var prn: Int
  public var azimuthDegrees: Double
  public var elevationDegrees: Double
  /// Carrier to noise density, dB-Hz.
  public var carrierToNoise: Int
  /// Used in the navigation solution.
  public var isUsed: Bool

  /// Creates a channel.
  public init(
    prn: Int, azimuthDegrees: Double, elevationDegrees: Double, carrierToNoise: Int,
    isUsed: Bool
  ) {
    self.prn = prn
    self.azimuthDegrees = azimuthDegrees
    self.elevationDegrees = elevationDegrees
    self.carrierToNoise = carrierToNoise
    self.isUsed = isUsed
  }
}

/// The navigation solution of one epoch in the units of SiRF's messages; each output message
/// is a view of it.
public struct SiRFSolution: Sendable {
  /// The solution's kind, bits 0–2 of the navigation type (MID 2 "mode 1", MID 41 "nav type").
  public enum Kind: UInt8, Sendable {
    case none = 0
    /// A two-dimensional solution from three satellites.
    case threeSatellites = 3
    /// A solution from four satellites or more (3D).
    case fourOrMoreSatellites = 4
  }

  public var kind: Kind
  /// A differential (SBAS, DGPS) solution: bit 7 of the navigation type.
  public var isDifferential: Bool
  /// GPS week, not truncated to 10 bits.
  public var gpsWeek: Int
  /// Time of week, milliseconds.
  public var millisecondsOfWeek: Int64
  /// UTC date and time of the solution.
  public var utc: (year: Int, month: Int, day: Int, hour: Int, minute: Int, milliseconds: Int)
  public var latitude: Double
  public var longitude: Double
  public var heightAboveEllipsoidMeters: Double
  public var heightAboveMeanSeaLevelMeters: Double
  /// Earth-centred position and velocity, meters and meters per second.
  public var ecef: (x: Double, y: Double, z: Double)
  public var ecefVelocity: (x: Double, y: Double, z: Double)
  public var speedMetersPerSecond: Double
  public var courseDegrees: Double
  public var climbMetersPerSecond: Double
  public var hdop: Double
  /// Estimated horizontal and vertical position errors, meters.
  public var horizontalErrorMeters: Double
  public var verticalErrorMeters: Double
  /// Channels, used satellites first; the messages send the first twelve.
  public var channels: [SiRFChannel]

  /// Creates a solution.
  public init(
    kind: Kind, isDifferential: Bool, gpsWeek: Int, millisecondsOfWeek: Int64,
    utc: (year: Int, month: Int, day: Int, hour: Int, minute: Int, milliseconds: Int),
    latitude: Double, longitude: Double, heightAboveEllipsoidMeters: Double,
    heightAboveMeanSeaLevelMeters: Double, ecef: (x: Double, y: Double, z: Double),
    ecefVelocity: (x: Double, y: Double, z: Double), speedMetersPerSecond: Double,
    courseDegrees: Double, climbMetersPerSecond: Double, hdop: Double,
    horizontalErrorMeters: Double, verticalErrorMeters: Double, channels: [SiRFChannel]
  ) {
    self.kind = kind
    self.isDifferential = isDifferential
    self.gpsWeek = gpsWeek
    self.millisecondsOfWeek = millisecondsOfWeek
    self.utc = utc
    self.latitude = latitude
    self.longitude = longitude
    self.heightAboveEllipsoidMeters = heightAboveEllipsoidMeters
    self.heightAboveMeanSeaLevelMeters = heightAboveMeanSeaLevelMeters
    self.ecef = ecef
    self.ecefVelocity = ecefVelocity
    self.speedMetersPerSecond = speedMetersPerSecond
    self.courseDegrees = courseDegrees
    self.climbMetersPerSecond = climbMetersPerSecond
    self.hdop = hdop
    self.horizontalErrorMeters = horizontalErrorMeters
    self.verticalErrorMeters = verticalErrorMeters
    self.channels = channels
  }

  /// The channels the twelve-channel messages carry.
  var twelveChannels: ArraySlice<SiRFChannel> { channels.prefix(12) }

  /// The navigation type byte: kind, and bit 7 for a differential solution.
  var navigationType: UInt8 { kind.rawValue | (isDifferential && kind != .none ? 0x80 : 0) }

  /// Time of week in hundredths of a second, as MID 2 and MID 4 send it.
  var hundredthsOfWeek: UInt32 { UInt32(clamping: millisecondsOfWeek / 10) }

  /// MID 2, measured navigation data (41 bytes): ECEF position (m) and velocity (m/s × 8),
  /// mode 1, HDOP × 5, mode 2, the GPS week modulo 1024, time of week × 100, the satellites
  /// used and their PRNs.
  public var measuredNavigation: SiRFFrame {
    var writer = SiRFPayloadWriter(id: SiRFMessageID.measuredNavigation)
    writer.i4(scaled: ecef.x, by: 1)
    writer.i4(scaled: ecef.y, by: 1)
    writer.i4(scaled: ecef.z, by: 1)
    writer.i2(scaled: ecefVelocity.x, by: 8)
    writer.i2(scaled: ecefVelocity.y, by: 8)
    writer.i2(scaled: ecefVelocity.z, by: 8)
    writer.u1(navigationType)
    writer.u1(scaled: kind == .none ? 0 : hdop, by: 5)
    writer.u1(0)
    writer.u2(UInt16(truncatingIfNeeded: gpsWeek % 1024))
    writer.u4(hundredthsOfWeek)
    let used = kind == .none ? [] : Array(twelveChannels.filter(\.isUsed))
    writer.u1(UInt8(used.count))
    for index in 0..<12 {
      writer.u1(index < used.count ? UInt8(clamping: used[index].prn) : 0)
    }
    return writer.frame
  }

  /// MID 4, measured tracker data (188 bytes): the GPS week, time of week × 100, then twelve
  /// channels of PRN, azimuth (× 2/3), elevation (× 2), state and ten C/N0 values.
  public var measuredTracker: SiRFFrame {
    var writer = SiRFPayloadWriter(id: SiRFMessageID.measuredTracker)
    writer.i2(Int16(truncatingIfNeeded: gpsWeek % 1024))
    writer.u4(hundredthsOfWeek)
    writer.u1(12)
    let channels = Array(twelveChannels)
    for index in 0..<12 {
      guard index < channels.count else {
        writer.zeros(15)
        continue
      }
      let channel = channels[index]
      writer.u1(UInt8(clamping: channel.prn))
      writer.u1(scaled: channel.azimuthDegrees, by: 2.0 / 3.0)
      writer.u1(scaled: max(0, channel.elevationDegrees), by: 2)
      // Acquired, carrier phase valid, bit and subframe sync, code and carrier lock;
      // bit 0 marks a satellite used in the solution.
      writer.u2(channel.isUsed && kind != .none ? 0x00BF : 0x00BE)
      for _ in 0..<10 { writer.u1(UInt8(clamping: max(0, channel.carrierToNoise))) }
    }
    return writer.frame
  }

  /// MID 41, geodetic navigation data (91 bytes).
  public var geodeticNavigation: SiRFFrame {
    var writer = SiRFPayloadWriter(id: SiRFMessageID.geodeticNavigation)
    let hasFix = kind != .none
    writer.u2(hasFix ? 0 : 1)  // navigation valid: 0 when valid
    writer.u2(UInt16(navigationType))
    writer.u2(UInt16(clamping: gpsWeek))
    writer.u4(UInt32(clamping: millisecondsOfWeek))
    writer.u2(UInt16(clamping: utc.year))
    writer.u1(UInt8(clamping: utc.month))
    writer.u1(UInt8(clamping: utc.day))
    writer.u1(UInt8(clamping: utc.hour))
    writer.u1(UInt8(clamping: utc.minute))
    writer.u2(UInt16(clamping: utc.milliseconds))
    var usedMask: UInt32 = 0
    for channel in twelveChannels where channel.isUsed && (1...32).contains(channel.prn) {
      usedMask |= 1 << UInt32(channel.prn - 1)
    }
    writer.u4(hasFix ? usedMask : 0)
    writer.i4(scaled: latitude, by: 1e7)
    writer.i4(scaled: longitude, by: 1e7)
    writer.i4(scaled: heightAboveEllipsoidMeters, by: 100)
    writer.i4(scaled: heightAboveMeanSeaLevelMeters, by: 100)
    writer.u1(21)  // map datum: WGS-84
    writer.u2(scaled: speedMetersPerSecond, by: 100)
    writer.u2(scaled: courseDegrees, by: 100)
    writer.i2(0)  // magnetic variation: not implemented by the chip
    writer.i2(scaled: climbMetersPerSecond, by: 100)
    writer.i2(0)  // heading rate
    writer.u4(scaled: hasFix ? horizontalErrorMeters : 0, by: 100)
    writer.u4(scaled: hasFix ? verticalErrorMeters : 0, by: 100)
    writer.u4(0)  // estimated time error
    writer.u2(scaled: hasFix ? 0.1 : 0, by: 100)  // estimated horizontal velocity error
    writer.zeros(16)  // clock bias, its error, clock drift, its error
    writer.u4(0)  // distance travelled since reset
    writer.u2(0)  // its error
    writer.u2(0)  // heading error
    writer.u1(hasFix ? UInt8(twelveChannels.filter(\.isUsed).count) : 0)
    writer.u1(scaled: hasFix ? hdop : 0, by: 5)
    writer.u1(0)  // additional mode information
    return writer.frame
  }

  /// MID 7, clock status (20 bytes): extended week, time of week × 100, satellites used,
  /// clock drift (Hz), clock bias (ns) and the estimated GPS time (ms).
  public var clockStatus: SiRFFrame {
    var writer = SiRFPayloadWriter(id: SiRFMessageID.clockStatus)
    writer.u2(UInt16(clamping: gpsWeek))
    writer.u4(hundredthsOfWeek)
    writer.u1(kind == .none ? 0 : UInt8(twelveChannels.filter(\.isUsed).count))
    writer.u4(96_250)  // a typical TCXO drift, Hz
    writer.u4(100_000)  // clock bias, ns
    writer.u4(UInt32(clamping: millisecondsOfWeek))
    return writer.frame
  }
}
