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
    var sink = EpochRawSentences()
    write(fix, to: &sink, sending: sentBits { output.sends(nmea: $0, epochIndex: epochIndex) })
    return sink.sentences
  }

  /// The lines of the epoch with this index that `output` switches on, in the chip's order, each
  /// ending in CR LF.
  public func lines(for fix: Fix, output: OutputSelection, epochIndex: Int) -> [[UInt8]] {
    epochLines(
      for: fix,
      sending: ratesMemo.bits(of: output, epochIndex: epochIndex, order: dialect.sentenceOrder))
  }
}
