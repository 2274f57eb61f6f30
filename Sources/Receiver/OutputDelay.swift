import Simulation

/// How long after its epoch's instant a chip starts to send the epoch: a real receiver
/// computes its solution first, so the first byte leaves some tens of milliseconds after the
/// second it describes, varying a little from epoch to epoch. Time users (chrony or ntpd fed by
/// gpsd from the sentences) measure that delay and configure it as an offset.
///
/// The delay of an epoch is `nominal` plus a jitter drawn uniformly from `-jitter...jitter`,
/// from a seed and the epoch's time: the same run gives the same delays.
public struct OutputDelay: Hashable, Sendable, CustomStringConvertible {
  /// The mean delay, in nanoseconds.
  public let nominalNanoseconds: Int64
  /// The most an epoch's delay differs from the mean, in nanoseconds.
  public let jitterNanoseconds: Int64

  /// No delay: the first byte leaves at the epoch's instant.
  public static let none = OutputDelay(checkedNominal: 0, jitter: 0)

  /// The longest delay (nominal plus jitter), below a second: a chip sends an epoch within
  /// the second it describes.
  public static let limitNanoseconds: Int64 = 1_000_000_000

  /// Why a delay is refused.
  public enum Refusal: Error, Hashable, Sendable {
    /// A negative delay or jitter: a chip cannot send before its epoch.
    case negative
    /// The jitter is larger than the delay: some epochs would leave before their instant.
    case jitterAboveDelay
    /// The delay and its jitter reach a second.
    case tooLong
  }

  /// A delay of `nominalNanoseconds` give or take `jitterNanoseconds`.
  ///
  /// - Throws: `Refusal` when either is negative, the jitter exceeds the delay, or the two
  ///   reach `limitNanoseconds`.
  public init(nominalNanoseconds: Int64, jitterNanoseconds: Int64 = 0) throws(Refusal) {
    guard nominalNanoseconds >= 0, jitterNanoseconds >= 0 else { throw .negative }
    guard jitterNanoseconds <= nominalNanoseconds else { throw .jitterAboveDelay }
    guard nominalNanoseconds + jitterNanoseconds < Self.limitNanoseconds else { throw .tooLong }
    self.init(checkedNominal: nominalNanoseconds, jitter: jitterNanoseconds)
  }

  private init(checkedNominal: Int64, jitter: Int64) {
    nominalNanoseconds = checkedNominal
    jitterNanoseconds = jitter
  }

  /// The shortest delay of any epoch.
  public var earliestNanoseconds: Int64 { nominalNanoseconds - jitterNanoseconds }

  /// How much later than `earliestNanoseconds` the epoch at `epochNanoseconds` leaves: from 0
  /// to twice the jitter, the same for the same seed and epoch.
  public func extraNanoseconds(epochAt time: UTCInstant, seed: UInt64) -> Int64 {
    guard jitterNanoseconds > 0 else { return 0 }
    var generator = FaultRandomNumberGenerator(seed: seed, time: time)
    return Int64(generator.next() % UInt64(2 * jitterNanoseconds + 1))
  }

  /// The delay in whole milliseconds, with its jitter when it has one: `120 ms`, `120±15 ms`.
  public var description: String {
    let nominal = nominalNanoseconds / 1_000_000
    guard jitterNanoseconds > 0 else { return "\(nominal) ms" }
    return "\(nominal)±\(jitterNanoseconds / 1_000_000) ms"
  }

  /// Parses `MS` or `MS±JITTER` (`+-` for `±`), whole milliseconds; nil when the text is not
  /// that, `Refusal` when the figures are not a delay a chip can have.
  public static func parse(milliseconds text: String) throws(Refusal) -> OutputDelay? {
    if text.hasPrefix("-"), (try? parse(milliseconds: String(text.dropFirst()))) != nil {
      throw .negative
    }
    let parts = text.replacing("+-", with: "±").split(
      separator: "±", maxSplits: 1, omittingEmptySubsequences: false)
    let figures = parts.map { part -> Int64? in
      guard !part.isEmpty, part.utf8.allSatisfy({ (0x30...0x39).contains($0) }), part.count <= 6
      else { return nil }
      return Int64(part)
    }
    guard figures.allSatisfy({ $0 != nil }), let nominal = figures[0] else { return nil }
    let jitter = figures.count == 2 ? figures[1] ?? 0 : 0
    return try OutputDelay(
      nominalNanoseconds: nominal * 1_000_000, jitterNanoseconds: jitter * 1_000_000)
  }
}
