/// What a rover's corrections add to a solution: the carrier-phase state NAV-PVT, NAV-STATUS and
/// NAV-RELPOSNED report, the age of the corrections NAV-PVT reports, and the rover's position
/// relative to the reference station (NAV-RELPOSNED).
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

    /// Creates a relative position.
    public init(
      stationID: Int, correctionAgeSeconds: Double, northEastDown: Vector, headingDegrees: Double,
      accuracy: Vector
    ) {
      self.stationID = stationID
      self.correctionAgeSeconds = correctionAgeSeconds
      self.northEastDown = northEastDown
      self.headingDegrees = headingDegrees
      self.accuracy = accuracy
    }

    /// The baseline's length, meters.
    public var length: Double {
      let vector = northEastDown
      return (vector.x * vector.x + vector.y * vector.y + vector.z * vector.z).squareRoot()
    }
  }

  /// NAV-PVT's `lastCorrectionAge` (flags3 bits 1–4, u-blox 9): 0 with no corrections, else
  /// the band of the age: 1 under 1 s, 2 under 2 s, 3 under 5, 4 under 10, 5 under 15, 6 under
  /// 20, 7 under 30, 8 under 45, 9 under 60, 10 under 90, 11 under 120, 12 from 120 s.
  public var lastCorrectionAgeBand: UInt8 {
    guard let age = relativePosition?.correctionAgeSeconds else { return 0 }
    let upperBounds: [Double] = [1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120]
    return UInt8((upperBounds.firstIndex { age < $0 } ?? upperBounds.count) + 1)
  }
}
