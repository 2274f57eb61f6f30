/// Writes fields most significant bit first into a string of bits, and hands them out in words
/// of any width: LNAV's 24 data bits, BeiDou D1's 22 information bits, the 32-bit words of
/// RXM-SFRBX or bytes for a CRC.
struct BitWriter: Sendable {
  /// The bits written, the first one first.
  private(set) var bits: [Bool] = []

  /// The number of bits written.
  var count: Int { bits.count }

  /// Appends the low `width` bits of `value` (two's complement for negative values).
  mutating func append(_ value: Int64, width: Int) {
    for shift in stride(from: width - 1, through: 0, by: -1) {
      bits.append(value >> Int64(shift) & 1 == 1)
    }
  }

  /// Appends `count` zero bits.
  mutating func appendZeros(_ count: Int) {
    bits += repeatElement(false, count: count)
  }

  /// Appends bits written elsewhere.
  mutating func append(bits others: some Sequence<Bool>) {
    bits += others
  }

  /// The `width` bits (at most 64) from `offset`, as an unsigned integer.
  func field(at offset: Int, width: Int) -> UInt64 {
    bits[offset..<offset + width].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
  }

  /// The bits in words of `width` bits (at most 32), each in the low bits of its word; a last
  /// word left short is filled with zeros on the right.
  func words(width: Int) -> [UInt32] {
    stride(from: 0, to: count, by: width).map { start in
      let taken = min(width, count - start)
      return UInt32(field(at: start, width: taken)) << (width - taken)
    }
  }

  /// The bits in bytes, a last byte left short filled with zeros on the right.
  var bytes: [UInt8] {
    words(width: 8).map { UInt8($0) }
  }
}
