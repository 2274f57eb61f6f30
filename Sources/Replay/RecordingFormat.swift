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
/// - A count whose bytes are not followed by LF, or that runs past the end of the file by more
///   than one read of the recorder, is corrupted: `check` refuses the file with the record's line
///   (exit 65), as does a replay when it meets one before the first record.
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
    /// A record whose count cannot be right: its bytes are not followed by a line end, or they
    /// run past the end of the file further than a recorder can leave a record cut. What follows
    /// it cannot be trusted, so a check refuses the file.
    case corruptCount(line: Int, reason: String)
  }

  private enum State: Sendable {
    case lineStart
    /// Reading the text of a `#` or `@` line into `text`.
    case text
    /// Skipping a bad line up to its LF.
    case skipping
    /// Reading `remaining` bytes of a record into `body`, then its closing LF.
    case body(arrival: Int64, line: Int, count: Int, remaining: Int)
    /// Expecting the LF after a record of `count` bytes whose `@` line is `line`.
    case closing(line: Int, count: Int)
  }

  private var state = State.lineStart
  /// The line being read (`.text`), kept out of `state` so that appending never copies it.
  private var text: [UInt8] = []
  /// The bytes of the record being read (`.body`), appended a run at a time: reading a record
  /// costs its size, whatever its size.
  private var body: [UInt8] = []
  private var line = 1
  private var startLine = 1
  /// The longest `#` or `@` line accepted.
  static let maximumTextLine = 4096

  /// Creates a parser at the start of a file.
  public init() {}

  /// The items completed by `chunk`.
  public mutating func items(from chunk: some Collection<UInt8>) -> [Item] {
    var items: [Item] = []
    var index = chunk.startIndex
    while index != chunk.endIndex {
      if case .body(let arrival, let recordLine, let count, let remaining) = state {
        let end =
          chunk.index(index, offsetBy: remaining, limitedBy: chunk.endIndex) ?? chunk.endIndex
        let run = chunk[index..<end]
        body.append(contentsOf: run)
        line += run.count { $0 == 0x0A }
        let left = remaining - run.count
        if left == 0 {
          items.append(
            .chunk(RecordedChunk(arrivalNanoseconds: arrival, bytes: body, line: recordLine)))
          body = []
          state = .closing(line: recordLine, count: count)
        } else {
          state = .body(arrival: arrival, line: recordLine, count: count, remaining: left)
        }
        index = end
      } else {
        consume(chunk[index], into: &items)
        index = chunk.index(after: index)
      }
    }
    return items
  }

  /// What is left at the end of the file.
  public mutating func finish() -> [Item] {
    defer {
      state = .lineStart
      text = []
      body = []
    }
    switch state {
    case .lineStart, .skipping, .closing: return []
    case .text: return [.malformed(line: startLine, reason: "the file ends inside a line")]
    case .body(let arrival, let line, let count, let remaining):
      let chunk = Item.chunk(RecordedChunk(arrivalNanoseconds: arrival, bytes: body, line: line))
      guard remaining <= Self.largestCutShort else {
        return [
          chunk,
          .corruptCount(
            line: line,
            reason: "the record's count \(count) runs \(remaining) bytes past the end of the "
              + "file, more than a recorder's read (\(Self.largestCutShort) bytes) can leave "
              + "missing: a corrupted count"),
        ]
      }
      return [
        chunk,
        .malformed(line: line, reason: "the file ends \(remaining) bytes before the record's end"),
      ]
    }
  }

  /// The most a record cut short by the end of the file can miss: one read of the recorder
  /// (`mockgps record` writes each record with one `write`, so only the last can be cut).
  public static let largestCutShort = 65_536

  private mutating func consume(_ byte: UInt8, into items: inout [Item]) {
    switch state {
    case .lineStart:
      startLine = line
      if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "@") {
        text = [byte]
        state = .text
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
    case .text:
      guard byte != 0x0A else {
        line += 1
        state = .lineStart
        finishLine(into: &items)
        return
      }
      text.append(byte)
      if text.count > Self.maximumTextLine {
        items.append(.malformed(line: startLine, reason: "a line longer than 4096 bytes"))
        text = []
        state = .skipping
      }
    case .body:
      preconditionFailure("a record's bytes are taken a run at a time")
    case .closing(let recordLine, let count):
      if byte == 0x0A {
        line += 1
        state = .lineStart
      } else {
        items.append(
          .corruptCount(
            line: recordLine,
            reason: "the record's \(count) bytes are not followed by a line end: a corrupted "
              + "count"))
        state = .skipping
      }
    }
  }

  private mutating func finishLine(into items: inout [Item]) {
    var content = text
    text = []
    if content.last == 0x0D { content.removeLast() }
    if content.first == UInt8(ascii: "#") {
      items.append(.header(String(decoding: content, as: UTF8.self), line: startLine))
      return
    }
    guard let (arrival, count) = Self.recordLine(content.dropFirst()) else {
      items.append(
        .malformed(
          line: startLine,
          reason: "expected '@SECONDS.NANOSECONDS COUNT', found '"
            + String(decoding: content.prefix(60), as: UTF8.self) + "'"))
      return
    }
    if count == 0 {
      items.append(.chunk(RecordedChunk(arrivalNanoseconds: arrival, bytes: [], line: startLine)))
      state = .closing(line: startLine, count: 0)
    } else {
      state = .body(arrival: arrival, line: startLine, count: count, remaining: count)
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
