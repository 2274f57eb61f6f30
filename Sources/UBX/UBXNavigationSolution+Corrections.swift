/// What RTK adds to a solution: for a rover, the carrier-phase state NAV-PVT, NAV-STATUS and
/// NAV-RELPOSNED report, the age of the corrections NAV-PVT reports, and the rover's position
/// relative to the reference station (NAV-RELPOSNED); for a reference station, its survey-in
/// (NAV-SVIN).
extension UBXNavigationSolution {
  /// The carrier-phase range solution (`carrSoln`).
  public enum CarrierSolution: UInt8, Hashable, Sendable {
    case none = 0
    /// Float ambiguities.
    case float = 1
    /// Fixed ambiguities.
    case fixed = 2
  }

  /// The rover's antenna from the station's, with the station and the corrections' age.
  public struct RelativePosition: Hashable, Sendable {
    /// The reference station's ID (`refStationID`, 0–4095).
    public var stationID: Int
    /// Seconds since the corrections used arrived.
    public var correctionAgeSeconds: Double
    /// North, east, down, meters.
    public var northEastDown: Vector
    /// The vector's heading, degrees clockwise from north (0 up to 360).
    public var headingDegrees: Double
    /// The one-sigma accuracy of each component, meters.
    public var accuracy: Vector
    /// The vector's carrier-phase solution (`carrSoln`): the position's for a fixed station,
    /// the vector's own for a moving base.
    public var carrierSolution: CarrierSolution
    /// True when the station is a moving base (`isMoving`): the heading is then valid
    /// (`relPosHeadingValid`) once the carrier solution floats or is fixed.
    public var isMoving: Bool
    /// For a moving base: its position (`refPosMiss`) or its observations (`refObsMiss`) were
    /// older than the other.
    public var referencePositionMissed = false
    public var referenceObservationsMissed = false

    /// Creates a relative position.
    public init(
      stationID: Int, correctionAgeSeconds: Double, northEastDown: Vector, headingDegrees: Double,
      accuracy: Vector, carrierSolution: CarrierSolution = .none, isMoving: Bool = false
    ) {
      self.stationID = stationID
      self.correctionAgeSeconds = correctionAgeSeconds
      self.northEastDown = northEastDown
      self.headingDegrees = headingDegrees
      self.accuracy = accuracy
      self.carrierSolution = carrierSolution
      self.isMoving = isMoving
    }

    /// The baseline's length, meters.
    public var length: Double {
      let vector = northEastDown
      return (vector.x * vector.x + vector.y * vector.y + vector.z * vector.z).squareRoot()
    }
  }

  /// A reference station's survey-in (NAV-SVIN).
  public struct Survey: Hashable, Sendable {
    /// Seconds it has run.
    public var durationSeconds: Int
    /// The mean position, ECEF meters.
    public var mean: Vector
    /// The mean's accuracy, meters.
    public var meanAccuracyMeters: Double
    /// Positions used.
    public var observations: Int
    public var isValid: Bool
    public var isActive: Bool

    /// Creates a survey-in state.
    public init(
      durationSeconds: Int, mean: Vector, meanAccuracyMeters: Double, observations: Int,
      isValid: Bool, isActive: Bool
    ) {
      self.durationSeconds = durationSeconds
      self.mean = mean
      self.meanAccuracyMeters = meanAccuracyMeters
      self.observations = observations
      self.isValid = isValid
      self.isActive = isActive
    }
  }

  /// UBX-NAV-SVIN (0x01 0x3B), 40 bytes, u-blox 9: the survey-in's duration, mean position (cm
  /// plus 0.1 mm parts), its accuracy (0.1 mm), observations, `valid` and `active`; all zero
  /// for a chip that is no station.
  public var navSVIN: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u1(0)  // version
    payload.zeros(3)
    payload.u4(timeOfWeekMilliseconds)
    guard let survey else {
      payload.zeros(32)
      return UBXFrame(.navSVIN, payload: payload.bytes)
    }
    payload.u4(UInt32(clamping: survey.durationSeconds))
    let parts = [survey.mean.x, survey.mean.y, survey.mean.z].map {
      Self.split($0, coarse: 100, fine: 10_000)
    }
    for part in parts { payload.i4(part.coarse) }
    for part in parts { payload.u1(UInt8(bitPattern: part.fine)) }
    payload.u1(0)  // reserved1
    payload.u4(Self.unsigned(survey.meanAccuracyMeters, scale: 1e4))
    payload.u4(UInt32(clamping: survey.observations))
    payload.u1(survey.isValid ? 1 : 0)
    payload.u1(survey.isActive ? 1 : 0)
    payload.zeros(2)
    return UBXFrame(.navSVIN, payload: payload.bytes)
  }

  /// NAV-PVT's `lastCorrectionAge` (flags3 bits 1–4, u-blox 9): 0 with no corrections, else
  /// the band of the age: 1 under 1 s, 2 under 2 s, 3 under 5, 4 under 10, 5 under 15, 6 under
  /// 20, 7 under 30, 8 under 45, 9 under 60, 10 under 90, 11 under 120, 12 from 120 s. A
  /// moving base's corrections leave the position standalone (`diffSoln` 0): 0 for them too.
  public var lastCorrectionAgeBand: UInt8 {
    guard let relative = relativePosition, !relative.isMoving else { return 0 }
    let age = relative.correctionAgeSeconds
    let upperBounds: [Double] = [1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120]
    return UInt8((upperBounds.firstIndex { age < $0 } ?? upperBounds.count) + 1)
  }
}
