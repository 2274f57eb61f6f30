/// How fast epochs may leave on the wire once `--time-scale` has compressed them.
///
/// Under a time scale X, a receiver at `rate` Hz keeps its simulated period, so the wire sees
/// rate × X epochs a second (1 Hz × 10 is ten epochs a wall second). Above
/// `maximumWireRateHz` a period is shorter than the machine's timer can keep (about a
/// millisecond on a loaded VM), so such a combination is refused when the emulator is
/// configured, and a rate asked for later by a client command is lowered to the fastest one
/// allowed.
public enum WireRateLimit {
  /// The most epochs a wall second the emulator sends.
  public static let maximumWireRateHz: Double = 1000

  /// Epochs a wall second for `cadence` under `timeScale`.
  public static func wireRateHz(of cadence: CadencePlan, timeScale: Double) -> Double {
    cadence.rateHz * timeScale
  }

  /// True when `cadence` under `timeScale` stays within `maximumWireRateHz`.
  public static func allows(_ cadence: CadencePlan, timeScale: Double) -> Bool {
    Double(cadence.rateMillihertz) * timeScale <= maximumWireRateHz * 1000
  }

  /// `cadence` when it is allowed under `timeScale`, else the fastest cadence that is: the
  /// whole number of millihertz at or below `maximumWireRateHz / timeScale`.
  public static func limited(_ cadence: CadencePlan, timeScale: Double) -> CadencePlan {
    guard !allows(cadence, timeScale: timeScale) else { return cadence }
    let fastest = Int64((maximumWireRateHz * 1000 / timeScale).rounded(.down))
    let slowest = Int64(CadencePlan.rateRange.lowerBound * 1000)
    return CadencePlan(rateMillihertz: max(fastest, slowest))
  }

  /// Why a configuration was refused.
  public struct TooFastError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The simulated cadence asked for.
    public var cadence: CadencePlan
    /// The time scale asked for.
    public var timeScale: Double

    /// Creates the error of `cadence` under `timeScale`.
    public init(cadence: CadencePlan, timeScale: Double) {
      self.cadence = cadence
      self.timeScale = timeScale
    }

    /// `20 Hz at time scale 100 needs 2000 epochs a second on the wire, more than 1000`.
    public var description: String {
      let wire = WireRateLimit.wireRateHz(of: cadence, timeScale: timeScale)
      return "\(cadence.rateText) Hz at time scale \(Self.text(timeScale)) needs "
        + "\(Self.text(wire)) epochs a second on the wire, more than "
        + "\(Self.text(WireRateLimit.maximumWireRateHz))"
    }

    /// A number without a needless `.0`, and with at most three decimals.
    static func text(_ value: Double) -> String {
      let thousandths = (value * 1000).rounded()
      if thousandths.truncatingRemainder(dividingBy: 1000) == 0 {
        return String(Int64(thousandths / 1000))
      }
      return String(thousandths / 1000)
    }
  }

  /// Refuses `cadence` under `timeScale` when the wire would run faster than
  /// `maximumWireRateHz`.
  ///
  /// - Throws: `TooFastError` naming the rate, the scale and the wire rate they need.
  public static func check(_ cadence: CadencePlan, timeScale: Double) throws(TooFastError) {
    guard allows(cadence, timeScale: timeScale) else {
      throw TooFastError(cadence: cadence, timeScale: timeScale)
    }
  }
}
