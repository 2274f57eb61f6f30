import NMEA

/// Reads a text line: an NMEA sentence (`$`, or `!` for AIS), a `#` comment, or a `{` JSON
/// object as gpsd's passthrough logs hold, up to and including its line end.
///
/// A sentence ends at LF, or at a CR not followed by LF or CR (the bytes of the line end are
/// kept as they are). A `$` or the lead byte of a UBX, SiRF or RTCM 3 frame inside a sentence
/// cuts it off (`.truncated`); other control bytes inside it are `.controlCharacter`. A byte
/// that is not printable ASCII in a comment or a JSON object makes it garbage (`.garbageBefore`).
struct TextLineFramer: Sendable {
  /// The longest line read as one packet: longer ones are `.tooLong`.
  static let maximumLength = 4096

  enum Form: Sendable { case nmea, comment, json }

  let form: Form
  private var afterCR = false
  /// `$PASHR,` sentences may carry binary data: as in gpsd, one ends at CR LF followed by `$`.
  private var isPASHR = false
  private var afterCRLF = false
  private var hasControlCharacter = false
  private var utf8 = UTF8Check()

  init?(first byte: UInt8) {
    switch byte {
    case UInt8(ascii: "$"), UInt8(ascii: "!"): form = .nmea
    case UInt8(ascii: "#"): form = .comment
    case UInt8(ascii: "{"): form = .json
    default: return nil
    }
  }

  private var kind: LogPacket.Kind {
    switch form {
    case .nmea: return .nmea
    case .comment: return .comment
    case .json: return .otherBinary
    }
  }

  mutating func step(_ frame: [UInt8]) -> FrameStep {
    let byte = frame[frame.count - 1]
    if form == .nmea && frame.count == Self.pashrPrefix.count && frame == Self.pashrPrefix {
      isPASHR = true
    }
    if isPASHR { return pashrStep(frame) }
    if afterCR {
      switch byte {
      case 0x0A: return .done(kind, problem(frame))
      case 0x0D: return .more
      default: return .doneBefore(kind, problem(frame.dropLast()))
      }
    }
    switch byte {
    case 0x0A: return .done(kind, problem(frame))
    case 0x0D:
      afterCR = true
      return .more
    default: break
    }
    // A `#` or `{` met in binary data is no comment or JSON object when a control byte or
    // (in a comment) bytes that are no UTF-8 follow before the line end: its bytes are
    // garbage, and what follows is read again (the first RMC of ublox-zed-f9p_hpg1.11 came
    // after a `#`). gpsd's lexer ends a comment at any byte `isprint` refuses; the corpus's
    // remarks hold tabs and UTF-8, kept as comments here.
    if form != .nmea && (byte < 0x20 && byte != 0x09 || byte == 0x7F) { return .garbageBefore }
    if form == .comment && !utf8.accepts(byte) { return .garbageBefore }
    if form == .json && !Self.continuesJSON(byte, at: frame.count - 1) { return .notAFrame }
    if form == .nmea && frame.count > 1 && Self.cutsSentence(byte) {
      return .doneBefore(.nmea, .truncated)
    }
    if byte < 0x20 && byte != 0x09 || byte == 0x7F || byte >= 0x80 && form == .nmea {
      hasControlCharacter = true
    }
    return frame.count >= Self.maximumLength ? .done(kind, .tooLong) : .more
  }

  /// The sentence that starts at `start` when `bytes` hold the whole of it and it is an
  /// ordinary one: a `$` or `!`, printable ASCII other than `$`, then LF or CR LF, not a
  /// `$PASHR,`, shorter than `maximumLength`. It is the packet that `step` gives fed these bytes
  /// one by one (then the sentence's problem is only its checksum's), read at once: most of a
  /// log is such sentences. Returns the index after its last byte, and its problem; nil for
  /// anything else, which is stepped byte by byte.
  static func wholeSentence(in bytes: UnsafeBufferPointer<UInt8>, from start: Int)
    -> (end: Int, problem: LogPacket.Problem?)?
  {
    guard bytes[start] == UInt8(ascii: "$") || bytes[start] == UInt8(ascii: "!") else {
      return nil
    }
    // `step` reads a byte after the first `maximumLength - 1` as a line too long.
    let limit = min(bytes.endIndex, start + maximumLength - 1)
    var end = endOfPlainBytes(in: bytes, from: start + 1, before: limit)
    guard end < limit else { return nil }
    if bytes[end] == 0x0D, end + 1 < bytes.endIndex { end += 1 }
    guard bytes[end] == 0x0A else { return nil }
    let sentence = UnsafeBufferPointer(rebasing: bytes[start...end])
    guard !sentence.starts(with: pashrPrefix) else { return nil }
    let problem: LogPacket.Problem? = NMEALineCheck.checksumIsWrong(sentence) ? .badChecksum : nil
    return (end + 1, problem)
  }

  /// A byte that neither ends, cuts nor spoils a sentence.
  private static func isPlain(_ byte: UInt8) -> Bool {
    byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "$")
  }

  /// The index of the first byte from `start` that is not plain, or `limit`: eight bytes at
  /// a time while a word holds only plain ones, then byte by byte.
  private static func endOfPlainBytes(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before limit: Int
  ) -> Int {
    let raw = UnsafeRawBufferPointer(bytes)
    var index = start
    while index + 8 <= limit {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      if mayHoldNotPlain(word) { break }
      index += 8
    }
    while index < limit, isPlain(bytes[index]) { index += 1 }
    return index
  }

  /// False when each of the eight bytes of `word` is plain; true when one may not be (a
  /// true only sends the word to the byte-by-byte look). Carry-free byte tests after "Bit
  /// Twiddling Hacks" (haszero, hasless): a byte of 0x80 or above, one below 0x20, a DEL
  /// (0x7F) or a `$`.
  private static func mayHoldNotPlain(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits = ones &* 0x80
    /// True when a byte of `word` is below `bound` (at most 0x80), bytes of 0x80 or above
    /// aside.
    func holdsByteBelow(_ bound: UInt64, _ word: UInt64) -> Bool {
      (word &- ones &* bound) & ~word & highBits != 0
    }
    return word & highBits != 0 || holdsByteBelow(0x20, word)
      || holdsByteBelow(1, word ^ (ones &* 0x7F)) || holdsByteBelow(1, word ^ (ones &* 0x24))
  }

  /// The start of a `$PASHR` sentence, which may carry binary data.
  static let pashrPrefix = Array("$PASHR,".utf8)

  private mutating func pashrStep(_ frame: [UInt8]) -> FrameStep {
    let byte = frame[frame.count - 1]
    if afterCRLF && byte == UInt8(ascii: "$") { return .doneBefore(.nmea, nil) }
    afterCRLF = byte == 0x0A && frame[frame.count - 2] == 0x0D
    // A text PASHR (`$PASHR,POS,…*hh` CR LF) with a matching checksum ends at its LF, so that a
    // live stream need not wait for the next sentence; binary ones have no `*hh` before it.
    if afterCRLF && Self.endsWithMatchingChecksum(frame) { return .done(.nmea, nil) }
    return frame.count >= Self.maximumLength ? .done(.nmea, .tooLong) : .more
  }

  /// True when `frame` ends in `*hh` CR LF and hh is the checksum of the bytes between `$`
  /// and `*`.
  private static func endsWithMatchingChecksum(_ frame: [UInt8]) -> Bool {
    let count = frame.count
    guard count >= 7, frame[count - 5] == UInt8(ascii: "*"),
      let high = NMEALineCheck.hexValue(frame[count - 4]),
      let low = NMEALineCheck.hexValue(frame[count - 3])
    else { return false }
    return Checksum.of(frame[1..<(count - 5)]) == high << 4 | low
  }

  /// A sentence cut off by the end of the log.
  func cutOff(_ frame: [UInt8]) -> LogPacket {
    // A sentence that ends in CR at the end of the log ended there (CR-only line ends).
    if form == .nmea && !isPASHR && afterCR {
      return LogPacket(kind: kind, bytes: frame, line: 0, problem: problem(frame))
    }
    let complete = form != .nmea || isPASHR && afterCRLF
    return LogPacket(kind: kind, bytes: frame, line: 0, problem: complete ? nil : .truncated)
  }

  /// gpsd's JSON packets (passthrough logs) are ASCII objects of attributes, their first byte
  /// after the brace a quote or a space.
  private static func continuesJSON(_ byte: UInt8, at index: Int) -> Bool {
    byte < 0x80 && (index != 1 || byte == UInt8(ascii: "\"") || byte == 0x20)
  }

  private static func cutsSentence(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "$") || byte == 0xB5 || byte == 0xA0 || byte == 0xD3
  }

  /// The problem of a complete line (`line` with its line end).
  private func problem(_ line: some Collection<UInt8>) -> LogPacket.Problem? {
    guard form == .nmea else { return nil }
    if hasControlCharacter { return .controlCharacter }
    return NMEALineCheck.checksumIsWrong(Array(line)) ? .badChecksum : nil
  }
}

/// The checksum check of an NMEA line, as gpsd's lexer makes it: the hex digits after the last
/// `*` must be the checksum; a line without `*` passes (gpsd accepts sentences without a
/// checksum, and `$PASHR` never has a valid one), a `*` without two digits fails.
enum NMEALineCheck {
  static func checksumIsWrong(_ line: [UInt8]) -> Bool {
    line.withUnsafeBufferPointer { checksumIsWrong($0) }
  }

  /// The check of a line in memory, its body summed eight bytes at a time (every sentence of
  /// a replayed log is checked: summed byte by byte from an array, 4 % of an unpaced replay).
  static func checksumIsWrong(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    if line.starts(with: TextLineFramer.pashrPrefix) { return false }
    var end = line.count - 1
    while end > 0, line[end] == 0x0A || line[end] == 0x0D || line[end] == 0x20 { end -= 1 }
    while end > 0, isUpperHex(line[end]) { end -= 1 }
    guard end > 0, line[end] == UInt8(ascii: "*") else { return false }
    let sum = Checksum.of(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: line[1..<end])))
    guard end + 2 < line.count, let high = hexValue(line[end + 1]),
      let low = hexValue(line[end + 2])
    else { return true }
    return sum != high << 4 | low
  }

  private static func isUpperHex(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    default: return nil
    }
  }
}

/// Whether bytes read one by one are UTF-8 so far: each lead byte followed by its continuation
/// bytes (overlong forms and surrogates are not told apart).
struct UTF8Check: Sendable {
  /// Continuation bytes still expected.
  private var pending = 0

  /// Reads `byte`: false when it cannot come here in UTF-8.
  mutating func accepts(_ byte: UInt8) -> Bool {
    if pending > 0 {
      guard byte & 0xC0 == 0x80 else { return false }
      pending -= 1
      return true
    }
    switch byte {
    case 0x00...0x7F: return true
    case 0xC2...0xDF: pending = 1
    case 0xE0...0xEF: pending = 2
    case 0xF0...0xF4: pending = 3
    default: return false
    }
    return true
  }
}
