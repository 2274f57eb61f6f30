/// How the bytes of an epoch leave a UART: one after another at the line rate of the baud
/// (8N1 sends ten bits a byte), then silence until the next epoch.
public struct BytePacing: Hashable, Sendable {
  /// The standard rates a serial receiver offers; 0 means "write unpaced".
  public static let standardBauds: [Int] = [
    0, 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600,
  ]

  /// Bits per second; 0 for unpaced.
  public let baud: Int

  /// Why a baud was refused.
  public enum BaudError: Error, Hashable, Sendable {
    case notStandard(Int)
  }

  /// Creates the pacing of one of `standardBauds`.
  public init(baud: Int) throws(BaudError) {
    guard Self.standardBauds.contains(baud) else { throw .notStandard(baud) }
    self.baud = baud
  }

  /// 9600 baud, the most common rate of NMEA receivers.
  public static let baud9600 = BytePacing(standardBaud: 9600)

  /// No pacing: bytes leave as soon as they are written.
  public static let unpaced = BytePacing(standardBaud: 0)

  private init(standardBaud: Int) {
    baud = standardBaud
  }

  /// Bytes per second on the line (8N1: baud / 10); nil when unpaced.
  public var bytesPerSecond: Int? { baud == 0 ? nil : baud / 10 }

  /// Nanoseconds the line needs for `byteCount` bytes; 0 when unpaced.
  public func durationNanoseconds(ofBytes byteCount: Int) -> Int64 {
    guard let bytesPerSecond else { return 0 }
    return Int64(byteCount) * 1_000_000_000 / Int64(bytesPerSecond)
  }

  /// One write of a paced burst: the bytes, when the line would start sending the first of
  /// them (the write goes out then), and when the last of them would have fully arrived (the
  /// line is busy until then), both after the burst starts.
  ///
  /// A write never starts before the line has carried everything written before it, so the
  /// bytes sent by any moment never run ahead of the line by more than one chunk, and the
  /// first byte of an epoch leaves when the epoch starts, as on a real UART.
  public struct Chunk: Hashable, Sendable {
    public var range: Range<Int>
    /// When the line starts sending the chunk's first byte: when it is written.
    public var startOffsetNanoseconds: Int64
    /// When the chunk's last byte has fully arrived.
    public var offsetNanoseconds: Int64

    /// Creates a chunk written at `startOffsetNanoseconds` whose last byte arrives at
    /// `offsetNanoseconds`.
    public init(range: Range<Int>, startOffsetNanoseconds: Int64, offsetNanoseconds: Int64) {
      self.range = range
      self.startOffsetNanoseconds = startOffsetNanoseconds
      self.offsetNanoseconds = offsetNanoseconds
    }

    /// Creates a chunk written at `offsetNanoseconds`, when its last byte has arrived too
    /// (unpaced, or a plan written by hand).
    public init(range: Range<Int>, offsetNanoseconds: Int64) {
      self.init(
        range: range, startOffsetNanoseconds: offsetNanoseconds,
        offsetNanoseconds: offsetNanoseconds)
    }
  }

  /// Groups lines (sentences with their CR LF) into writes: consecutive lines share a write
  /// while the write stays within `granularityNanoseconds` of line time, and a line is never
  /// split. Each write goes out when the line would start sending its first byte (the first
  /// at the burst's start), and the next one when the line has carried it. A last group of
  /// less than a quarter of that line time joins the write before: a wake-up and a write for
  /// a sliver (the ZDA of a 10 Hz epoch at 115200 baud) cost more than its lead is worth, so
  /// bytes run ahead of the line by at most a group and a quarter. Unpaced, it is one write
  /// at offset 0.
  ///
  /// Under a time scale X (`--time-scale`), line time is compressed by X as simulated time is:
  /// the bytes leave at X times the baud, so an epoch fills the same share of its (X times
  /// shorter) period as it would at X = 1. Offsets and `granularityNanoseconds` are wire time.
  public func chunks(
    forLineLengths lengths: [Int], granularityNanoseconds: Int64 = 40_000_000,
    timeScale: Double = 1
  ) -> [Chunk] {
    let total = lengths.reduce(0, +)
    guard total > 0 else { return [] }
    guard bytesPerSecond != nil else { return [Chunk(range: 0..<total, offsetNanoseconds: 0)] }
    let chunk = { (range: Range<Int>) in
      Chunk(
        range: range,
        startOffsetNanoseconds: wireNanoseconds(ofBytes: range.lowerBound, timeScale: timeScale),
        offsetNanoseconds: wireNanoseconds(ofBytes: range.upperBound, timeScale: timeScale))
    }
    var chunks: [Chunk] = []
    var start = 0
    var end = 0
    for length in lengths where length > 0 {
      if end > start,
        wireNanoseconds(ofBytes: end + length - start, timeScale: timeScale)
          > granularityNanoseconds
      {
        chunks.append(chunk(start..<end))
        start = end
      }
      end += length
    }
    let isSliver =
      wireNanoseconds(ofBytes: end - start, timeScale: timeScale) < granularityNanoseconds / 4
    if isSliver, let last = chunks.popLast() { start = last.range.lowerBound }
    chunks.append(chunk(start..<end))
    return chunks
  }

  /// The wire time of `byteCount` bytes under a time scale (see `chunks(forLineLengths:…)`).
  public func wireNanoseconds(ofBytes byteCount: Int, timeScale: Double) -> Int64 {
    let line = durationNanoseconds(ofBytes: byteCount)
    return timeScale == 1 ? line : Int64((Double(line) / timeScale).rounded())
  }

  /// What a UART that starts listening `offsetNanoseconds` after a burst started receives of
  /// it: the writes of `chunks` (planned by `chunks(forLineLengths:…)` at this pacing and
  /// `timeScale`) cut to the bytes whose line time starts then or later, each still written
  /// when the line starts sending its first byte. Empty once the burst is over (at once when
  /// unpaced: the whole burst leaves at its start).
  public func rest(
    of chunks: [Chunk], fromNanoseconds offsetNanoseconds: Int64, timeScale: Double = 1
  ) -> [Chunk] {
    guard offsetNanoseconds > 0 else { return chunks }
    guard let bytesPerSecond, let total = chunks.last?.range.upperBound else { return [] }
    // The first byte whose line time starts at or after the offset (rounded estimate, then
    // moved to the exact one).
    var first = Int(Double(offsetNanoseconds) * timeScale * Double(bytesPerSecond) / 1e9)
    while first > 0, wireNanoseconds(ofBytes: first - 1, timeScale: timeScale) >= offsetNanoseconds
    {
      first -= 1
    }
    while first < total, wireNanoseconds(ofBytes: first, timeScale: timeScale) < offsetNanoseconds {
      first += 1
    }
    return chunks.compactMap { chunk in
      guard chunk.range.upperBound > first else { return nil }
      guard chunk.range.lowerBound < first else { return chunk }
      return Chunk(
        range: first..<chunk.range.upperBound,
        startOffsetNanoseconds: wireNanoseconds(ofBytes: first, timeScale: timeScale),
        offsetNanoseconds: chunk.offsetNanoseconds)
    }
  }
}
