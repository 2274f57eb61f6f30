import NMEA
import Simulation

extension EpochEncoder {
  /// An encoder writing the NMEA of a profile's chip: its dialect and default systems.
  public init(profile: ReceiverProfile) {
    self.init()
    dialect = profile.dialect
    constellations = profile.defaultConstellations
  }

  /// The sentences of the epoch with this index that `output` switches on, in the chip's order.
  public func sentences(for fix: Fix, output: OutputSelection, epochIndex: Int) -> [RawSentence] {
    var encoder = self
    encoder.enabledSentences = Set(
      dialect.sentenceOrder.filter { output.sends(nmea: $0, epochIndex: epochIndex) })
    return encoder.sentences(for: fix)
  }
}
