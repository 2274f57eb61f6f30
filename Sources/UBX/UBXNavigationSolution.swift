/// One navigation epoch in the units of UBX NAV messages' sources: degrees, meters, meters per
/// second, nanoseconds. The `nav…` frame builders scale and round it into each message.
///
/// Every NAV message of an epoch is built from the same value, so they agree with one another.
public struct UBXNavigationSolution: Hashable, Sendable {
  /// The UTC date and time of the epoch, as NAV-PVT reports it.
  public struct UTCTime: Hashable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var nanosecond: Int

    /// Creates a time from its calendar parts.
    public init(
      year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanosecond: Int
    ) {
      self.year = year
      self.month = month
      self.day = day
      self.hour = hour
      self.minute = minute
      self.second = second
      self.nanosecond = nanosecond
    }
  }

  /// Dilutions of precision (NAV-DOP, NAV-PVT's pDOP, NAV-SOL's pDOP).
  public struct DOP: Hashable, Sendable {
    public var geometric: Double
    public var position: Double
    public var time: Double
    public var vertical: Double
    public var horizontal: Double
    public var north: Double
    public var east: Double

    /// Creates DOPs.
    public init(
      geometric: Double, position: Double, time: Double, vertical: Double, horizontal: Double,
      north: Double, east: Double
    ) {
      self.geometric = geometric
      self.position = position
      self.time = time
      self.vertical = vertical
      self.horizontal = horizontal
      self.north = north
      self.east = east
    }

    /// 99.99, what a receiver without a solution reports for every DOP.
    public static let unknown = DOP(
      geometric: 99.99, position: 99.99, time: 99.99, vertical: 99.99, horizontal: 99.99,
      north: 99.99, east: 99.99)
  }

  /// A vector of three components, meters or meters per second.
  public struct Vector: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double

    /// Creates a vector.
    public init(x: Double, y: Double, z: Double) {
      self.x = x
      self.y = y
      self.z = z
    }
  }

  /// The fix type of NAV-PVT and NAV-SOL.
  public enum FixType: UInt8, Hashable, Sendable {
    case noFix = 0
    case twoDimensional = 2
    case threeDimensional = 3
  }

  /// Whole GPS weeks since 1980-01-06 (not modulo 1024).
  public var gpsWeek: Int
  /// Nanoseconds into the GPS week.
  public var nanosecondsOfWeek: Int64
  /// GPS − UTC, seconds.
  public var leapSeconds: Int
  public var utc: UTCTime
  public var fixType: FixType
  /// Differential corrections applied (NAV-PVT `diffSoln`, NAV-SOL `DiffSoln`).
  public var isDifferential: Bool
  /// Degrees, positive north.
  public var latitude: Double
  /// Degrees, positive east.
  public var longitude: Double
  public var heightAboveEllipsoidMeters: Double
  public var heightAboveMeanSeaLevelMeters: Double
  /// North, east, down, meters per second.
  public var velocityNED: Vector
  public var groundSpeedMetersPerSecond: Double
  /// Heading of motion, degrees.
  public var headingDegrees: Double
  /// Earth-centred, Earth-fixed position, meters.
  public var positionECEF: Vector
  /// Earth-centred, Earth-fixed velocity, meters per second.
  public var velocityECEF: Vector
  public var horizontalAccuracyMeters: Double
  public var verticalAccuracyMeters: Double
  public var positionAccuracyMeters: Double
  public var speedAccuracyMetersPerSecond: Double
  public var headingAccuracyDegrees: Double
  public var timeAccuracyNanoseconds: Double
  public var dop: DOP
  /// Satellites in view, in the order NAV-SAT lists them.
  public var satellites: [UBXSatellite]
  /// The carrier-phase solution (`+Corrections`).
  public var carrierSolution = CarrierSolution.none
  /// The rover relative to its reference station, when corrections are used (`+Corrections`).
  public var relativePosition: RelativePosition?
  /// A reference station's survey-in, when the chip is one (`+Corrections`).
  public var survey: Survey?

  /// Creates a solution.
  public init(
    gpsWeek: Int, nanosecondsOfWeek: Int64, leapSeconds: Int, utc: UTCTime, fixType: FixType,
    isDifferential: Bool, latitude: Double, longitude: Double,
    heightAboveEllipsoidMeters: Double, heightAboveMeanSeaLevelMeters: Double,
    velocityNED: Vector, groundSpeedMetersPerSecond: Double, headingDegrees: Double,
    positionECEF: Vector, velocityECEF: Vector, horizontalAccuracyMeters: Double,
    verticalAccuracyMeters: Double, positionAccuracyMeters: Double,
    speedAccuracyMetersPerSecond: Double, headingAccuracyDegrees: Double,
    timeAccuracyNanoseconds: Double, dop: DOP, satellites: [UBXSatellite]
  ) {
    self.gpsWeek = gpsWeek
    self.nanosecondsOfWeek = nanosecondsOfWeek
    self.leapSeconds = leapSeconds
    self.utc = utc
    self.fixType = fixType
    self.isDifferential = isDifferential
    self.latitude = latitude
    self.longitude = longitude
    self.heightAboveEllipsoidMeters = heightAboveEllipsoidMeters
    self.heightAboveMeanSeaLevelMeters = heightAboveMeanSeaLevelMeters
    self.velocityNED = velocityNED
    self.groundSpeedMetersPerSecond = groundSpeedMetersPerSecond
    self.headingDegrees = headingDegrees
    self.positionECEF = positionECEF
    self.velocityECEF = velocityECEF
    self.horizontalAccuracyMeters = horizontalAccuracyMeters
    self.verticalAccuracyMeters = verticalAccuracyMeters
    self.positionAccuracyMeters = positionAccuracyMeters
    self.speedAccuracyMetersPerSecond = speedAccuracyMetersPerSecond
    self.headingAccuracyDegrees = headingAccuracyDegrees
    self.timeAccuracyNanoseconds = timeAccuracyNanoseconds
    self.dop = dop
    self.satellites = satellites
  }

  /// The GPS time of week in milliseconds (`iTOW`), rounded to the nearest.
  public var timeOfWeekMilliseconds: UInt32 {
    UInt32(truncatingIfNeeded: (nanosecondsOfWeek + 500_000) / 1_000_000)
  }

  /// What `iTOW` leaves out, nanoseconds (`fTOW`, −500000…500000).
  public var timeOfWeekFractionNanoseconds: Int32 {
    Int32(truncatingIfNeeded: nanosecondsOfWeek - Int64(timeOfWeekMilliseconds) * 1_000_000)
  }

  /// True with a 2D or 3D fix.
  public var isFixOK: Bool { fixType != .noFix }

  /// Satellites used in the solution.
  public var satellitesUsedCount: Int { satellites.count { $0.isUsed } }
}
