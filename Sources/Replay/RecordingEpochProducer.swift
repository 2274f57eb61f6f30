import Wire

/// The epochs of a mockgps recording: each record is one epoch whose bytes arrived together, at
/// its arrival time after the first record's.
///
/// A record's bytes stay together (one write at their time), split into the packets they hold so
/// that a rewriter sees each sentence and frame. A read from a tty can end in the middle of a
/// sentence: the piece at either end of a record that is cut off there is no problem of the
/// receiver's, so it carries none (`--drop-invalid` keeps it); it is not rewritten either, as
/// the rest of its sentence is in the next record. Gaps between records that go back or exceed
/// `LogClock.maximumGapNanoseconds` (the recorder's clock was set) are replaced by the gap
/// before, as in logs. A malformed record is counted as a `.garbage` problem and skipped.
///
/// When the packets are rewritten (`--time now`, `--move-to`), a sentence or frame must be
/// whole to be rewritten: with `keepsPacketsWhole`, the piece of one that a read cut off goes out
/// with the record that completes it, a few bytes later than recorded.
struct RecordingEpochProducer: ReplayEpochProducer {
  private var parser = RecordingParser()
  /// Kept across records when `keepsPacketsWhole`: the packet a record ends inside.
  private var splitter: LogPacketSplitter?
  private let keepsPacketsWhole: Bool
  private var previousArrival: Int64?
  /// The offset of the first record of this pass through the file.
  private var base: Int64 = 0
  private var lastOffset: Int64?
  private var lastGap: Int64?

  /// Creates the producer; `keepsPacketsWhole` for a replay whose packets are rewritten.
  init(keepsPacketsWhole: Bool = false) {
    self.keepsPacketsWhole = keepsPacketsWhole
    splitter = keepsPacketsWhole ? LogPacketSplitter() : nil
  }

  var heldBytes: Int { 0 }

  mutating func consume(
    _ chunk: ArraySlice<UInt8>, into epochs: inout [PendingEpoch], header: inout LogHeader,
    statistics: inout ReplayStatistics
  ) {
    take(parser.items(from: chunk), into: &epochs, header: &header, statistics: &statistics)
  }

  mutating func finish(
    into epochs: inout [PendingEpoch], header: inout LogHeader,
    statistics: inout ReplayStatistics
  ) {
    take(parser.finish(), into: &epochs, header: &header, statistics: &statistics)
    if let rest = splitter?.finish(), !rest.isEmpty, let lastOffset {
      epochs.append(
        PendingEpoch(
          timing: .fixed(offsetNanoseconds: lastOffset, absoluteNanoseconds: previousArrival),
          packets: rest, arrivedTogether: true))
    }
  }

  mutating func restart() {
    parser = RecordingParser()
    splitter = keepsPacketsWhole ? LogPacketSplitter() : nil
    previousArrival = nil
    base = (lastOffset ?? 0) + (lastGap ?? LogClock.defaultGapNanoseconds)
  }

  private mutating func take(
    _ items: [RecordingParser.Item], into epochs: inout [PendingEpoch], header: inout LogHeader,
    statistics: inout ReplayStatistics
  ) {
    for item in items {
      switch item {
      case .header(let text, _):
        _ = header.read(comment: Array(text.utf8))
      case .malformed, .corruptCount:
        statistics.problems[.garbage, default: 0] += 1
      case .chunk(let chunk):
        epochs.append(epoch(chunk, statistics: &statistics))
      }
    }
  }

  private mutating func epoch(_ chunk: RecordedChunk, statistics: inout ReplayStatistics)
    -> PendingEpoch
  {
    var offset = base
    if let previousArrival, let lastOffset {
      var gap = chunk.arrivalNanoseconds - previousArrival
      if gap < 0 || gap > LogClock.maximumGapNanoseconds {
        statistics.timeJumps += 1
        gap = lastGap ?? LogClock.defaultGapNanoseconds
      } else {
        lastGap = gap
      }
      offset = lastOffset + gap
    }
    previousArrival = chunk.arrivalNanoseconds
    lastOffset = offset
    return PendingEpoch(
      timing: .fixed(offsetNanoseconds: offset, absoluteNanoseconds: chunk.arrivalNanoseconds),
      packets: packets(of: chunk), arrivedTogether: true)
  }

  /// The packets of a record's bytes; a piece cut off by the read at either end has no problem.
  private mutating func packets(of chunk: RecordedChunk) -> [LogPacket] {
    guard !chunk.bytes.isEmpty else { return [] }
    if var whole = splitter {
      var packets = whole.packets(from: chunk.bytes)
      splitter = whole
      for index in packets.indices { packets[index].line += chunk.line }
      return packets
    }
    var splitter = LogPacketSplitter()
    var packets = splitter.packets(from: chunk.bytes) + splitter.finish()
    for index in [0, packets.count - 1] where packets.indices.contains(index) {
      if packets[index].problem == .truncated || packets[index].problem == .garbage {
        packets[index].problem = nil
      }
    }
    for index in packets.indices { packets[index].line += chunk.line }
    return packets
  }
}
