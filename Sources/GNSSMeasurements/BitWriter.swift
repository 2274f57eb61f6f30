/// Writes fields most significant bit first into packed bytes, and hands them out in words of
/// any width: LNAV's 24 data bits, BeiDou D1's 22 information bits, the 32-bit words of
/// RXM-SFRBX, bytes for a CRC, or an RTCM 3 payload (`RTCMBitWriter`).
///
/// Fields gather in a 64-bit register that goes out to the bytes eight bits at a time, so a
/// field costs a few shifts rather than a step per bit.
public struct BitWriter: Hashable, Sendable {
  /// The whole bytes written.
  private var storage: [UInt8] = []
  /// The bits after them, right-aligned: fewer than eight.
  private var pending: UInt64 = 0
  /// How many bits `pending` holds.
  private var pendingCount = 0

  /// An empty string of bits, with room for `capacity` bits before it grows.
  public init(capacity: Int = 256) {
    storage.reserveCapacity((capacity + 7) / 8)
  }

  /// The number of bits written.
  public var count: Int { storage.count * 8 + pendingCount }

  /// The bytes written, the last one padded with zeros on the right.
  public var bytes: [UInt8] {
    guard pendingCount > 0 else { return storage }
    return storage + [UInt8(truncatingIfNeeded: pending << UInt64(8 - pendingCount))]
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
    if width > 56 {
      // The register holds at most 7 + 56 bits: the top of a wide field goes first.
      append(unsigned: value >> 32, width: width - 32)
      append(unsigned: value & 0xFFFF_FFFF, width: 32)
      return
    }
    let mask: UInt64 = width == 64 ? .max : (1 << UInt64(width)) - 1
    pending = pending << UInt64(width) | value & mask
    pendingCount += width
    while pendingCount >= 8 {
      pendingCount -= 8
      storage.append(UInt8(truncatingIfNeeded: pending >> UInt64(pendingCount)))
    }
    pending &= (1 << UInt64(pendingCount)) - 1
  }

  /// Appends `count` zero bits.
  mutating func appendZeros(_ zeros: Int) {
    var remaining = zeros
    while remaining > 0 {
      let taken = min(remaining, 32)
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

  /// The byte at `index` of the bits written, the pending bits padded with zeros.
  private func byte(at index: Int) -> UInt64 {
    index < storage.count
      ? UInt64(storage[index]) : (pending << UInt64(8 - pendingCount)) & 0xFF
  }

  /// The `width` bits (at most 64) from `offset`, as an unsigned integer.
  ///
  /// The bytes that hold them (at most eight, for at most 56 bits) are gathered into one
  /// register, then shifted and masked once.
  func field(at offset: Int, width: Int) -> UInt64 {
    guard width > 0 else { return 0 }
    if width > 56 {
      return field(at: offset, width: width - 32) << 32 | field(at: offset + width - 32, width: 32)
    }
    let end = offset + width
    let last = (end - 1) / 8
    var gathered: UInt64 = 0
    for index in offset / 8...last { gathered = gathered << 8 | byte(at: index) }
    return gathered >> UInt64((last + 1) * 8 - end) & ((1 << UInt64(width)) - 1)
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
