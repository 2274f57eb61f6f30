/// Tells whether bytes read from a serial port are GNSS data: a whole NMEA sentence with a
/// correct checksum, or a whole UBX frame with a correct checksum. Used to find a receiver's
/// baud (`--passthrough-baud auto`) and to report a device that sends none.
///
/// PLACEHOLDER CONTRACT (issue 10): helper B replaces the body.
public struct GNSSDataDetector: Sendable {
  /// The rates `auto` tries, most common first.
  public static let candidateBauds = [9600, 4800, 38_400, 115_200, 57_600, 19_200, 230_400]
  /// How long `auto` listens at one rate: a 1 Hz receiver sends a burst each second.
  public static let dwellNanoseconds: Int64 = 1_500_000_000

  public init() {}

  /// Looks at the next bytes; true once GNSS data was seen (and from then on). Holds at most
  /// one sentence or frame's worth of bytes.
  public mutating func sawGNSSData(in chunk: some Collection<UInt8>) -> Bool { false }

  /// Forgets what was seen (after a change of baud).
  public mutating func reset() {}
}
