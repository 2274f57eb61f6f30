/// Splits a byte stream into NMEA lines, whatever the chunks the bytes arrive in.
///
/// A line starts at `$` or `!` and ends at CR or LF. Bytes outside a line, and lines cut short by
/// a new start delimiter or grown past `maximumLineLength`, are discarded and counted, so the
/// framer resynchronises on the next `$` after any garbage. It does not check checksums: pass
/// each line to `RawSentence(parsing:)`.
public struct Framer: Sendable {
  /// Longest line kept, delimiters included. NMEA allows 82 bytes; receivers exceed it a little.
  public var maximumLineLength: Int
  /// Bytes dropped because they were not part of a complete line.
  public private(set) var discardedByteCount = 0
  private var line: [UInt8] = []
  private var inLine = false

  /// Creates a framer.
  public init(maximumLineLength: Int = 160) {
    self.maximumLineLength = maximumLineLength
  }

  /// Feeds bytes and returns the lines they complete, without line endings.
  public mutating func append(_ bytes: some Sequence<UInt8>) -> [String] {
    var lines: [String] = []
    for byte in bytes {
      if let completed = consume(byte) { lines.append(completed) }
    }
    return lines
  }

  private mutating func consume(_ byte: UInt8) -> String? {
    switch byte {
    case UInt8(ascii: "$"), UInt8(ascii: "!"):
      abandonLine()
      line = [byte]
      inLine = true
    case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
      guard inLine else { return nil }
      inLine = false
      defer { line.removeAll(keepingCapacity: true) }
      return String(decoding: line, as: UTF8.self)
    default:
      guard inLine else {
        discardedByteCount += 1
        return nil
      }
      line.append(byte)
      if line.count > maximumLineLength { abandonLine() }
    }
    return nil
  }

  private mutating func abandonLine() {
    if inLine { discardedByteCount += line.count }
    line.removeAll(keepingCapacity: true)
    inLine = false
  }
}
