/// Builds a UBX payload field by field, little-endian as every UBX number is.
public struct UBXPayloadWriter: Sendable {
  /// The bytes written so far.
  public private(set) var bytes: [UInt8] = []

  /// Creates an empty writer, with room for `capacity` bytes before it grows.
  public init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// Appends an unsigned integer of `byteCount` bytes (`U1`, `U2`, `U4`, `X*`), low byte first.
  public mutating func unsigned(_ value: UInt64, byteCount: Int) {
    for index in 0..<byteCount { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
  }

  /// Appends `U1`.
  public mutating func u1(_ value: UInt8) { bytes.append(value) }
  /// Appends `U2`.
  public mutating func u2(_ value: UInt16) { unsigned(UInt64(value), byteCount: 2) }
  /// Appends `U4`.
  public mutating func u4(_ value: UInt32) { unsigned(UInt64(value), byteCount: 4) }
  /// Appends `I1`.
  public mutating func i1(_ value: Int8) { bytes.append(UInt8(bitPattern: value)) }
  /// Appends `I2`.
  public mutating func i2(_ value: Int16) { u2(UInt16(bitPattern: value)) }
  /// Appends `I4`.
  public mutating func i4(_ value: Int32) { u4(UInt32(bitPattern: value)) }
  /// Appends `count` zero bytes (reserved fields).
  public mutating func zeros(_ count: Int) { bytes += repeatElement(0, count: count) }

  /// Appends `text` as a `CH[width]` field: ASCII, cut at `width`, padded with NUL bytes.
  public mutating func characters(_ text: String, width: Int) {
    let ascii = text.utf8.prefix(width)
    bytes += ascii
    zeros(width - ascii.count)
  }
}
