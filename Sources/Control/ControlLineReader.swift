// PLACEHOLDER CONTRACT (issue 11): see ControlRequest.swift.

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

  public init(maximumLineLength: Int = Self.defaultMaximumLineLength) {
    self.maximumLineLength = maximumLineLength
  }

  /// Takes bytes as they arrive and returns the items they complete.
  public mutating func receive(_ bytes: some Collection<UInt8>) -> [Item] {
    // PLACEHOLDER: to be written by the owner of Sources/Control.
    []
  }
}
