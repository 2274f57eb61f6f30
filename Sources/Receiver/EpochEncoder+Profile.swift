import NMEA
import Simulation

// PLACEHOLDER (issue 8 contract): the NMEA dialect helper replaces this with the profile's
// dialect (talkers, NMEA version, order, widths). The signatures are the contract.
extension EpochEncoder {
  /// An encoder writing the NMEA of a profile's chip.
  public init(profile: ReceiverProfile) {
    self.init()
    constellations = profile.defaultConstellations
  }

  /// The sentences of the epoch with this index that `output` switches on, in the chip's order.
  public func sentences(for fix: Fix, output: OutputSelection, epochIndex: Int) -> [RawSentence] {
    var encoder = self
    encoder.enabledSentences = Set(
      Self.sentenceOrder.filter { output.sends(nmea: $0, epochIndex: epochIndex) })
    return encoder.sentences(for: fix)
  }
}
