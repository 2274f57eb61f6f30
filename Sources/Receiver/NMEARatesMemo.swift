import Synchronization

/// The rates of a dialect's sentence types in an output selection, looked up once for all the
/// epochs given the same selection: asking the selection for each type at every epoch hashed
/// each name (5 % of a 10 Hz epoch's instructions with the epoch's text kept). The key is the
/// selection's NMEA rates and switch; a dictionary compares equal at once with itself (the same
/// storage), as the rates of an output left unchanged do. An encoder whose dialect changes gets
/// a new memo, as it gets new `EpochSkyMemo` and `EpochTextMemo`, so the order is the same.
final class NMEARatesMemo: Sendable {
  private struct Kept {
    var rates: [String: Int]
    var isEnabled: Bool
    /// The rate of each type by its place in the dialect's order; 0 for off.
    var byPlace: [Int]
  }

  private let kept = Mutex<Kept?>(nil)

  init() {}

  /// The types of `order` (the first 64) that `output` sends in the epoch with this index, as
  /// bits by their place: `EpochEncoder.sentBits` of `OutputSelection.sends(nmea:epochIndex:)`.
  func bits(of output: OutputSelection, epochIndex: Int, order: [String]) -> UInt64 {
    let byPlace = kept.withLock { kept -> [Int] in
      if let kept, kept.isEnabled == output.nmeaProtocolEnabled, kept.rates == output.nmea {
        return kept.byPlace
      }
      let byPlace = order.prefix(64).map(output.nmeaRate(of:))
      kept = Kept(rates: output.nmea, isEnabled: output.nmeaProtocolEnabled, byPlace: byPlace)
      return byPlace
    }
    var bits: UInt64 = 0
    for (place, rate) in byPlace.enumerated()
    where OutputSelection.isDue(rate: rate, epochIndex: epochIndex) {
      bits |= 1 << UInt64(place)
    }
    return bits
  }
}
