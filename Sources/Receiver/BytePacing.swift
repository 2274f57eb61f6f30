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

  /// One write of a paced burst: the bytes and when, after the burst starts, the last of them
  /// has fully arrived on a real line.
  public struct Chunk: Hashable, Sendable {
    public var range: Range<Int>
    public var offsetNanoseconds: Int64
  }

  /// Splits `byteCount` bytes into writes of at most `granularityNanoseconds` of line time each.
  /// Unpaced, it is one write at offset 0.
  public func chunks(forByteCount byteCount: Int, granularityNanoseconds: Int64 = 10_000_000)
    -> [Chunk]
  {
    guard byteCount > 0 else { return [] }
    guard let bytesPerSecond else { return [Chunk(range: 0..<byteCount, offsetNanoseconds: 0)] }
    let perChunk = max(1, Int(Int64(bytesPerSecond) * granularityNanoseconds / 1_000_000_000))
    return stride(from: 0, to: byteCount, by: perChunk).map { start in
      let end = min(byteCount, start + perChunk)
      return Chunk(range: start..<end, offsetNanoseconds: durationNanoseconds(ofBytes: end))
    }
  }
}
