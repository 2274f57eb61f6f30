/// Splits one client's bytes into request lines, with a bounded buffer: a line longer than
/// `maximumLineLength` is reported once as too long and skipped up to its newline, so a client
/// that sends 10 MB without a newline never holds more than the bound.
public struct ControlLineReader: Sendable {
  /// The longest request line accepted, bytes without the newline.
  public static let defaultMaximumLineLength = 65_536

  /// What came out of the bytes given.
  public enum Item: Hashable, Sendable {
    /// A whole line, without its "\n" (and without a "\r" before it); empty lines are skipped.
    case line([UInt8])
    /// A line went past the bound; what follows up to its newline is skipped.
    case tooLong
  }

  public let maximumLineLength: Int
  /// The start of the current line, never longer than `maximumLineLength` (+1 for a "\r" that
  /// may end it).
  private var pending: [UInt8] = []
  /// True while the rest of a too long line is skipped.
  private var skipping = false

  public init(maximumLineLength: Int = Self.defaultMaximumLineLength) {
    self.maximumLineLength = max(1, maximumLineLength)
  }

  /// The bytes held for an unfinished line: at most `maximumLineLength + 1`.
  public var bufferedByteCount: Int { pending.count }

  /// True between a line's first byte and its newline (a too long one included): a request
  /// is partly sent.
  public var isWithinLine: Bool { skipping || !pending.isEmpty }

  /// Takes bytes as they arrive and returns the items they complete.
  public mutating func receive(_ bytes: some Collection<UInt8>) -> [Item] {
    var items: [Item] = []
    var rest = bytes[...]
    while !rest.isEmpty {
      guard let newline = rest.firstIndex(of: 0x0A) else {
        take(rest, into: &items)
        break
      }
      take(rest[..<newline], into: &items)
      finishLine(into: &items)
      rest = rest[rest.index(after: newline)...]
    }
    return items
  }

  /// Adds bytes of the current line (no newline among them), switching to skipping when they go
  /// past the bound.
  private mutating func take(_ bytes: some Collection<UInt8>, into items: inout [Item]) {
    guard !skipping else { return }
    // One more byte than the bound is kept: it may be the "\r" of a CR LF.
    if pending.count + bytes.count > maximumLineLength + 1 {
      pending.removeAll(keepingCapacity: false)
      skipping = true
      items.append(.tooLong)
      return
    }
    pending.append(contentsOf: bytes)
  }

  /// Ends the current line at a newline.
  private mutating func finishLine(into items: inout [Item]) {
    if skipping {
      skipping = false
      return
    }
    if pending.last == 0x0D { pending.removeLast() }
    if pending.count > maximumLineLength {
      items.append(.tooLong)
    } else if !pending.isEmpty {
      items.append(.line(pending))
    }
    pending.removeAll(keepingCapacity: true)
  }
}
