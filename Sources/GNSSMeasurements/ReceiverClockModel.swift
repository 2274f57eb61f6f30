/// The receiver's clock as a u-blox chip runs it: a TCXO off its nominal frequency, so the bias
/// grows steadily, and the chip steps the clock by a whole millisecond whenever the bias passes
/// +0.5 ms (the millisecond clock jumps RXM-RAWX flags with `clkReset`).
///
/// The drift is a whole number of nanoseconds a second, so that at whole seconds the bias is
/// exact: there it is the one NAV-CLOCK reports.
public struct ReceiverClockModel: Hashable, Sendable {
  /// The drift, ns/s.
  public var driftNanosecondsPerSecond: Int

  /// A clock drifting by `driftNanosecondsPerSecond` (0.3 ppm by default).
  public init(driftNanosecondsPerSecond: Int = 300) {
    self.driftNanosecondsPerSecond = driftNanosecondsPerSecond
  }

  /// The drift, s/s.
  public var driftSecondsPerSecond: Double { Double(driftNanosecondsPerSecond) * 1e-9 }

  /// The drift accumulated by `secondsOfWeek`, nanoseconds (exact at whole seconds).
  func driftedNanoseconds(atSecondsOfWeek secondsOfWeek: Double) -> Double {
    secondsOfWeek * Double(driftNanosecondsPerSecond)
  }

  /// How many millisecond steps the clock has made by `secondsOfWeek`.
  public func stepCount(atSecondsOfWeek secondsOfWeek: Double) -> Int {
    Int((driftedNanoseconds(atSecondsOfWeek: secondsOfWeek) / 1e6).rounded(.down))
  }

  /// The bias (receiver time minus GPS time) at `secondsOfWeek` of GPS time, seconds, within
  /// ±0.5 ms.
  public func biasSeconds(atSecondsOfWeek secondsOfWeek: Double) -> Double {
    let drifted = driftedNanoseconds(atSecondsOfWeek: secondsOfWeek)
    return (drifted - Double(stepCount(atSecondsOfWeek: secondsOfWeek)) * 1e6 - 0.5e6) * 1e-9
  }
}
