import Wire

/// The epochs of a gpsd test log with `# Delay-Cookie: D SECONDS`: the comments before the
/// data go out first, as recorded; then each piece of data between delimiters is an epoch
/// `SECONDS` after the one before (see `DelayCookieCutter`).
///
/// A piece is one packet of kind `.garbage` without a problem: it is a cut through sentences,
/// so it is sent as it is, never rewritten, and kept by `--drop-invalid`.
struct DelayCookieEpochProducer: ReplayEpochProducer {
  let cookie: LogHeader.DelayCookie
  /// Where the data starts: the bytes before are comments.
  let dataStart: Int
  private var splitter = LogPacketSplitter()
  private var cutter: DelayCookieCutter
  private var position = 0
  private var line = 1
  private var lastOffset: Int64?

  init(cookie: LogHeader.DelayCookie, dataStart: Int) {
    self.cookie = cookie
    self.dataStart = dataStart
    cutter = DelayCookieCutter(delimiter: cookie.delimiter)
  }

  var heldBytes: Int { 0 }

  private var delayNanoseconds: Int64 { Int64((cookie.delaySeconds * 1e9).rounded()) }

  mutating func consume(
    _ chunk: ArraySlice<UInt8>, into epochs: inout [PendingEpoch], header: inout LogHeader,
    statistics: inout ReplayStatistics
  ) {
    let split = min(chunk.endIndex, chunk.startIndex + max(0, dataStart - position))
    position += chunk.count
    line += chunk[..<split].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    let comments = splitter.packets(from: chunk[..<split])
    for packet in comments where packet.kind == .comment { _ = header.read(comment: packet.bytes) }
    if !comments.isEmpty { epochs.append(PendingEpoch(timing: .untimed, packets: comments)) }
    for piece in cutter.pieces(from: chunk[split...]) { epochs.append(epoch(piece)) }
  }

  mutating func finish(
    into epochs: inout [PendingEpoch], header: inout LogHeader,
    statistics: inout ReplayStatistics
  ) {
    let comments = splitter.finish()
    if !comments.isEmpty { epochs.append(PendingEpoch(timing: .untimed, packets: comments)) }
    for piece in cutter.finish() { epochs.append(epoch(piece)) }
  }

  mutating func restart() {
    splitter = LogPacketSplitter()
    cutter = DelayCookieCutter(delimiter: cookie.delimiter)
    position = 0
    line = 1
  }

  private mutating func epoch(_ piece: DelayCookieCutter.Piece) -> PendingEpoch {
    let packet = LogPacket(kind: .garbage, bytes: piece.bytes, line: line)
    line += piece.bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    guard !piece.continuesPrevious else { return PendingEpoch(timing: .untimed, packets: [packet]) }
    let offset = lastOffset.map { $0 + delayNanoseconds } ?? 0
    lastOffset = offset
    return PendingEpoch(
      timing: .fixed(offsetNanoseconds: offset, absoluteNanoseconds: nil), packets: [packet])
  }
}
