import DeviceRuntime
import Passthrough

/// Counters only a passthrough has: what the rewriter did, the real receiver's line and what
/// clients sent it. What went to the client (bytes and epochs sent, dropped) is counted by the
/// device's `Transmitter` in `DeviceStatistics`, as for every source.
public struct PassthroughRunStatistics: Hashable, Sendable {
  /// What the rewriter counted.
  public var rewriter = PassthroughStatistics()
  /// Bytes read from the receiver at a rate not yet found to carry GNSS data (auto baud).
  public var bytesBeforeData = 0
  /// Bytes clients wrote that reached the receiver.
  public var clientBytesForwarded = 0
  /// Bytes clients wrote that were dropped: no receiver, or its queue full.
  public var clientBytesDropped = 0
  /// Times the receiver went away.
  public var receiverLosses = 0
  /// Times it came back.
  public var reconnections = 0
  /// Times the real port's baud was changed after it was opened.
  public var baudChanges = 0
  /// The real port's baud now.
  public var baud = 0

  /// Creates zeroed counters.
  public init() {}

  /// One line for the log at the end of a run, with what the device's `statistics` counted.
  public func summary(device statistics: DeviceStatistics) -> String {
    let rewritten = rewriter.sentencesRewritten + rewriter.framesRewritten
    return "forwarded \(rewriter.bytesForwarded) of \(rewriter.bytesReceived) bytes from the "
      + "receiver (\(rewritten) sentences and frames rewritten, \(rewriter.unparsedPassed) "
      + "unparsed and \(rewriter.unrewrittenPositionFrames) other binary positions passed as "
      + "they were); \(statistics.epochsSent) epochs sent, \(statistics.bytesWithoutClient) bytes "
      + "without a client, \(statistics.bytesDropped) dropped for unread data; "
      + "\(clientBytesForwarded) client bytes to the receiver, \(clientBytesDropped) dropped; "
      + "\(receiverLosses) losses, \(reconnections) reconnections, \(baudChanges) baud changes"
  }
}
