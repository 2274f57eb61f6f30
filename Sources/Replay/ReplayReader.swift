import InputFiles
import Wire

/// Streams a log from its file as epochs: a raw NMEA log, a gpsd test log, a binary capture or
/// a mockgps recording. Holds one chunk of the file and about one epoch, whatever the log's
/// size.
///
/// - NMEA and binary logs are split into packets and grouped into epochs by their times (see
///   `ReplayEpochGrouper`); the times become offsets (see `LogClock`).
/// - Recordings give one epoch per record, at its arrival time (see `RecordingEpochProducer`).
/// - gpsd test logs with `# Delay-Cookie:` are cut at the delimiter (see
///   `DelayCookieEpochProducer`).
/// - `--loop` reads the file again from its start, one typical gap after the last epoch;
///   `--drop-invalid` drops packets with a problem (comments are kept); `--time now` and
///   `--move-to` go through a `ReplayRewriter` (see `LiveTimeShift` for the shift).
public final class ReplayReader: ReplayEpochSource {
  /// The file as named.
  public let path: String
  public let options: ReplayOptions
  /// The headers read so far: all of them once the first epoch is out, since headers come
  /// before the data.
  public private(set) var header: LogHeader
  /// What the replay has met so far.
  public private(set) var statistics = ReplayStatistics()
  /// The most bytes of the log held at once in packets and epochs (the chunk buffer aside).
  private(set) var largestHeldBytes = 0
  /// The rewriter the packets go through; its shift is set by `--time now`.
  private(set) var rewriter: ReplayRewriter

  private let stream: LogFileStream
  private var producer: any ReplayEpochProducer
  private var clock = LogClock()
  private var pending: [PendingEpoch] = []
  private var pendingIndex = 0
  private var atEnd = false
  private var liveStartNanoseconds: Int64?
  /// The absolute time of the log's last anchor (see `LogClock.isAnchor`).
  private var anchorAbsoluteNanoseconds: Int64 = 0
  /// The last date read from an RMC or ZDA, for `--time now` without `# Date:`.
  private var lastDateMet: LogHeader.Day?
  /// The GPS week of the log's anchor, from the first UBX frame that says its week
  /// (`LogTime.ubxWeek`) less the log's time since the anchor, for `--time now` of a log paced
  /// by `iTOW`: a log that crossed the end of a week before a frame said its week starts the
  /// week before, every loop again.
  private var anchorWeek: Int?
  private var epochsAtLoopStart = 0
  /// The offset of the first timed epoch of the first pass, once met.
  private var firstPassStartNanoseconds: Int64?
  /// See `ReplayEpoch.loopStartNanoseconds`: the previous pass's until the first timed epoch
  /// of a new one (`awaitsLoopStart`).
  private var loopStartNanoseconds: Int64 = 0
  private var awaitsLoopStart = false

  /// Opens `path` and reads up to its first replayable packet.
  ///
  /// - Throws: `.unreadable` (exit 66) for a missing or unreadable file, `.invalid` (exit 65)
  ///   naming the file when it holds nothing to replay.
  public init(path: String, options: ReplayOptions = ReplayOptions()) throws(InputFileError) {
    self.path = path
    self.options = options
    stream = try LogFileStream(path: path)
    let (layout, header) = try ReplayLogLayout.scan(stream)
    self.header = header
    switch layout {
    case .packets(let bestSource): producer = PacketEpochProducer(bestSource: bestSource)
    case .recording:
      producer = RecordingEpochProducer(
        keepsPacketsWhole: options.time == .now || options.moveTo != nil)
    case .delayCookie(let cookie, let dataStart):
      producer = DelayCookieEpochProducer(cookie: cookie, dataStart: dataStart)
    }
    rewriter = ReplayRewriter(moveTo: options.moveTo)
    try stream.seek(to: 0)
  }

  /// Sets the UTC time (nanoseconds since 1970) at which the first epoch goes out, which
  /// `--time now` moves the log's times to. Call it before the first `next()`, and again when
  /// the timeline moves: the epochs read after it show the new times.
  public func begin(liveStartNanoseconds: Int64) {
    self.liveStartNanoseconds = liveStartNanoseconds
  }

  /// Under `--time now`, the epoch with every time and date moved `shiftNanoseconds` on (a
  /// pause held it after it was read); else the epoch unchanged.
  public func retimed(_ epoch: ReplayEpoch, byNanoseconds shiftNanoseconds: Int64) -> ReplayEpoch {
    guard options.time == .now, shiftNanoseconds != 0 else { return epoch }
    var rewriter = ReplayRewriter(timeShiftNanoseconds: shiftNanoseconds)
    var moved = epoch
    moved.packets = epoch.packets.map { rewriter.rewrite($0) }
    return moved
  }

  /// The same file from its start, with the same options, for a seek.
  public func restarted() throws(InputFileError) -> sending (any ReplayEpochSource)? {
    try ReplayReader(path: path, options: options)
  }

  /// The next epoch, or nil at the end of a log played once.
  ///
  /// - Throws: `.unreadable` when the file can no longer be read.
  public func next() throws(InputFileError) -> ReplayEpoch? {
    while true {
      while pendingIndex < pending.count {
        let epoch = pending[pendingIndex]
        pending[pendingIndex].packets = []
        pendingIndex += 1
        if let ready = finish(epoch) { return ready }
      }
      pending.removeAll(keepingCapacity: true)
      pendingIndex = 0
      guard try fill() else { return nil }
    }
  }

  /// Reads on until epochs are pending; false at the end of a log played once.
  private func fill() throws(InputFileError) -> Bool {
    if let chunk = try stream.read() {
      producer.consume(chunk, into: &pending, header: &header, statistics: &statistics)
    } else if !atEnd {
      atEnd = true
      producer.finish(into: &pending, header: &header, statistics: &statistics)
    } else {
      // A loop that gave nothing out (every packet dropped) would give nothing again.
      guard options.looping, statistics.epochs > epochsAtLoopStart else { return false }
      try stream.seek(to: 0)
      producer.restart()
      clock.restart()
      atEnd = false
      epochsAtLoopStart = statistics.epochs
      statistics.loops += 1
      awaitsLoopStart = true
    }
    let held = pending.reduce(producer.heldBytes) { $0 + $1.byteCount }
    largestHeldBytes = max(largestHeldBytes, held)
    return true
  }

  /// The epoch given out: its offset set, its packets counted, dropped and rewritten; nil when
  /// nothing of it is left.
  private func finish(_ epoch: PendingEpoch) -> ReplayEpoch? {
    let offset = offset(of: epoch)
    if let offset {
      let first = firstPassStartNanoseconds ?? offset
      firstPassStartNanoseconds = first
      if awaitsLoopStart {
        awaitsLoopStart = false
        loopStartNanoseconds = offset - first
      }
    }
    var packets = epoch.packets
    statistics.count(kindsOf: packets)
    for case let problem? in packets.lazy.map(\.problem) {
      statistics.problems[problem, default: 0] += 1
    }
    if options.dropInvalid {
      let count = packets.count
      packets.removeAll { $0.problem != nil && $0.kind != .comment }
      statistics.dropped += count - packets.count
    }
    if !rewriter.isIdentity {
      for index in packets.indices { packets[index] = rewriter.rewrite(packets[index]) }
    }
    guard !packets.isEmpty else { return nil }
    statistics.epochs += 1
    return ReplayEpoch(
      offsetNanoseconds: offset, packets: packets, arrivedTogether: epoch.arrivedTogether,
      loopStartNanoseconds: loopStartNanoseconds)
  }

  /// The epoch's offset; under `--time now`, also sets the rewriter's shift so that the epoch
  /// shows the time it goes out at.
  private func offset(of epoch: PendingEpoch) -> Int64? {
    switch epoch.timing {
    case .untimed:
      return nil
    case .fixed(let offset, let absolute):
      if let absolute { shift(offset: offset, absolute: absolute) }
      return offset
    case .log(let time):
      let offset = clock.offset(for: time)
      statistics.timeJumps = clock.timeJumps
      guard options.time == .now, let liveStartNanoseconds else { return offset }
      var dateFirstMet = false
      if header.date == nil {
        for packet in epoch.packets where packet.kind == .nmea {
          if let day = NMEASentenceTimes.date(of: Array(packet.bytes)) {
            dateFirstMet = lastDateMet == nil
            lastDateMet = day
            break
          }
        }
      }
      var weekMet: Int?
      if time.scale == .timeOfWeek, anchorWeek == nil {
        weekMet =
          epoch.packets.lazy.filter { $0.kind == .ubx && $0.problem == nil }
          .compactMap { LogTime.ubxWeek($0.bytes) }.first
        if let met = weekMet {
          // The elapsed time sums the log's gaps, jumps included: a crafted log's may be huge.
          let period = time.scale.periodNanoseconds
          let elapsedWeeks = floorDivision(clock.logElapsedNanoseconds, period)
          let week =
            Int64(met) - elapsedWeeks.quotient
            - (time.nanoseconds < elapsedWeeks.remainder ? 1 : 0)
          if LogTime.plausibleWeeks.contains(Int(clamping: week)) {
            anchorWeek = Int(week)
            dateFirstMet = true
          } else {
            weekMet = nil
          }
        }
      }
      if clock.isAnchor {
        anchorAbsoluteNanoseconds = LiveTimeShift.absoluteNanoseconds(
          of: time, day: header.date ?? lastDateMet, week: anchorWeek,
          liveStart: liveStartNanoseconds)
      } else if dateFirstMet {
        // The first epochs had no date (a lone GGA, a NAV-POSLLH): their day (or week) was
        // taken as today's. Now that the log's own is known, the anchor moves by whole days
        // (or weeks), so that the dates written from here on are the live ones and the times
        // stay continuous.
        anchorAbsoluteNanoseconds =
          LiveTimeShift.absoluteNanoseconds(
            of: time, day: lastDateMet, week: weekMet ?? anchorWeek,
            liveStart: liveStartNanoseconds)
          - clock.logElapsedNanoseconds
      }
      shift(offset: offset, absolute: anchorAbsoluteNanoseconds + clock.logElapsedNanoseconds)
      return offset
    }
  }

  private func shift(offset: Int64, absolute: Int64) {
    guard options.time == .now, let liveStartNanoseconds else { return }
    rewriter.timeShiftNanoseconds = liveStartNanoseconds + offset - absolute
  }
}
