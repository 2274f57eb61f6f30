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
  /// How many packets the last epoch given out held: room for as many is made in the next at
  /// once (grown a packet at a time, an epoch's array was allocated and copied three or four
  /// times, 7 % of an unpaced replay's instructions).
  private var lastPacketCount = 1

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
      return start(time: time, packet)
    }
    if packet.isBinary, packet.kind != .ubx || lastTime == nil {
      let leadsTime = packet.kind == .ubx && bestSource != nil
      if leadsTime, current?.awaitsTime == true { return join(packet) }
      return start(time: nil, packet, awaitsTime: leadsTime)
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

  /// Starts an epoch with `packet`; returns the one it closes, if any.
  private mutating func start(time: LogTime?, _ packet: LogPacket, awaitsTime: Bool = false)
    -> Group?
  {
    let closed = current
    if let closed { lastPacketCount = min(closed.packets.count, Self.reservedPacketsLimit) }
    var packets: [LogPacket] = []
    packets.reserveCapacity(lastPacketCount)
    packets.append(packet)
    current = Group(
      time: time, packets: packets, byteCount: packet.bytes.count, awaitsTime: awaitsTime)
    return closed
  }

  /// The most packets an epoch is given room for at its start.
  private static let reservedPacketsLimit = 256

  private mutating func join(_ packet: LogPacket) -> Group? {
    guard var group = current, group.byteCount + packet.bytes.count <= Self.maximumBytes else {
      return start(time: nil, packet)
    }
    current = nil
    group.packets.append(packet)
    group.byteCount += packet.bytes.count
    current = group
    return nil
  }
}
