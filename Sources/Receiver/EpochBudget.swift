/// Whether epochs fit in the epoch period at a baud. The largest of a second's epochs counts:
/// a chip at 10 Hz sends its GSV once a second, and that epoch is the one that overruns.
public struct EpochBudget: Hashable, Sendable {
  /// The bytes of the largest epoch.
  public var bytesPerEpoch: Int
  public var pacing: BytePacing
  public var cadence: CadencePlan

  /// Creates a budget.
  public init(bytesPerEpoch: Int, pacing: BytePacing, cadence: CadencePlan) {
    self.bytesPerEpoch = bytesPerEpoch
    self.pacing = pacing
    self.cadence = cadence
  }

  /// A budget of the largest of `epochByteCounts` (the epochs of a second,
  /// `epochsPerSecond(cadence)` of them).
  public init(epochByteCounts: [Int], pacing: BytePacing, cadence: CadencePlan) {
    self.init(bytesPerEpoch: epochByteCounts.max() ?? 0, pacing: pacing, cadence: cadence)
  }

  /// How many epochs make up a second: one when the period is a second or longer.
  public static func epochsPerSecond(_ cadence: CadencePlan) -> Int {
    max(1, Int((1_000_000_000 + cadence.periodNanoseconds - 1) / cadence.periodNanoseconds))
  }

  /// Line time the largest epoch needs.
  public var burstNanoseconds: Int64 { pacing.durationNanoseconds(ofBytes: bytesPerEpoch) }

  /// True when the largest burst ends before the next epoch starts.
  public var fits: Bool { burstNanoseconds < cadence.periodNanoseconds }

  /// A one-line warning when it does not fit, else nil.
  public var warning: String? {
    guard !fits else { return nil }
    let needed = burstNanoseconds / 1_000_000
    let period = cadence.periodNanoseconds / 1_000_000
    return "\(bytesPerEpoch) bytes per epoch need \(needed) ms at \(pacing.baud) baud, more than "
      + "the \(period) ms period at \(cadence.rateText) Hz: epochs will be skipped "
      + "(raise --baud or lower --rate)"
  }
}
