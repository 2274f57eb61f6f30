import Glibc
import Synchronization
import SystemIO

/// Lines for people on standard error: `mockgps: …`, with a level filter.
///
/// Lines never block the emulator: a writer thread of its own writes them, so a reader of
/// standard error who stops reading costs log lines, never epochs or a clean exit. Control
/// characters (from what clients write, for example) are written as `\xNN`, so that they cannot
/// act on the terminal that shows the log.
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
  private let writer: QueuedLineWriter?

  /// Creates a log writing to standard error.
  public init(level: Level) {
    self.level = level
    let writer = level > .quiet ? QueuedLineWriter.standardError : nil
    self.writer = writer
    sink = { line in
      if let writer {
        writer.write(line)
      } else {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
      }
    }
  }

  /// Creates a log writing to a closure, for tests.
  public init(level: Level, sink: @escaping @Sendable (String) -> Void) {
    self.level = level
    self.sink = sink
    writer = nil
  }

  /// A log that writes through this one with `label: ` after `mockgps: `, for one of many
  /// devices in a process (`mockgps: /tmp/gps3: sent 600 epochs…`). Flush this one.
  public func labelled(_ label: String) -> Log {
    let sink = self.sink
    return Log(level: level) { line in
      let rest = line.hasPrefix("mockgps: ") ? line.dropFirst(9) : Substring(line)
      sink("mockgps: \(label): \(rest)")
    }
  }

  /// Waits up to `timeoutMilliseconds` until the lines logged so far are written.
  public func flush(timeoutMilliseconds: Int = 500) {
    writer?.flush(timeoutMilliseconds: timeoutMilliseconds)
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
    sink("mockgps: " + prefix + Self.printable(message()))
  }

  /// The text with every control character written as `\xNN`.
  static func printable(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
