import Simulation

/// When a receiver's epochs fall: `rate` per second on a grid anchored at each UTC midnight, so
/// that at whole-number rates (and their divisors) every UTC second starts an epoch.
///
/// Each deadline is computed from the grid, never as "previous wake-up + period", so the schedule
/// cannot drift however late a wake-up is.
public struct CadencePlan: Hashable, Sendable {
  /// The slowest and fastest rates a receiver offers here, in hertz.
  public static let rateRange: ClosedRange<Double> = 0.1...20

  /// Epochs per 1000 seconds.
  public let rateMillihertz: Int64

  /// Why a rate was refused.
  public enum RateError: Error, Hashable, Sendable {
    case outOfRange(Double)
  }

  /// Creates a plan for `rateHz` epochs per second, rounded to 0.001 Hz.
  ///
  /// - Throws: `RateError.outOfRange` outside 0.1–20 Hz.
  public init(rateHz: Double) throws(RateError) {
    guard rateHz.isFinite, Self.rateRange.contains(rateHz) else { throw .outOfRange(rateHz) }
    rateMillihertz = Int64((rateHz * 1000).rounded())
  }

  /// One epoch a second, the default of most receivers.
  public static let oneHertz = CadencePlan(rateMillihertz: 1000)

  init(rateMillihertz: Int64) {
    self.rateMillihertz = rateMillihertz
  }

  /// The rate in hertz.
  public var rateHz: Double { Double(rateMillihertz) / 1000 }

  /// The rate as people write it: `1`, `0.5`, `2.5`.
  public var rateText: String {
    rateMillihertz % 1000 == 0 ? String(rateMillihertz / 1000) : String(rateHz)
  }

  /// The nominal time between epochs, in nanoseconds.
  public var periodNanoseconds: Int64 { 1_000_000_000_000 / rateMillihertz }

  /// The time of epoch `index` of the UTC day that starts at `dayStart`.
  public func epochTime(dayStart: UTCInstant, index: Int64) -> UTCInstant {
    dayStart.adding(nanoseconds: index * 1_000_000_000_000 / rateMillihertz)
  }

  /// The first epoch strictly after `instant`.
  public func nextEpoch(after instant: UTCInstant) -> UTCInstant {
    let dayStart = instant.startOfDay
    let offset = instant.nanoseconds - dayStart.nanoseconds
    var index = offset * rateMillihertz / 1_000_000_000_000
    while epochTime(dayStart: dayStart, index: index) <= instant { index += 1 }
    let candidate = epochTime(dayStart: dayStart, index: index)
    let nextDay = dayStart.adding(nanoseconds: UTCInstant.nanosecondsPerDay)
    return candidate < nextDay ? candidate : nextDay
  }
}
