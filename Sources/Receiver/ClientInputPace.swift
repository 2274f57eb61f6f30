/// How fast a client's input is taken from the kernel: no faster than a line carries it (ten
/// bits a byte at the line's speed, compressed by the time scale), with at most
/// `readAheadBytes` taken that the line has not carried yet. The rest waits in the kernel,
/// whose queue fills; the client's write then blocks (or fails with EAGAIN) until the line has
/// carried more, as on a port whose other end takes bytes at that rate.
///
/// A serial device takes what its clients write at the chip's speed: a burst up to the read
/// ahead is taken at once, with the speed the client's terminal had when it wrote (a driver
/// writes its configuration, then changes its own speed), and a client that writes without end
/// costs the I/O thread the line's rate, about baud/10 bytes a second, not a CPU. When the bytes
/// reach the chip is `ClientLineArrival`'s, on the device's clock; this is on the machine's
/// monotonic clock, whose CPU it bounds, whatever clock the device runs on. An unpaced line
/// (`--baud 0`) is not held back.
///
/// Pure: the caller reads the clock and passes it in.
public struct ClientInputPace: Sendable {
  /// How much a reader takes ahead of what the line has carried: the most a driver writes in
  /// one go (a configuration, an AssistNow upload), so that it is read at once, as before the
  /// pace, with the speed it was written at.
  public static let readAheadBytes = 65_536

  /// The fastest a paced line is read, whatever the time scale: a device at 9600 baud under
  /// `--time-scale 1000` carries 9.6 MB a second of simulated line, which would let a client's
  /// flood hold the I/O thread again (a review: a whole CPU). Beyond the read ahead, a client
  /// writing faster than this reaches the chip later than the compressed line would carry it.
  public static let fastestLine: BytePacing = {
    guard let line = try? BytePacing(baud: 921_600) else {
      preconditionFailure("921600 baud is a standard speed")
    }
    return line
  }()

  /// Monotonic nanoseconds when the line has carried every byte taken so far.
  public private(set) var lineFreeNanoseconds: Int64 = .min

  /// A line that carried nothing yet.
  public init() {}

  /// Notes that `byteCount` bytes were taken at `now`, on a line at `pacing` under `timeScale`.
  public mutating func took(
    _ byteCount: Int, atNanoseconds now: Int64, pacing: BytePacing, timeScale: Double
  ) {
    lineFreeNanoseconds =
      max(now, lineFreeNanoseconds)
      + Self.readNanoseconds(ofBytes: byteCount, pacing: pacing, timeScale: timeScale)
  }

  /// How long the line takes to carry `byteCount` bytes for the reader: its wire time,
  /// compressed by the time scale, but no less than `fastestLine`'s; nothing when unpaced.
  static func readNanoseconds(ofBytes byteCount: Int, pacing: BytePacing, timeScale: Double)
    -> Int64
  {
    guard pacing != .unpaced else { return 0 }
    return max(
      pacing.wireNanoseconds(ofBytes: byteCount, timeScale: timeScale),
      fastestLine.wireNanoseconds(ofBytes: byteCount, timeScale: 1))
  }

  /// When a read of up to `readBytes` may be taken, or nil when it may now: once it would
  /// leave at most `readAheadBytes` that the line has not carried.
  public func resumeNanoseconds(
    now: Int64, readBytes: Int, pacing: BytePacing, timeScale: Double
  ) -> Int64? {
    let room = max(Self.readAheadBytes - readBytes, 0)
    let ahead = Self.readNanoseconds(ofBytes: room, pacing: pacing, timeScale: timeScale)
    guard lineFreeNanoseconds > now, lineFreeNanoseconds - now > ahead else { return nil }
    return lineFreeNanoseconds - ahead
  }
}
