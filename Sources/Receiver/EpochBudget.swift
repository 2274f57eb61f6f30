/// Whether one epoch's sentences fit in the epoch period at a baud.
public struct EpochBudget: Hashable, Sendable {
  public var bytesPerEpoch: Int
  public var pacing: BytePacing
  public var cadence: CadencePlan

  /// Creates a budget.
  public init(bytesPerEpoch: Int, pacing: BytePacing, cadence: CadencePlan) {
    self.bytesPerEpoch = bytesPerEpoch
    self.pacing = pacing
    self.cadence = cadence
  }

  /// Line time one epoch needs.
  public var burstNanoseconds: Int64 { pacing.durationNanoseconds(ofBytes: bytesPerEpoch) }

  /// True when the burst ends before the next epoch starts.
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
