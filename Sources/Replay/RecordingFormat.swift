/// mockgps's own recording format (`mockgps record`), replayable with `mockgps run --replay`.
///
/// A text header, then one record per read from the device, each with its arrival time:
///
/// ```
/// # mockgps recording 1
/// # Device: /dev/ttyUSB0
/// # Serial: 9600 8N1
/// @1764540000.123456789 82
/// <the 82 bytes read, exactly as read>
/// @1764540000.163002114 41
/// <41 bytes>
/// ```
///
/// - The first line is `# mockgps recording 1`; further `#` lines before the first record are
///   headers (`Device`, `Serial` as in gpsd's test logs, `Start`), free to add to.
/// - A record is `@`, the arrival time in seconds since 1970 (UTC) with nine decimals, a space,
///   the number of bytes, LF; then exactly that many bytes, then LF. The bytes are binary-safe:
///   NMEA shows as text, UBX stays as it came.
/// - Records follow in arrival order; a file cut short (a recorder killed) loses only its last
///   record's tail.
public enum RecordingFormat {
  /// The first line of every recording, without its LF.
  public static let magic = "# mockgps recording 1"

  /// The header: the magic line, then `# Name: value` for each field, in order.
  public static func header(_ fields: [(name: String, value: String)]) -> [UInt8] {
    var text = magic + "\n"
    for field in fields { text += "# \(field.name): \(field.value)\n" }
    return Array(text.utf8)
  }

  /// One record: bytes read at `arrivalNanoseconds` since 1970.
  public static func record(arrivalNanoseconds: Int64, bytes: some Collection<UInt8>) -> [UInt8] {
    let seconds = arrivalNanoseconds / 1_000_000_000
    let fraction = String(arrivalNanoseconds % 1_000_000_000)
    let padded = String(repeating: "0", count: 9 - fraction.count) + fraction
    var out = Array("@\(seconds).\(padded) \(bytes.count)\n".utf8)
    out.append(contentsOf: bytes)
    out.append(0x0A)
    return out
  }

  /// True when a file starting with `prefix` is a recording.
  public static func isRecording(prefix: some Collection<UInt8>) -> Bool {
    prefix.starts(with: magic.utf8)
  }
}

/// One record of a recording: the bytes of one read and when they arrived.
public struct RecordedChunk: Hashable, Sendable {
  /// Arrival time, nanoseconds since 1970 (UTC).
  public var arrivalNanoseconds: Int64
  /// The bytes read.
  public var bytes: [UInt8]
  /// The line of the file its `@` line is on, from 1.
  public var line: Int

  /// Creates a chunk.
  public init(arrivalNanoseconds: Int64, bytes: [UInt8], line: Int) {
    self.arrivalNanoseconds = arrivalNanoseconds
    self.bytes = bytes
    self.line = line
  }
}

/// Reads a recording as it is read from the file, holding one record at most.
public struct RecordingParser: Sendable {
  /// What the parser found, in file order.
  public enum Item: Hashable, Sendable {
    /// A header line (`# Serial: 9600 8N1`), without its line end, and its line number.
    case header(String, line: Int)
    /// A record.
    case chunk(RecordedChunk)
    /// Something that is not a record where one was expected (skipped up to the next line
    /// starting with `@`), or a record cut short by the end of the file.
    case malformed(line: Int, reason: String)
  }

  private enum State: Sendable {
    case lineStart
    /// Reading the text of a `#` or `@` line.
    case text([UInt8])
    /// Skipping a bad line up to its LF.
    case skipping
    /// Reading `remaining` bytes of a record, then its closing LF.
    case body(arrival: Int64, line: Int, bytes: [UInt8], remaining: Int)
    /// Expecting the LF after a record.
    case closing
  }

  private var state = State.lineStart
  private var line = 1
  private var startLine = 1
  /// The longest `#` or `@` line accepted.
  static let maximumTextLine = 4096

  /// Creates a parser at the start of a file.
  public init() {}

  /// The items completed by `chunk`.
  public mutating func items(from chunk: some Collection<UInt8>) -> [Item] {
    var items: [Item] = []
    for byte in chunk { consume(byte, into: &items) }
    return items
  }

  /// What is left at the end of the file.
  public mutating func finish() -> [Item] {
    defer { state = .lineStart }
    switch state {
    case .lineStart, .skipping, .closing: return []
    case .text: return [.malformed(line: startLine, reason: "the file ends inside a line")]
    case .body(let arrival, let line, let bytes, let remaining):
      return [
        .chunk(RecordedChunk(arrivalNanoseconds: arrival, bytes: bytes, line: line)),
        .malformed(line: line, reason: "the file ends \(remaining) bytes before the record's end"),
      ]
    }
  }

  private mutating func consume(_ byte: UInt8, into items: inout [Item]) {
    switch state {
    case .lineStart:
      startLine = line
      if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "@") {
        state = .text([byte])
      } else if byte == 0x0A {
        line += 1
      } else {
        items.append(.malformed(line: line, reason: "expected a record starting with '@'"))
        state = .skipping
      }
    case .skipping:
      if byte == 0x0A {
        line += 1
        state = .lineStart
      }
    case .text(var text):
      guard byte != 0x0A else {
        line += 1
        state = .lineStart
        finishLine(text, into: &items)
        return
      }
      text.append(byte)
      if text.count > Self.maximumTextLine {
        items.append(.malformed(line: startLine, reason: "a line longer than 4096 bytes"))
        state = .skipping
      } else {
        state = .text(text)
      }
    case .body(let arrival, let recordLine, var bytes, let remaining):
      bytes.append(byte)
      if byte == 0x0A { line += 1 }
      if remaining == 1 {
        items.append(
          .chunk(RecordedChunk(arrivalNanoseconds: arrival, bytes: bytes, line: recordLine)))
        state = .closing
      } else {
        state = .body(arrival: arrival, line: recordLine, bytes: bytes, remaining: remaining - 1)
      }
    case .closing:
      if byte == 0x0A {
        line += 1
        state = .lineStart
      } else {
        items.append(.malformed(line: line, reason: "expected a line end after the record"))
        state = .skipping
      }
    }
  }

  private mutating func finishLine(_ text: [UInt8], into items: inout [Item]) {
    var body = text
    if body.last == 0x0D { body.removeLast() }
    if body.first == UInt8(ascii: "#") {
      items.append(.header(String(decoding: body, as: UTF8.self), line: startLine))
      return
    }
    guard let (arrival, count) = Self.recordLine(body.dropFirst()) else {
      items.append(
        .malformed(
          line: startLine,
          reason: "expected '@SECONDS.NANOSECONDS COUNT', found '"
            + String(decoding: body.prefix(60), as: UTF8.self) + "'"))
      return
    }
    if count == 0 {
      items.append(.chunk(RecordedChunk(arrivalNanoseconds: arrival, bytes: [], line: startLine)))
      state = .closing
    } else {
      state = .body(arrival: arrival, line: startLine, bytes: [], remaining: count)
    }
  }

  /// `1764540000.123456789 82` → (arrival, count).
  static func recordLine(_ text: ArraySlice<UInt8>) -> (Int64, Int)? {
    let parts = text.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    let time = parts[0].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard time.count == 2, time[1].count == 9,
      let seconds = digits(time[0], maximumCount: 10),
      let nanoseconds = digits(time[1], maximumCount: 9),
      let count = digits(parts[1], maximumCount: 9),
      // Nanoseconds since 1970 fit in Int64 until 2262.
      seconds < Int64.max / 1_000_000_000
    else { return nil }
    return (seconds * 1_000_000_000 + nanoseconds, Int(count))
  }

  private static func digits(_ text: ArraySlice<UInt8>, maximumCount: Int) -> Int64? {
    guard !text.isEmpty, text.count <= maximumCount else { return nil }
    var value: Int64 = 0
    for byte in text {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    return value
  }
}
