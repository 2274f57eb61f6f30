/// Cuts the data of a gpsd test log with a `# Delay-Cookie: D SECONDS` header at each
/// delimiter `D`, as gpsfake does: the delimiters themselves are not sent, and each piece goes
/// out a delay after the one before (gpsd's tests use it to make write boundaries fall inside
/// sentences).
struct DelayCookieCutter: Sendable {
  /// One piece of data between two delimiters.
  struct Piece: Sendable, Equatable {
    var bytes: [UInt8]
    /// True for the rest of a piece cut at `maximumBytes` rather than at a delimiter: it follows
    /// the part before at once.
    var continuesPrevious: Bool
  }

  /// The most bytes a piece holds before it is cut anyway.
  static let maximumBytes = 65_536

  let delimiter: [UInt8]
  private var pending: [UInt8] = []
  private var continuing = false

  /// Creates a cutter; an empty delimiter cuts nothing.
  init(delimiter: [UInt8]) {
    self.delimiter = delimiter
  }

  /// The pieces completed by `chunk`.
  mutating func pieces(from chunk: some Collection<UInt8>) -> [Piece] {
    var pieces: [Piece] = []
    for byte in chunk {
      pending.append(byte)
      if !delimiter.isEmpty, byte == delimiter.last, pending.count >= delimiter.count,
        pending.suffix(delimiter.count).elementsEqual(delimiter)
      {
        pending.removeLast(delimiter.count)
        pieces.append(take(cutAtDelimiter: true))
      } else if pending.count >= Self.maximumBytes {
        pieces.append(take(cutAtDelimiter: false))
      }
    }
    return pieces
  }

  /// The last piece, at the end of the log.
  mutating func finish() -> [Piece] {
    pending.isEmpty ? [] : [take(cutAtDelimiter: true)]
  }

  private mutating func take(cutAtDelimiter: Bool) -> Piece {
    defer {
      pending = []
      continuing = !cutAtDelimiter
    }
    return Piece(bytes: pending, continuesPrevious: continuing)
  }
}
