/// Writes a sentence as the bytes that go on the wire: each field after its comma, numbers as
/// ASCII digits straight into the buffer, then the checksum of what was written and CR LF.
///
/// The field specs write through it (`write(_:of:)`), and so do `SentenceBody.lineBytes`,
/// `SentenceBody.raw` and `RawSentence.lineBytes`: a sentence's layout is written by one path,
/// whether it ends up as a line or as fields. The field values (`NMEADecimal`, `NMEATime`, …)
/// write their text through it too, and their `description` is that text.
///
/// The bytes go into room the writer grows by doubling, as stores through a pointer: an array
/// appended to byte by byte checks its uniqueness and capacity at every byte, which cost three
/// times the stores. A line starts in room its caller lends (on the stack, `withLineRoom`), so
/// that a sentence allocates only its finished line. Not copyable, so room the writer allocated
/// is freed exactly once.
public struct SentenceWriter: ~Copyable {
  /// The room of a line before it grows: an NMEA sentence is at most 82 bytes.
  @usableFromInline static let lineRoom = 96
  /// The room: its first `count` bytes are written.
  private var room: UnsafeMutableBufferPointer<UInt8>
  /// False while the room is the caller's (`init(startDelimiter:room:)`).
  private var ownsRoom = true
  /// How many bytes are written.
  @usableFromInline var count = 0
  /// The number of bytes the checksum skips: the start delimiter.
  private var checksumStart = 0
  /// How many fields have been started.
  @usableFromInline var fieldCount = 0
  /// Where each field's text starts, kept only by a writer made to give the fields as text
  /// (`fields`).
  private var fieldStarts: [Int]?

  /// A point in the writing to come back to (`rewind(to:)`).
  @usableFromInline struct Mark {
    @usableFromInline let byteCount: Int
    @usableFromInline let fieldCount: Int
  }

  /// A writer of a value's text, or of fields to be read back as text with `fields`.
  @usableFromInline init(keepingFields: Bool = false) {
    room = .allocate(capacity: 32)
    fieldStarts = keepingFields ? [] : nil
  }

  /// A writer of a line that starts with `startDelimiter` (`$`, or `!` for encapsulated
  /// sentences), with room for `capacity` bytes before it grows.
  init(startDelimiter: Character, capacity: Int) {
    room = .allocate(capacity: max(1, capacity))
    append(startDelimiter.utf8)
    checksumStart = count
  }

  /// A writer of a line that starts with the ASCII byte `startDelimiter`, written into `room`
  /// (which must outlive the writer and hold at least one byte) until it outgrows it.
  @usableFromInline init(startDelimiter: UInt8, room: UnsafeMutableBufferPointer<UInt8>) {
    self.room = room
    ownsRoom = false
    append(ascii: startDelimiter)
    checksumStart = count
  }

  deinit { if ownsRoom { room.deallocate() } }

  /// Runs `body` with room on the stack for a line (`init(startDelimiter:room:)`).
  @inlinable static func withLineRoom<Result>(
    _ body: (UnsafeMutableBufferPointer<UInt8>) -> Result
  ) -> Result {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: lineRoom, body)
  }

  /// The text of whatever `write` writes.
  static func text(_ write: (inout SentenceWriter) -> Void) -> String {
    var writer = SentenceWriter()
    write(&writer)
    return String(decoding: writer.written, as: UTF8.self)
  }

  /// The bytes written.
  private var written: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: room[..<count])
  }

  /// The point reached so far.
  @usableFromInline var mark: Mark { Mark(byteCount: count, fieldCount: fieldCount) }

  /// Drops what was written after `mark`.
  @usableFromInline mutating func rewind(to mark: Mark) {
    count = mark.byteCount
    fieldCount = mark.fieldCount
    if let kept = fieldStarts?.count { fieldStarts?.removeLast(kept - mark.fieldCount) }
  }

  /// The next `byteCount` bytes, counted as written: the caller stores every one of them.
  ///
  /// From the room's address rather than a slice of it: the room was just made to hold them,
  /// and a slice checks its bounds again at every field.
  @inline(__always)
  private mutating func next(_ byteCount: Int) -> UnsafeMutableBufferPointer<UInt8> {
    if count + byteCount > room.count { grow(toHold: count + byteCount) }
    // The room is never empty (every initializer gives it a byte or more), so it has an address.
    let start = room.baseAddress.unsafelyUnwrapped + count
    count += byteCount
    return UnsafeMutableBufferPointer(start: start, count: byteCount)
  }

  private mutating func grow(toHold byteCount: Int) {
    let larger = UnsafeMutableBufferPointer<UInt8>.allocate(
      capacity: max(byteCount, 2 * room.count))
    _ = larger.initialize(fromContentsOf: written)
    if ownsRoom { room.deallocate() }
    room = larger
    ownsRoom = true
  }

  /// Appends an ASCII byte.
  @inline(__always)
  mutating func append(ascii byte: UInt8) {
    next(1)[0] = byte
  }

  /// Appends text as it is, in UTF-8.
  @usableFromInline mutating func append(_ text: String) {
    append(text.utf8)
  }

  private mutating func append(_ utf8: String.UTF8View) {
    let copied: Void? = utf8.withContiguousStorageIfAvailable { bytes in
      // Byte by byte: the texts are a few bytes (talker, type, units), too short for memcpy.
      let target = next(bytes.count)
      for index in bytes.indices { target[index] = bytes[index] }
    }
    if copied == nil {
      for byte in utf8 { append(ascii: byte) }
    }
  }

  /// Appends a character in UTF-8, without making it a string first.
  mutating func append(_ character: Character) {
    for byte in character.utf8 { append(ascii: byte) }
  }

  /// Appends a number's text (see `NMEADecimal.description`).
  mutating func append(_ decimal: NMEADecimal) {
    decimal.writeText(into: next(decimal.textLength))
  }

  /// Appends an integer's digits, with a zero before a value below 10, as `hhmmss` and `ddmmyy`
  /// write their parts.
  mutating func appendTwoDigits(_ value: Int) {
    if (0..<100).contains(value) {
      let digits = next(2)
      digits[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
      digits[1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
      return
    }
    if value < 10 { append(ascii: UInt8(ascii: "0")) }
    append(NMEADecimal(integer: value))
  }

  /// Starts a field: its comma.
  @usableFromInline mutating func startField() {
    append(ascii: UInt8(ascii: ","))
    fieldCount += 1
    fieldStarts?.append(count)
  }

  /// Writes `count` empty fields.
  @usableFromInline mutating func appendEmptyFields(_ count: Int) {
    for _ in 0..<max(0, count) { startField() }
  }

  /// Writes a field holding `text` as written.
  @usableFromInline mutating func appendField(_ text: String) {
    startField()
    append(text)
  }

  /// Writes a field holding a number, or an empty field for nil.
  mutating func appendField(_ decimal: NMEADecimal?) {
    startField()
    if let decimal { append(decimal) }
  }

  /// The fields written, as text.
  @usableFromInline var fields: [String] {
    guard let fieldStarts else { return [] }
    return fieldStarts.indices.map { index in
      let end = index + 1 < fieldStarts.count ? fieldStarts[index + 1] - 1 : count
      return String(decoding: written[fieldStarts[index]..<end], as: UTF8.self)
    }
  }

  /// The line: what was written, then `*hh` (when `hasChecksum`) and CR LF.
  @usableFromInline consuming func finishedLine(hasChecksum: Bool = true) -> [UInt8] {
    if hasChecksum {
      let checksum = Checksum.of(
        UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: written[checksumStart...])))
      let star = next(3)
      star[0] = UInt8(ascii: "*")
      star[1] = Checksum.hexDigit(checksum >> 4)
      star[2] = Checksum.hexDigit(checksum & 0x0F)
    }
    let end = next(2)
    end[0] = 0x0D
    end[1] = 0x0A
    return Array(written)
  }
}
