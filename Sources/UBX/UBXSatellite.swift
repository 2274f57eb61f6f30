/// One satellite as NAV-SAT and NAV-SVINFO report it.
public struct UBXSatellite: Hashable, Sendable {
  /// The u-blox GNSS identifiers (`gnssId`).
  public enum System: UInt8, Hashable, Sendable {
    case gps = 0
    case sbas = 1
    case galileo = 2
    case beidou = 3
    case qzss = 5
    case glonass = 6
  }

  public var system: System
  /// The number within its system (`svId` of NAV-SAT): GPS PRN, GLONASS slot, Galileo and
  /// BeiDou satellite number.
  public var number: Int
  /// Carrier-to-noise density, dB-Hz; 0 when not tracked.
  public var carrierToNoise: Int
  public var elevationDegrees: Double
  public var azimuthDegrees: Double
  public var isUsed: Bool
  /// NAV-SIG's and RXM-RAWX's `freqId`: a GLONASS satellite's frequency channel plus 7, 0 for
  /// the other systems.
  public var frequencyID: UInt8

  /// Creates a satellite.
  public init(
    system: System, number: Int, carrierToNoise: Int, elevationDegrees: Double,
    azimuthDegrees: Double, isUsed: Bool, frequencyID: UInt8 = 0
  ) {
    self.system = system
    self.number = number
    self.carrierToNoise = carrierToNoise
    self.elevationDegrees = elevationDegrees
    self.azimuthDegrees = azimuthDegrees
    self.isUsed = isUsed
    self.frequencyID = frequencyID
  }

  /// The satellite's number in NAV-SVINFO's single numbering (u-blox 8 "extended"): GPS 1–32,
  /// SBAS 120–158, BeiDou 159–163 then 33–64, GLONASS 65–96, Galileo 211–246; nil where that
  /// numbering has no place for it.
  public var singleNumber: UInt8? {
    let number = self.number
    let mapped: Int?
    switch system {
    case .gps: mapped = (1...32).contains(number) ? number : nil
    case .sbas: mapped = (120...158).contains(number) ? number : nil
    case .glonass: mapped = (1...32).contains(number) ? 64 + number : nil
    case .galileo: mapped = (1...36).contains(number) ? 210 + number : nil
    case .beidou:
      mapped =
        (1...5).contains(number) ? 158 + number : (6...37).contains(number) ? 27 + number : nil
    case .qzss: mapped = (1...5).contains(number) ? 192 + number : nil
    }
    return mapped.map { UInt8($0) }
  }
}
