/// Writes fields most significant bit first into packed bytes, and hands them out in words of
/// any width: LNAV's 24 data bits, BeiDou D1's 22 information bits, the 32-bit words of
/// RXM-SFRBX, bytes for a CRC, or an RTCM 3 payload (`RTCMBitWriter`).
public struct BitWriter: Hashable, Sendable {
  /// The bytes written, the last one padded with zeros on the right.
  public private(set) var bytes: [UInt8] = []
  /// The number of bits written.
  public private(set) var count = 0

  /// An empty string of bits, with room for `capacity` bits before it grows.
  public init(capacity: Int = 256) {
    bytes.reserveCapacity((capacity + 7) / 8)
  }

  /// Appends the low `width` bits of `value` (two's complement for negative values; a width
  /// over 64 extends the sign).
  public mutating func append(_ value: Int64, width: Int) {
    var extra = width - 64
    while extra > 0 {
      let taken = min(extra, 64)
      append(unsigned: value < 0 ? .max : 0, width: taken)
      extra -= taken
    }
    append(unsigned: UInt64(bitPattern: value), width: min(width, 64))
  }

  /// Appends the low `width` bits (at most 64) of `value`.
  public mutating func append(unsigned value: UInt64, width: Int) {
    precondition(width >= 0 && width <= 64, "a field has 0 to 64 bits")
    var remaining = width
    while remaining > 0 {
      let offset = count % 8
      if offset == 0 { bytes.append(0) }
      let room = 8 - offset
      let taken = min(room, remaining)
      let chunk = UInt8(
        truncatingIfNeeded: (value >> UInt64(remaining - taken)) & ((1 << taken) - 1))
      bytes[bytes.count - 1] |= chunk << (room - taken)
      remaining -= taken
      count += taken
    }
  }

  /// Appends `count` zero bits.
  mutating func appendZeros(_ zeros: Int) {
    var remaining = zeros
    while remaining > 0 {
      let taken = min(remaining, 64)
      append(unsigned: 0, width: taken)
      remaining -= taken
    }
  }

  /// Appends the bits `range` of another writer.
  mutating func append(_ other: BitWriter, bits range: Range<Int>) {
    var start = range.lowerBound
    while start < range.upperBound {
      let taken = min(32, range.upperBound - start)
      append(unsigned: other.field(at: start, width: taken), width: taken)
      start += taken
    }
  }

  /// The `width` bits (at most 64) from `offset`, as an unsigned integer.
  func field(at offset: Int, width: Int) -> UInt64 {
    var value: UInt64 = 0
    var position = offset
    var remaining = width
    while remaining > 0 {
      let inByte = position % 8
      let taken = min(8 - inByte, remaining)
      let byte = UInt64(bytes[position / 8])
      value = value << UInt64(taken) | (byte >> UInt64(8 - inByte - taken)) & ((1 << taken) - 1)
      position += taken
      remaining -= taken
    }
    return value
  }

  /// The bits in words of `width` bits (at most 32), each in the low bits of its word; a last
  /// word left short is filled with zeros on the right.
  func words(width: Int) -> [UInt32] {
    stride(from: 0, to: count, by: width).map { start in
      let taken = min(width, count - start)
      return UInt32(field(at: start, width: taken)) << (width - taken)
    }
  }
}
