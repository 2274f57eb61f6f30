import Replay

/// Counters of a replay on the device, with what the log's reader met.
public struct ReplayRunStatistics: Hashable, Sendable {
  /// Epochs written to a client in full.
  public var epochsSent = 0
  /// Packets of those epochs.
  public var packetsSent = 0
  /// Bytes of the log written to a client.
  public var bytesSent = 0
  /// Epochs that started more than `ReplayLoop.lateToleranceNanoseconds` after they were due
  /// (sent all the same: a replay never skips).
  public var epochsLate = 0
  /// The latest start of an epoch after it was due, in nanoseconds.
  public var largestLatenessNanoseconds: Int64 = 0
  /// Epochs, whole or in part, that no client had the device open for: lost, as a real
  /// receiver's bytes are on an unplugged line.
  public var epochsWithoutClient = 0
  /// Bytes lost that way.
  public var bytesWithoutClient = 0
  /// Times a write waited because the client had not read what came before (the queue of the
  /// pseudo-terminal was full): a replay waits for a client, never drops.
  public var clientWaits = 0
  /// What the reader met: packets of each kind, problems, packets dropped, loops.
  public var reader = ReplayStatistics()

  /// Creates zeroed counters.
  public init() {}

  /// `sent 60 epochs (480 packets, 30012 bytes); 0 late (largest 0.4 ms), 0 epochs (0 bytes)
  /// without a client, 2 waits for the client; 3 packets with a problem, 0 dropped, 0 loops`.
  public var summary: String {
    let problems = reader.problems.values.reduce(0, +)
    let lateness = Double(largestLatenessNanoseconds / 100_000) / 10
    return "sent \(epochsSent) epochs (\(packetsSent) packets, \(bytesSent) bytes); "
      + "\(epochsLate) late (largest \(lateness) ms), \(epochsWithoutClient) epochs "
      + "(\(bytesWithoutClient) bytes) without a client, \(clientWaits) waits for the client; "
      + "\(problems) packets with a problem, \(reader.dropped) dropped, \(reader.loops) loops"
  }
}
