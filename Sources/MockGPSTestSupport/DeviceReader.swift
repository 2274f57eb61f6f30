import Glibc
import NMEA
import SystemIO
import TestFixtures

/// A client of an emulated device for tests: opens it by path and reads whole lines, each with
/// the monotonic time it arrived.
public final class DeviceReader {
  /// One line as read.
  public struct TimedLine: Sendable {
    public var text: String
    /// Monotonic nanoseconds when the read that completed the line returned.
    public var arrivalNanoseconds: Int64
  }

  public let descriptor: FileDescriptor
  private var framer = Framer()
  private var pending: [TimedLine] = []

  /// Opens `path` for reading and writing, as gpsd does.
  public init(path: String, flags: Int32 = O_RDWR) throws {
    descriptor = try FileDescriptor.open(path, flags: flags | O_NOCTTY | O_NONBLOCK)
  }

  /// Monotonic nanoseconds now.
  public static func monotonicNanoseconds() -> Int64 { Eventually.monotonicNanoseconds() }

  /// Reads until `count` lines have arrived or `timeoutSeconds` pass; returns what arrived.
  public func readLines(_ count: Int, timeoutSeconds: Double) -> [TimedLine] {
    let deadline = Self.monotonicNanoseconds() + Int64(timeoutSeconds * 1e9)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while pending.count < count {
      let remaining = deadline - Self.monotonicNanoseconds()
      guard remaining > 0 else { break }
      let ready =
        (try? Poll.wait(
          [descriptor.pollRequest(.readable)],
          timeoutMilliseconds: Int32(min(remaining / 1_000_000 + 1, 1000))))
        ?? []
      guard ready.first?.contains(.readable) == true else { continue }
      guard case .transferred(let got) = (try? descriptor.read(into: &buffer)) ?? .wouldBlock,
        got > 0
      else { continue }
      let now = Self.monotonicNanoseconds()
      pending += framer.append(buffer.prefix(got)).map {
        TimedLine(text: $0, arrivalNanoseconds: now)
      }
    }
    let taken = Array(pending.prefix(count))
    pending.removeFirst(taken.count)
    return taken
  }

  /// True when something was written that the reader has not returned yet: lines read ahead,
  /// or bytes waiting in the terminal. A test that changes the emulator between two epochs
  /// asks it to tell whether the next epoch had already been written by then.
  public func hasUnreadOutput() -> Bool {
    !pending.isEmpty || ((try? descriptor.availableBytes()) ?? 1) > 0
  }

  /// Drops every line read ahead and every byte waiting in the terminal now, and the part of a
  /// line begun: what a later read returns was written after this call (or was in flight).
  public func discardUnread() {
    pending.removeAll()
    framer = Framer()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case .transferred(let got) = (try? descriptor.read(into: &buffer)) ?? .wouldBlock,
      got > 0
    {}
  }

  /// Reads lines until one of type `type` (such as "GGA") arrives, and returns it.
  public func readUntil(type: String, timeoutSeconds: Double) -> TimedLine? {
    let deadline = Self.monotonicNanoseconds() + Int64(timeoutSeconds * 1e9)
    while Self.monotonicNanoseconds() < deadline {
      let remaining = Double(deadline - Self.monotonicNanoseconds()) / 1e9
      guard let line = readLines(1, timeoutSeconds: remaining).first else { return nil }
      if line.text.dropFirst(3).hasPrefix(type) { return line }
    }
    return nil
  }

  /// Reads raw bytes until `count` bursts have ended (a burst ends after `gapSeconds` of
  /// silence) or `timeoutSeconds` pass; returns the bursts read, the one in progress last.
  public func readBursts(_ count: Int, gapSeconds: Double = 0.2, timeoutSeconds: Double)
    -> [[UInt8]]
  {
    readWatchedBursts(count, gapSeconds: gapSeconds, timeoutSeconds: timeoutSeconds).map(\.bytes)
  }

  /// A burst read, and whether the reader was away (not running) for longer than the gap that
  /// ends a burst while it read it: then it may hold several, their silences unseen.
  public struct WatchedBurst: Sendable {
    public var bytes: [UInt8] = []
    public var readerWasAway = false
  }

  /// `readBursts`, each burst with whether the reader was away while reading it: a read that
  /// came more than `gapSeconds` after the reader's last read or wait, without a wait that
  /// timed out in between (the machine's load kept the reader from running).
  public func readWatchedBursts(_ count: Int, gapSeconds: Double = 0.2, timeoutSeconds: Double)
    -> [WatchedBurst]
  {
    let deadline = Self.monotonicNanoseconds() + Int64(timeoutSeconds * 1e9)
    let gapNanoseconds = Int64(gapSeconds * 1e9)
    var buffer = [UInt8](repeating: 0, count: 4096)
    var bursts: [WatchedBurst] = []
    var current = WatchedBurst()
    var lastSeen = Self.monotonicNanoseconds()
    while bursts.count < count {
      let remaining = deadline - Self.monotonicNanoseconds()
      guard remaining > 0 else { break }
      let wait = min(remaining / 1_000_000 + 1, Int64(gapSeconds * 1000))
      let ready =
        (try? Poll.wait([descriptor.pollRequest(.readable)], timeoutMilliseconds: Int32(wait)))
        ?? []
      let now = Self.monotonicNanoseconds()
      defer { lastSeen = now }
      guard ready.first?.contains(.readable) == true else {
        if !current.bytes.isEmpty { bursts.append(current) }
        current = WatchedBurst()
        continue
      }
      guard case .transferred(let got) = (try? descriptor.read(into: &buffer)) ?? .wouldBlock,
        got > 0
      else { continue }
      if now - lastSeen > gapNanoseconds { current.readerWasAway = true }
      current.bytes += buffer.prefix(got)
    }
    return current.bytes.isEmpty ? bursts : bursts + [current]
  }

  /// Sets the terminal's speed, as a client hunting for the receiver's baud does.
  public func setSpeed(baud: Int) throws {
    var settings = try TerminalAttributes.read(from: descriptor)
    settings.setSpeed(baud: baud)
    try settings.apply(to: descriptor)
  }

  /// Sets the terminal's speed to any Linux `B…` speed (`B50`, `B4000000`, 0 for `B0`), as a
  /// client trying speeds a receiver does not offer.
  public func setLineSpeed(_ bitsPerSecond: Int) throws {
    var settings = try TerminalAttributes.read(from: descriptor)
    settings.setLineSpeed(bitsPerSecond)
    try settings.apply(to: descriptor)
  }

  /// The speed the terminal is at.
  public var speed: Int? { (try? TerminalAttributes.read(from: descriptor))?.baud }

  /// Writes text to the device, as a client sending a command.
  public func write(_ text: String) throws {
    try write(bytes: Array(text.utf8))
  }

  /// Writes bytes to the device, as a client sending a binary command.
  public func write(bytes: [UInt8]) throws {
    _ = try descriptor.write(bytes[...])
  }
}
