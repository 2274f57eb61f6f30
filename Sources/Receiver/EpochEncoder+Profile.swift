import NMEA
import Simulation

extension EpochEncoder {
  /// An encoder writing the NMEA of a profile's chip: its dialect and default systems.
  public init(profile: ReceiverProfile) {
    self.init()
    dialect = profile.dialect
    constellations = profile.defaultConstellations
    forgetEpochs()
  }

  /// The sentences of the epoch with this index that `output` switches on, in the chip's order.
  public func sentences(for fix: Fix, output: OutputSelection, epochIndex: Int) -> [RawSentence] {
    var sink = EpochRawSentences()
    write(fix, to: &sink, sending: sentBits { output.sends(nmea: $0, epochIndex: epochIndex) })
    return sink.sentences
  }

  /// The sentences of `type` (`"GBS"`, or the several of GSV and of a GSA per system) one
  /// epoch of `fix` writes; none for a type the dialect does not write.
  public func sentences(for fix: Fix, sending type: String) -> [RawSentence] {
    var sink = EpochRawSentences()
    write(fix, to: &sink, sending: sentBits { $0 == type })
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
