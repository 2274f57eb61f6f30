import Wire

/// An epoch as read from the log, before its offset is set and its packets are dropped or
/// rewritten.
struct PendingEpoch: Sendable {
  /// How the epoch's offset is found.
  enum Timing: Sendable {
    /// No time: it follows the epoch before at once.
    case untimed
    /// A time read from the log, turned into an offset by the `LogClock`.
    case log(LogTime)
    /// An offset already known (recordings, delay cookies), and the absolute UTC time the
    /// epoch was recorded at, if known.
    case fixed(offsetNanoseconds: Int64, absoluteNanoseconds: Int64?)
  }

  var timing: Timing
  var packets: [LogPacket]
  var arrivedTogether = false

  var byteCount: Int { packets.reduce(0) { $0 + $1.bytes.count } }
}

/// Where the reader's epochs come from, for each layout of log: it is fed the file chunk by
/// chunk and gives out the epochs each chunk completes.
protocol ReplayEpochProducer {
  /// Takes a chunk of the file; appends the epochs it completes.
  mutating func consume(
    _ chunk: ArraySlice<UInt8>, into epochs: inout [PendingEpoch], header: inout LogHeader,
    statistics: inout ReplayStatistics)
  /// Takes the end of the file; appends what is left.
  mutating func finish(
    into epochs: inout [PendingEpoch], header: inout LogHeader,
    statistics: inout ReplayStatistics)
  /// Prepares for the file again from its start (`--loop`); offsets keep growing.
  mutating func restart()
  /// The bytes held between chunks.
  var heldBytes: Int { get }
}

/// The epochs of a log of packets (NMEA, binary, gpsd test logs): split, then grouped by time.
struct PacketEpochProducer: ReplayEpochProducer {
  private var splitter = LogPacketSplitter()
  private var grouper: ReplayEpochGrouper
  /// The packets of the chunk being read, emptied for each (see `LogPacketSplitter.append`).
  private var packets: [LogPacket] = []

  init(bestSource: LogTime.Source?) {
    grouper = ReplayEpochGrouper(bestSource: bestSource)
  }

  var heldBytes: Int { grouper.heldBytes }

  mutating func consume(
    _ chunk: ArraySlice<UInt8>, into epochs: inout [PendingEpoch], header: inout LogHeader,
    statistics: inout ReplayStatistics
  ) {
    packets.removeAll(keepingCapacity: true)
    splitter.append(packetsFrom: chunk, to: &packets)
    add(packets, into: &epochs, header: &header)
  }

  mutating func finish(
    into epochs: inout [PendingEpoch], header: inout LogHeader,
    statistics: inout ReplayStatistics
  ) {
    add(splitter.finish(), into: &epochs, header: &header)
    if let group = grouper.finish() { epochs.append(Self.pending(group)) }
  }

  mutating func restart() {
    splitter = LogPacketSplitter()
    grouper.restart()
  }

  private mutating func add(
    _ packets: [LogPacket], into epochs: inout [PendingEpoch], header: inout LogHeader
  ) {
    for packet in packets {
      if packet.kind == .comment { _ = header.read(comment: packet.bytes) }
      if let group = grouper.add(packet) { epochs.append(Self.pending(group)) }
    }
  }

  private static func pending(_ group: ReplayEpochGrouper.Group) -> PendingEpoch {
    PendingEpoch(timing: group.time.map { .log($0) } ?? .untimed, packets: group.packets)
  }
}
