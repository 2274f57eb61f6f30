import Wire

/// Groups a log's packets into epochs, the packets a receiver sent in one navigation cycle, as
/// they are read: it holds one epoch and gives it out when the first packet of the next arrives.
///
/// - A packet carrying a time of the log's best kind (see `LogTime.Source`) starts an epoch when
///   its time differs from the last one met, as gpsd's cycle detection does; with the same time
///   it joins the current epoch.
/// - Sentences without time (GSA, GSV, VTG, TXT…), sentences timed by a lesser source, comments
///   and garbage join the current epoch.
/// - A binary frame without a time starts its own untimed epoch, except a UBX frame in a timed
///   log, which joins the current epoch (a log with NMEA times and UBX frames is paced by the
///   NMEA times). Before the log's first time, such a frame starts an epoch that the first
///   timed packet joins and times: the frame goes out with that time's epoch, moved with it
///   under `--time now`, instead of as it was.
/// - An epoch is cut when it would hold more than `maximumBytes`: the rest goes on as an untimed
///   epoch, so a log without any time is still read in bounded memory.
struct ReplayEpochGrouper: Sendable {
  /// Packets in the order read, and the time of the first timed one.
  struct Group: Sendable {
    var time: LogTime?
    var packets: [LogPacket]
    var byteCount: Int
    /// Started by a UBX frame before the log's first time: the first timed packet joins it.
    var awaitsTime = false
  }

  /// The most bytes an epoch holds.
  static let maximumBytes = 65_536

  /// The best kind of time met so far (or known from a look ahead at open).
  private(set) var bestSource: LogTime.Source?
  private var current: Group?
  private var lastTime: LogTime?

  /// Creates a grouper for a log whose best kind of time is `bestSource`, if known.
  init(bestSource: LogTime.Source? = nil) {
    self.bestSource = bestSource
  }

  /// The bytes held in the epoch being gathered.
  var heldBytes: Int { current?.byteCount ?? 0 }

  /// Adds a packet; returns the epoch it closes, if any.
  mutating func add(_ packet: LogPacket) -> Group? {
    if let time = LogTime.of(packet), bestSource.map({ time.source >= $0 }) ?? true {
      bestSource = time.source
      if let lastTime, lastTime.nanoseconds == time.nanoseconds, lastTime.scale == time.scale {
        return join(packet)
      }
      lastTime = time
      if current?.awaitsTime == true, heldBytes + packet.bytes.count <= Self.maximumBytes {
        current?.time = time
        current?.awaitsTime = false
        return join(packet)
      }
      return start(Group(time: time, packets: [packet], byteCount: packet.bytes.count))
    }
    if packet.isBinary, packet.kind != .ubx || lastTime == nil {
      let leadsTime = packet.kind == .ubx && bestSource != nil
      if leadsTime, current?.awaitsTime == true { return join(packet) }
      return start(
        Group(
          time: nil, packets: [packet], byteCount: packet.bytes.count, awaitsTime: leadsTime))
    }
    return join(packet)
  }

  /// The last epoch, at the end of the log.
  mutating func finish() -> Group? {
    defer { current = nil }
    return current
  }

  /// Starts the log again: its first timed packet starts an epoch whatever its time.
  mutating func restart() {
    lastTime = nil
  }

  private mutating func start(_ group: Group) -> Group? {
    defer { current = group }
    return current
  }

  private mutating func join(_ packet: LogPacket) -> Group? {
    guard var group = current, group.byteCount + packet.bytes.count <= Self.maximumBytes else {
      return start(Group(time: nil, packets: [packet], byteCount: packet.bytes.count))
    }
    current = nil
    group.packets.append(packet)
    group.byteCount += packet.bytes.count
    current = group
    return nil
  }
}
