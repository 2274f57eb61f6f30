import Geodesy
import Replay
import Simulation

/// Rewrites what a real receiver sends per a `PositionOverride`: it frames the stream into
/// sentences and frames, replaces position (and motion, where overridden) on every path that
/// carries one, recomputes checksums, and gives back everything else unchanged and in order.
///
/// PLACEHOLDER CONTRACT (issue 10): the body forwards every chunk unchanged; helper A
/// replaces it.
public struct PassthroughRewriter: Sendable {
  /// What positions become; may be changed between chunks (the control socket will).
  public var override: PositionOverride
  /// Counters.
  public private(set) var statistics = PassthroughStatistics()
  /// The last real position met (not while `off`); nil before one.
  public private(set) var lastRealPosition: GeodeticPosition?

  /// Creates a rewriter.
  public init(override: PositionOverride) {
    self.override = override
  }

  /// Takes bytes read from the receiver and returns the bytes to forward now: with `off`, the
  /// chunk itself at once; otherwise every packet completed by it, rewritten, in order. A
  /// packet not yet complete is held (bounded: a packet too long for its protocol is given back
  /// as it is). `now` is when the bytes arrived: the time a `route` override is read at.
  public mutating func forward(_ chunk: some Collection<UInt8>, at now: UTCInstant) -> [UInt8] {
    statistics.bytesReceived += chunk.count
    statistics.bytesForwarded += chunk.count
    return Array(chunk)
  }

  /// The receiver went away: the part of a packet held is dropped (its rest will never come),
  /// and the next bytes start afresh. The override's own state (the track's origin, the frozen
  /// fix) is kept, so that it carries over a reconnect.
  public mutating func receiverLost() {}
}
