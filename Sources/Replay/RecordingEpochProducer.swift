/// The epochs of a mockgps recording: each record is one epoch whose bytes arrived together, at
/// its arrival time after the first record's.
///
/// A record's bytes become one packet, not split into sentences: a read from a tty can end in
/// the middle of a sentence, and splitting would move bytes from one record to the next and
/// change the spacing the recording keeps. The packet is `.nmea` when the record starts with `$`
/// or `!`, `.ubx` when it starts with `B5 62`, else `.otherBinary`; it has no problem, so
/// `--drop-invalid` keeps it, and a rewriter sees the record's sentences together in one packet.
/// A malformed record is counted as a `.garbage` problem and skipped.
struct RecordingEpochProducer: ReplayEpochProducer {
  private var parser = RecordingParser()
  private var firstArrival: Int64?
  /// The offset of the first record of this pass through the file.
  private var base: Int64 = 0
  private var lastOffset: Int64?
  private var lastGap: Int64?

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
  }

  mutating func restart() {
    parser = RecordingParser()
    firstArrival = nil
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
      case .malformed:
        statistics.problems[.garbage, default: 0] += 1
      case .chunk(let chunk):
        epochs.append(epoch(chunk))
      }
    }
  }

  private mutating func epoch(_ chunk: RecordedChunk) -> PendingEpoch {
    let first = firstArrival ?? chunk.arrivalNanoseconds
    firstArrival = first
    var offset = base + chunk.arrivalNanoseconds - first
    if let lastOffset {
      if offset > lastOffset { lastGap = offset - lastOffset }
      offset = max(offset, lastOffset)
    }
    lastOffset = offset
    let packets =
      chunk.bytes.isEmpty
      ? [] : [LogPacket(kind: Self.kind(of: chunk.bytes), bytes: chunk.bytes, line: chunk.line + 1)]
    return PendingEpoch(
      timing: .fixed(offsetNanoseconds: offset, absoluteNanoseconds: chunk.arrivalNanoseconds),
      packets: packets, arrivedTogether: true)
  }

  private static func kind(of bytes: [UInt8]) -> LogPacket.Kind {
    switch bytes.first {
    case UInt8(ascii: "$"), UInt8(ascii: "!"): return .nmea
    case 0xB5 where bytes.count > 1 && bytes[1] == 0x62: return .ubx
    default: return .otherBinary
    }
  }
}
