import Glibc
import Synchronization

/// Lines for people on standard error: `mockgps: …`, with a level filter.
public final class Log: Sendable {
  /// How much to say; each level also writes everything of the levels before it.
  public enum Level: Int, Comparable, Sendable {
    /// Nothing at all.
    case quiet = 0
    /// Only errors: what `--quiet` asks for.
    case error
    /// Errors and warnings.
    case warning
    /// Also what happens in a normal run (the default).
    case info
    /// Also clients opening and closing the device and what they write (`--verbose`).
    case debug

    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// The most detailed level written.
  public let level: Level
  private let sink: @Sendable (String) -> Void

  /// Creates a log writing to standard error.
  public init(level: Level) {
    self.level = level
    sink = { line in
      let bytes = Array((line + "\n").utf8)
      _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
  }

  /// Creates a log writing to a closure, for tests.
  public init(level: Level, sink: @escaping @Sendable (String) -> Void) {
    self.level = level
    self.sink = sink
  }

  /// Writes `mockgps: error: …` at level `error` and above.
  public func error(_ message: @autoclosure () -> String) { emit(.error, "error: ", message) }
  /// Writes `mockgps: warning: …` at level `warning` and above.
  public func warning(_ message: @autoclosure () -> String) { emit(.warning, "warning: ", message) }
  /// Writes `mockgps: …` at level `info` and above.
  public func info(_ message: @autoclosure () -> String) { emit(.info, "", message) }
  /// Writes `mockgps: debug: …` at level `debug`.
  public func debug(_ message: @autoclosure () -> String) { emit(.debug, "debug: ", message) }

  private func emit(_ at: Level, _ prefix: String, _ message: () -> String) {
    guard at <= level else { return }
    sink("mockgps: " + prefix + message())
  }
}
