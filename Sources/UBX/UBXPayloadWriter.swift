/// Builds a UBX payload field by field, little-endian as every UBX number is.
///
/// The bytes go into room made ahead (the capacity given, doubled when it runs out), so that a
/// field is a few stores rather than an append per byte.
public struct UBXPayloadWriter: Sendable {
  /// Room for the payload: its first `count` bytes are written, the rest are zero.
  private var storage: [UInt8]
  /// How many bytes are written.
  private var count = 0

  /// The bytes written so far.
  public var bytes: [UInt8] { count == storage.count ? storage : Array(storage[..<count]) }

  /// Creates an empty writer, with room for `capacity` bytes before it grows.
  public init(capacity: Int = 0) {
    storage = [UInt8](repeating: 0, count: max(0, capacity))
  }

  /// Makes room for `byteCount` more bytes, counts them as written and returns where they
  /// start; they are zero until stored.
  private mutating func advance(by byteCount: Int) -> Int {
    let offset = count
    count += byteCount
    if count > storage.count {
      storage += repeatElement(0, count: max(count, 2 * storage.count) - storage.count)
    }
    return offset
  }

  /// Appends an unsigned integer of `byteCount` bytes (`U1`, `U2`, `U4`, `X*`), low byte first.
  public mutating func unsigned(_ value: UInt64, byteCount: Int) {
    precondition(byteCount >= 0, "a field has no negative size")
    let offset = advance(by: byteCount)
    storage.withUnsafeMutableBufferPointer { buffer in
      for index in 0..<min(byteCount, 8) {
        buffer[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
      }
    }
  }

  /// Appends `U1`.
  public mutating func u1(_ value: UInt8) { unsigned(UInt64(value), byteCount: 1) }
  /// Appends `U2`.
  public mutating func u2(_ value: UInt16) { unsigned(UInt64(value), byteCount: 2) }
  /// Appends `U4`.
  public mutating func u4(_ value: UInt32) { unsigned(UInt64(value), byteCount: 4) }
  /// Appends `I1`.
  public mutating func i1(_ value: Int8) { u1(UInt8(bitPattern: value)) }
  /// Appends `I2`.
  public mutating func i2(_ value: Int16) { u2(UInt16(bitPattern: value)) }
  /// Appends `I4`.
  public mutating func i4(_ value: Int32) { u4(UInt32(bitPattern: value)) }
  /// Appends `count` zero bytes (reserved fields).
  public mutating func zeros(_ count: Int) { _ = advance(by: max(0, count)) }

  /// Appends `text` as a `CH[width]` field: ASCII, cut at `width`, padded with NUL bytes.
  public mutating func characters(_ text: String, width: Int) {
    let ascii = text.utf8.prefix(width)
    for byte in ascii { u1(byte) }
    zeros(width - ascii.count)
  }
}
