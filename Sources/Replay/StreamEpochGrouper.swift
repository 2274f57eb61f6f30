import Wire

/// Groups a live byte stream (a passed-through receiver's output) into epochs as a replay
/// groups a log (`ReplayEpochGrouper`): packets split as a log's are, an epoch closed when a
/// packet with a new time starts the next. A live stream has no end to close the last epoch:
/// `flush()` gives it out when the receiver has gone quiet, the packet not yet complete kept.
public struct StreamEpochGrouper: Sendable {
  private var splitter = LogPacketSplitter()
  private var grouper = ReplayEpochGrouper()

  /// A grouper that has met nothing yet.
  public init() {}

  /// True while an epoch is being gathered.
  public var isGathering: Bool { grouper.heldBytes > 0 }

  /// Takes the bytes as they came; returns the epochs they closed, each as its packets.
  public mutating func add(_ bytes: some Collection<UInt8>) -> [[[UInt8]]] {
    splitter.packets(from: bytes).compactMap { grouper.add($0)?.packets.map { Array($0.bytes) } }
  }

  /// The epoch being gathered, given out; nil when none is.
  public mutating func flush() -> [[UInt8]]? {
    grouper.finish()?.packets.map { Array($0.bytes) }
  }
}
