import Geodesy

/// Rewrites a replayed log's packets: moves every time and date field by a shift (`--time
/// now`), and moves the track so that its first position is at another place (`--move-to`),
/// keeping its shape and motion. Checksums are recomputed; packets it has nothing to change in
/// pass unchanged.
///
/// PLACEHOLDER (contract only): this version changes nothing.
public struct ReplayRewriter: Sendable {
  /// Where the first position of the log goes; nil leaves positions as recorded.
  public let moveTo: GeodeticPosition?
  /// Added to every time and date: 0 leaves them as recorded.
  public var timeShiftNanoseconds: Int64 = 0

  /// Creates a rewriter.
  public init(moveTo: GeodeticPosition? = nil, timeShiftNanoseconds: Int64 = 0) {
    self.moveTo = moveTo
    self.timeShiftNanoseconds = timeShiftNanoseconds
  }

  /// True when it changes nothing.
  public var isIdentity: Bool { moveTo == nil && timeShiftNanoseconds == 0 }

  /// The packet rewritten. The first position met fixes the track's origin for all that follow
  /// (through loops too).
  public mutating func rewrite(_ packet: LogPacket) -> LogPacket {
    packet
  }
}
