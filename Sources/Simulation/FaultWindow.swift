/// When a fault is active: from an instant (included) until another (excluded), either end open.
///
/// A scenario or a control command injects "a fault for a duration" as
/// `FaultWindow(from: now, nanoseconds: duration)`.
public struct FaultWindow: Hashable, Sendable, CustomStringConvertible {
  /// The first instant the fault is active; nil for since always.
  public var from: UTCInstant?
  /// The first instant the fault is no longer active; nil for forever.
  public var until: UTCInstant?

  /// Every instant.
  public static let always = FaultWindow()

  /// Creates a window; nil ends are open.
  public init(from: UTCInstant? = nil, until: UTCInstant? = nil) {
    self.from = from
    self.until = until
  }

  /// Creates a window of `nanoseconds` starting at `from`.
  public init(from: UTCInstant, nanoseconds: Int64) {
    self.init(from: from, until: from.adding(nanoseconds: nanoseconds))
  }

  /// True when `time` is at or after `from` and before `until`.
  public func contains(_ time: UTCInstant) -> Bool {
    (from.map { $0 <= time } ?? true) && (until.map { time < $0 } ?? true)
  }

  /// True when the window is over at `time`, so the fault can be forgotten.
  public func hasEnded(by time: UTCInstant) -> Bool {
    until.map { $0 <= time } ?? false
  }

  public var description: String {
    "[\(from?.description ?? "always"), \(until?.description ?? "forever"))"
  }
}

extension UTCInstant {
  /// The instants the fault machinery produces: the years ISO 8601 text can name, so that a
  /// huge offset or duration never overflows nor leaves the range the encoder writes.
  static let faultRange =
    UTCInstant(
      year: UTCInstant.iso8601Years.lowerBound, month: 1, day: 1)...UTCInstant(
      year: UTCInstant.iso8601Years.upperBound, month: 12, day: 31, hour: 23, minute: 59,
      second: 59, nanosecond: 999_999_999)

  /// The instant `delta` nanoseconds later, kept within `faultRange` instead of overflowing.
  func clampedAdding(nanoseconds delta: Int64) -> UTCInstant {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(delta)
    let range = Self.faultRange
    guard !overflow else { return delta < 0 ? range.lowerBound : range.upperBound }
    return min(max(UTCInstant(nanosecondsSinceEpoch: sum), range.lowerBound), range.upperBound)
  }
}
