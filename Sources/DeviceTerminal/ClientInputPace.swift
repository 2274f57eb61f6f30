import Receiver

/// How fast the chip's side takes what clients write out of the pseudo-terminal: no faster than
/// its UART carries it (ten bits a byte at the chip's speed, compressed by the time scale), and
/// at most `readAheadBytes` of line ahead, as a serial port's driver holds a page of what was
/// written while the line sends it. The rest waits in the kernel, whose queue fills; the client's
/// write then blocks (or fails with EAGAIN) as on a real port, until the line has carried more.
///
/// So a client that writes without end costs the I/O thread the chip's line rate, about
/// baud/10 bytes a second, not a CPU, and leaves it to the other devices. When the bytes reach
/// the chip is `ClientLineArrival`'s, on the device's clock; this is on the machine's monotonic
/// clock, whose CPU it bounds, whatever clock the device runs on. An unpaced line (`--baud 0`)
/// is not held back.
///
/// Pure: the device reads the clock and passes it in.
struct ClientInputPace: Hashable, Sendable {
  /// How much line the chip's side reads ahead of what the line has carried: one read.
  static let readAheadBytes = 4096

  /// Monotonic nanoseconds when the line has carried every byte taken so far.
  private(set) var lineFreeNanoseconds: Int64 = .min

  /// Notes that `byteCount` bytes were taken at `now`, on a line at `pacing` under `timeScale`.
  mutating func took(
    _ byteCount: Int, atNanoseconds now: Int64, pacing: BytePacing, timeScale: Double
  ) {
    lineFreeNanoseconds =
      max(now, lineFreeNanoseconds)
      + pacing.wireNanoseconds(ofBytes: byteCount, timeScale: timeScale)
  }

  /// When the chip's side may read again, or nil when it may now: the line carries what was
  /// taken until more than `readAheadBytes` of it is left.
  func resumeNanoseconds(now: Int64, pacing: BytePacing, timeScale: Double) -> Int64? {
    let ahead = pacing.wireNanoseconds(ofBytes: Self.readAheadBytes, timeScale: timeScale)
    guard lineFreeNanoseconds > now, lineFreeNanoseconds - now > ahead else { return nil }
    return lineFreeNanoseconds - ahead
  }
}
