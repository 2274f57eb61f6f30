/// A Multiple Signal Message (RTCM 10403.3, 3.5.16): one system's observations of one epoch,
/// as values in SI units; the rough and fine fields are made when encoding.
///
/// Header (169 bits plus the cell mask):
///
///     DF002 12 | DF003 12 | epoch time 30 | DF393 1 | DF409 3 | DF001 7 | DF411 2 | DF412 2
///     | DF417 1 | DF418 3 | DF394 64 | DF395 32 | DF396 Nsat×Nsig
///
/// Satellite data, each field for every satellite in turn: DF397 8 [| extended info 4] | DF398 10
/// [| DF399 14] (bracketed fields in MSM7 only). Signal data, each field for every cell in turn:
/// DF400/DF405 | DF401/DF406 | DF402/DF407 | DF420 | DF403/DF408 [| DF404].
public struct MSMMessage: Hashable, Sendable {
  /// Light's travel in one millisecond, meters: the unit of the range fields.
  public static let metersPerMillisecond = 299_792.458

  /// One signal of one satellite (a cell).
  public struct Observation: Hashable, Sendable {
    /// The satellite's ID within the system (1–64; the PRN for GPS).
    public var satelliteID: Int
    /// The signal ID (1–32) of the system's table.
    public var signalID: Int
    /// The pseudorange, meters; nil when invalid.
    public var pseudorangeMeters: Double?
    /// The carrier phase times the wavelength, meters; nil when invalid.
    public var phaseRangeMeters: Double?
    /// The phase range's rate, m/s (MSM7 only); nil when invalid.
    public var phaseRangeRateMetersPerSecond: Double? = nil
    /// How long the carrier has been tracked without a slip, milliseconds.
    public var lockTimeMilliseconds: Int
    /// True while the half-cycle ambiguity is unresolved (DF420).
    public var halfCycleAmbiguity = false
    /// Carrier-to-noise density, dB-Hz; nil when not computed (0 on the wire).
    public var carrierToNoise: Double?

    /// A cell.
    public init(
      satelliteID: Int, signalID: Int, pseudorangeMeters: Double?, phaseRangeMeters: Double?,
      phaseRangeRateMetersPerSecond: Double? = nil, lockTimeMilliseconds: Int,
      halfCycleAmbiguity: Bool = false, carrierToNoise: Double?
    ) {
      self.satelliteID = satelliteID
      self.signalID = signalID
      self.pseudorangeMeters = pseudorangeMeters
      self.phaseRangeMeters = phaseRangeMeters
      self.phaseRangeRateMetersPerSecond = phaseRangeRateMetersPerSecond
      self.lockTimeMilliseconds = lockTimeMilliseconds
      self.halfCycleAmbiguity = halfCycleAmbiguity
      self.carrierToNoise = carrierToNoise
    }
  }

  /// The system.
  public var system: MSMSystem
  /// MSM4 or MSM7.
  public var kind: MSMKind
  /// The reference station ID (DF003).
  public var stationID: Int
  /// The epoch time field as sent (30 bits): for GPS, Galileo and BeiDou the milliseconds of
  /// the week in the system's time; for GLONASS the day of week (3 bits) and milliseconds of
  /// the day.
  public var epochTime: Int
  /// True when more MSMs of the same epoch follow (DF393).
  public var moreMessagesFollow: Bool
  /// Issue of data station (DF409).
  public var issueOfDataStation: Int
  /// Clock steering (DF411): 0 none, 1 steered, 2 unknown, 3 reserved.
  public var clockSteering: Int
  /// External clock (DF412): 0 internal, 1 external locked, 2 external not locked, 3 unknown.
  public var externalClock: Int
  /// Divergence-free smoothing (DF417).
  public var divergenceFreeSmoothing: Bool
  /// The smoothing interval code (DF418), 0 for none.
  public var smoothingInterval: Int
  /// The extended satellite information of MSM7 by satellite ID (GLONASS: channel + 7).
  public var extendedSatelliteInfo: [Int: Int]
  /// The cells, sorted by satellite then signal.
  public var observations: [Observation]

  /// A message; observations are sorted by satellite then signal.
  public init(
    system: MSMSystem, kind: MSMKind, stationID: Int, epochTime: Int,
    moreMessagesFollow: Bool = false, issueOfDataStation: Int = 0, clockSteering: Int = 0,
    externalClock: Int = 0, divergenceFreeSmoothing: Bool = false, smoothingInterval: Int = 0,
    extendedSatelliteInfo: [Int: Int] = [:], observations: [Observation]
  ) {
    self.system = system
    self.kind = kind
    self.stationID = stationID
    self.epochTime = epochTime
    self.moreMessagesFollow = moreMessagesFollow
    self.issueOfDataStation = issueOfDataStation
    self.clockSteering = clockSteering
    self.externalClock = externalClock
    self.divergenceFreeSmoothing = divergenceFreeSmoothing
    self.smoothingInterval = smoothingInterval
    self.extendedSatelliteInfo = extendedSatelliteInfo
    self.observations = observations.sorted {
      ($0.satelliteID, $0.signalID) < ($1.satelliteID, $1.signalID)
    }
  }

  /// The message number: the system's base plus the kind.
  public var messageNumber: Int { system.baseMessageNumber + kind.rawValue }

  /// The satellite IDs present, ascending.
  public var satelliteIDs: [Int] { Array(Set(observations.map(\.satelliteID))).sorted() }

  /// The signal IDs present, ascending.
  public var signalIDs: [Int] { Array(Set(observations.map(\.signalID))).sorted() }
}
