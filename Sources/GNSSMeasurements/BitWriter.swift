/// Writes fields most significant bit first into packed bytes, and hands them out in words of
/// any width: LNAV's 24 data bits, BeiDou D1's 22 information bits, the 32-bit words of
/// RXM-SFRBX, bytes for a CRC, or an RTCM 3 payload (`RTCMBitWriter`).
///
/// Fields gather in a 64-bit register that goes out to the storage a whole 64-bit word at a
/// time, so a field costs a few shifts rather than a step per bit or per byte. The first five
/// words are kept in the writer itself: a navigation message's part (at most 300 bits) takes
/// no allocation.
public struct BitWriter: Hashable, Sendable {
  /// The first whole 64-bit words written, their first bit the top one; zero beyond them.
  private var first = InlineWords()
  /// The whole words after the first five.
  private var more: [UInt64] = []
  /// How many whole words are written.
  private var wordCount = 0
  /// The bits after them, right-aligned: fewer than 64.
  private var pending: UInt64 = 0
  /// How many bits `pending` holds.
  private var pendingCount = 0

  /// An empty string of bits, with room for `capacity` bits before it grows.
  public init(capacity: Int = 256) {
    more.reserveCapacity(max(0, (capacity + 63) / 64 - InlineWords.count))
  }

  /// The number of bits written.
  public var count: Int { wordCount * 64 + pendingCount }

  /// The bytes written, the last one padded with zeros on the right.
  public var bytes: [UInt8] {
    let byteCount = (count + 7) / 8
    return [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
      for index in 0..<byteCount { buffer[index] = byte(at: index) }
      initialized = byteCount
    }
  }

  /// Appends the low `width` bits of `value` (two's complement for negative values; a width
  /// over 64 extends the sign).
  @inline(__always)
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
  @inline(__always)
  public mutating func append(unsigned value: UInt64, width: Int) {
    precondition(width >= 0 && width <= 64, "a field has 0 to 64 bits")
    let bits = width == 64 ? value : value & ((1 << UInt64(width)) - 1)
    let room = 64 - pendingCount
    guard width >= room else {
      pending = pending << UInt64(width) | bits
      pendingCount += width
      return
    }
    // The field fills the register: its top `room` bits end the word, the rest start the next.
    let rest = width - room
    let word = pending << UInt64(room) | bits >> UInt64(rest)
    if wordCount < InlineWords.count { first[wordCount] = word } else { more.append(word) }
    wordCount += 1
    pending = bits & ((1 << UInt64(rest)) - 1)
    pendingCount = rest
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

  /// The 64-bit word at `index` of the bits written, the pending bits padded with zeros.
  @inline(__always) private func word(at index: Int) -> UInt64 {
    if index < InlineWords.count, index < wordCount { return first[index] }
    return index < wordCount
      ? more[index - InlineWords.count] : pending << UInt64(64 - pendingCount)
  }

  /// The `width` bits (at most 64) from `offset`, as an unsigned integer.
  func field(at offset: Int, width: Int) -> UInt64 {
    guard width > 0 else { return 0 }
    if width > 32 {
      return field(at: offset, width: width - 32) << 32 | field(at: offset + width - 32, width: 32)
    }
    // At most 32 bits lie in at most two words: gather them at the top of one register.
    let index = offset / 64
    let shift = UInt64(offset % 64)
    var gathered = word(at: index) << shift
    if Int(shift) + width > 64 { gathered |= word(at: index + 1) >> (64 - shift) }
    return gathered >> UInt64(64 - width)
  }

  /// The bits in words of `width` bits (at most 32), each in the low bits of its word; a last
  /// word left short is filled with zeros on the right.
  func words(width: Int) -> [UInt32] { Self.words(width: width, of: self) }

  /// The words (as `words(width:)`) of each of `writers` in turn, in one array.
  static func words(width: Int, of writers: BitWriter...) -> [UInt32] {
    let total = writers.reduce(0) { $0 + ($1.count + width - 1) / width }
    return [UInt32](unsafeUninitializedCapacity: total) { words, initialized in
      for writer in writers {
        let count = writer.count
        for start in stride(from: 0, to: count, by: width) {
          let taken = min(width, count - start)
          words[initialized] = UInt32(writer.field(at: start, width: taken)) << (width - taken)
          initialized += 1
        }
      }
    }
  }

  /// The bytes written (as `bytes`), one by one without an array of them.
  var byteSequence: some Sequence<UInt8> {
    (0..<(count + 7) / 8).lazy.map { self.byte(at: $0) }
  }

  /// The byte at `index` of the bits written, the pending bits padded with zeros.
  private func byte(at index: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: word(at: index / 8) >> UInt64(56 - index % 8 * 8))
  }
}

/// Five 64-bit words in place.
private struct InlineWords: Hashable, Sendable {
  static let count = 5
  private var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)

  subscript(index: Int) -> UInt64 {
    get {
      switch index {
      case 0: return words.0
      case 1: return words.1
      case 2: return words.2
      case 3: return words.3
      default: return words.4
      }
    }
    set {
      switch index {
      case 0: words.0 = newValue
      case 1: words.1 = newValue
      case 2: words.2 = newValue
      case 3: words.3 = newValue
      default: words.4 = newValue
      }
    }
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    (0..<count).allSatisfy { lhs[$0] == rhs[$0] }
  }

  func hash(into hasher: inout Hasher) {
    for index in 0..<Self.count { hasher.combine(self[index]) }
  }
}
