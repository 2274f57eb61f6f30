/// The receiver's clock as a u-blox chip runs it: a TCXO off its nominal frequency, so the bias
/// grows steadily, and the chip steps the clock by a whole millisecond whenever the bias passes
/// +0.5 ms (the millisecond clock jumps RXM-RAWX flags with `clkReset`).
///
/// At whole seconds the bias is the one NAV-CLOCK reports.
public struct ReceiverClockModel: Hashable, Sendable {
  /// The drift, s/s.
  public var driftSecondsPerSecond: Double

  /// A clock drifting by `driftSecondsPerSecond` (0.3 ppm by default).
  public init(driftSecondsPerSecond: Double = 300e-9) {
    self.driftSecondsPerSecond = driftSecondsPerSecond
  }

  /// How many millisecond steps the clock has made by `secondsOfWeek`.
  public func stepCount(atSecondsOfWeek secondsOfWeek: Double) -> Int {
    Int((secondsOfWeek * driftSecondsPerSecond / 1e-3).rounded(.down))
  }

  /// The bias (receiver time minus GPS time) at `secondsOfWeek` of GPS time, seconds, within
  /// ±0.5 ms.
  public func biasSeconds(atSecondsOfWeek secondsOfWeek: Double) -> Double {
    let drifted = secondsOfWeek * driftSecondsPerSecond
    return drifted - Double(stepCount(atSecondsOfWeek: secondsOfWeek)) * 1e-3 - 0.5e-3
  }
}
