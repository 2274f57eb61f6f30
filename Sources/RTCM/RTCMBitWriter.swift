import GNSSMeasurements

/// Writes the fields of an RTCM 3 payload: big-endian bit fields, most significant bit first,
/// packed without padding; the payload is padded with zeros to a whole byte.
public struct RTCMBitWriter: Sendable {
  /// The bits.
  private var writer = BitWriter(capacity: 1024)
  /// The bytes written so far, the last one padded with zeros.
  public var bytes: [UInt8] { writer.bytes }
  /// The number of bits written.
  public var bitCount: Int { writer.count }

  /// An empty payload.
  public init() {}

  /// Appends the low `width` bits (at most 64) of `value`, an unsigned field (DF type uint).
  public mutating func append(unsigned value: UInt64, width: Int) {
    writer.append(unsigned: value, width: width)
  }

  /// Appends a signed two's complement field (DF type int) of `width` bits.
  public mutating func append(signed value: Int64, width: Int) {
    append(unsigned: UInt64(bitPattern: value), width: width)
  }

  /// Appends a sign-magnitude field (DF type intS): the top bit is the sign (1 negative), the
  /// other `width − 1` bits the magnitude.
  public mutating func append(signMagnitude value: Int64, width: Int) {
    append(unsigned: value < 0 ? 1 : 0, width: 1)
    append(unsigned: value.magnitude, width: width - 1)
  }

  /// Appends a flag as one bit.
  public mutating func append(_ flag: Bool) {
    append(unsigned: flag ? 1 : 0, width: 1)
  }
}
