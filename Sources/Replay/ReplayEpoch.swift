import Geodesy
import InputFiles
import Wire

/// How a log is replayed (`--time`, `--loop`, `--move-to`, `--drop-invalid`).
public struct ReplayOptions: Hashable, Sendable {
  /// What happens to the times in the log's bytes.
  public enum TimePolicy: String, Hashable, Sendable {
    /// The bytes are sent as recorded.
    case original
    /// Every time and date field is moved so that the log appears live (see `ReplayRewriter`).
    case now
  }

  public var time: TimePolicy
  /// Starts the log again after its end, with time still going forward.
  public var looping: Bool
  /// Where the log's first position is moved to; the track keeps its shape and motion.
  /// Only its latitude and longitude count: altitudes stay as recorded.
  public var moveTo: GeodeticPosition?
  /// Drops the packets that have a problem (bad checksum, truncated, garbage) instead of
  /// sending them as recorded.
  public var dropInvalid: Bool

  /// Creates options; the defaults replay the log once, exactly as recorded.
  public init(
    time: TimePolicy = .original, looping: Bool = false,
    moveTo: GeodeticPosition? = nil, dropInvalid: Bool = false
  ) {
    self.time = time
    self.looping = looping
    self.dropInvalid = dropInvalid
    self.moveTo = moveTo
  }
}

/// One epoch of a replayed log: the packets a receiver sent in one navigation cycle, and when.
public struct ReplayEpoch: Hashable, Sendable {
  /// When the epoch starts, in nanoseconds of log time after the first epoch of the replay
  /// (which is at 0); it keeps growing across loops, and never goes back. Nil when the log
  /// gives the epoch no time (a binary packet of a protocol without one): it follows the
  /// epoch before at once.
  public var offsetNanoseconds: Int64?
  /// The packets, rewritten as the options ask.
  public var packets: [LogPacket]
  /// True for a chunk of a mockgps recording: its bytes arrived together, so they leave in one
  /// write at their time instead of being paced at the baud.
  public var arrivedTogether: Bool
  /// The offset at which the pass through the log that holds this epoch began, counted like
  /// the offsets of the first pass: 0 in the first pass, the length of one pass (the log and
  /// the gap before it starts again) in the second, and so on (`--loop`). The offset less this
  /// is the time into the log's file.
  public var loopStartNanoseconds: Int64

  /// Creates an epoch.
  public init(
    offsetNanoseconds: Int64?, packets: [LogPacket], arrivedTogether: Bool = false,
    loopStartNanoseconds: Int64 = 0
  ) {
    self.offsetNanoseconds = offsetNanoseconds
    self.packets = packets
    self.arrivedTogether = arrivedTogether
    self.loopStartNanoseconds = loopStartNanoseconds
  }

  /// Every byte of the epoch.
  public var bytes: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(byteCount)
    for packet in packets { bytes += packet.bytes }
    return bytes
  }
  /// How many bytes the epoch holds.
  public var byteCount: Int { packets.reduce(0) { $0 + $1.bytes.count } }
}

/// What a replay has met so far.
public struct ReplayStatistics: Hashable, Sendable {
  /// Packets read, of each kind.
  public var packetsByKind: [LogPacket.Kind: Int] = [:]
  /// Packets with a problem, of each problem (sent as recorded unless dropped).
  public var problems: [LogPacket.Problem: Int] = [:]
  /// Packets dropped by `--drop-invalid`.
  public var dropped = 0
  /// Epochs given out.
  public var epochs = 0
  /// Times the log started again (`--loop`).
  public var loops = 0
  /// Gaps between epochs that were not believed (time going back, or a jump of more than an
  /// hour) and replaced by the gap before.
  public var timeJumps = 0

  public init() {}

  /// Counts `packets` in `packetsByKind`, a run of one kind at a time: a log's packets come in
  /// long runs of NMEA, and an unpaced replay reads hundreds of thousands a second.
  mutating func count(kindsOf packets: [LogPacket]) {
    var start = packets.startIndex
    while start < packets.endIndex {
      let kind = packets[start].kind
      let end = packets[start...].firstIndex { $0.kind != kind } ?? packets.endIndex
      packetsByKind[kind, default: 0] += end - start
      start = end
    }
  }
}

/// Where a replay's epochs come from: a log file (`ReplayReader`), or epochs made up by a test.
public protocol ReplayEpochSource: AnyObject {
  /// Sets the UTC time (nanoseconds since 1970) at which the first epoch goes out, which
  /// `--time now` moves the log's times to. Called before the first `next()`, and again when
  /// the timeline moves (a pause shifts it): the epochs given out after follow the new one.
  func begin(liveStartNanoseconds: Int64)
  /// The next epoch, or nil at the end of a log played once (and at every call after it).
  ///
  /// - Throws: `.unreadable` when the file can no longer be read.
  func next() throws(InputFileError) -> ReplayEpoch?
  /// The headers read so far.
  var header: LogHeader { get }
  /// What the replay has met so far.
  var statistics: ReplayStatistics { get }
  /// The same log from its start, as a new source with the same options, for a seek (see
  /// `ReplaySeek`); nil when the source cannot start again.
  ///
  /// - Throws: `.unreadable` when the file can no longer be opened.
  func restarted() throws(InputFileError) -> sending (any ReplayEpochSource)?
  /// An epoch this source gave out, to go out `shiftNanoseconds` later than planned (a pause
  /// held it): under `--time now` its times move with it, else it is unchanged.
  func retimed(_ epoch: ReplayEpoch, byNanoseconds shiftNanoseconds: Int64) -> ReplayEpoch
}

extension ReplayEpochSource {
  /// A source that cannot start again: seeking it is refused.
  public func restarted() throws(InputFileError) -> sending (any ReplayEpochSource)? { nil }

  /// A source whose bytes never show the time they go out at: the epoch unchanged.
  public func retimed(_ epoch: ReplayEpoch, byNanoseconds _: Int64) -> ReplayEpoch { epoch }
}
