import NMEA
import Simulation
import Synchronization

/// The satellites an encoder listed at its last epoch (`EpochSky`) and the GSV pages it wrote
/// of them, kept for the next epoch that lists the same satellites the same way. A scene's sky
/// is that of the whole second (`SkyOfTheSecond`), so at 10 Hz nine epochs in ten hand the
/// encoder the very array of the one before, which compares equal at once (same storage);
/// their satellites are listed and paged once. A listing is a function of the satellites,
/// whether there is a fix, the constellations tracked and the dialect; an encoder whose
/// dialect or constellations change gets a new memo, so the key holds the first two. Shared
/// by copies of an encoder that keep those, as `EpochLineMemo` is: an epoch whose key differs
/// is listed anew, so it only saves work.
final class EpochSkyMemo: Sendable {
  /// What an epoch's listing is a function of, beside the encoder's settings.
  struct Key: Equatable {
    var satellites: [SatelliteInView]
    var hasFix: Bool
  }

  private struct Kept {
    var key: Key
    var sky: EpochSky
    /// The GSV pages of `sky`, once an epoch of it was paged.
    var gsvPages: [GSV]?
  }

  private let kept = Mutex<Kept?>(nil)

  init() {}

  /// The listing of `key`: the last one's when the key is the same, else `list()`'s, kept.
  func sky(for key: Key, otherwise list: () -> EpochSky) -> EpochSky {
    if let sky = kept.withLock({ kept in kept?.key == key ? kept?.sky : nil }) { return sky }
    let sky = list()
    kept.withLock { $0 = Kept(key: key, sky: sky) }
    return sky
  }

  /// The GSV pages of `key`'s listing: the last ones when the key is the same, else
  /// `page()`'s, kept with the listing.
  func gsvPages(for key: Key, otherwise page: () -> [GSV]) -> [GSV] {
    if let pages = kept.withLock({ kept in kept?.key == key ? kept?.gsvPages : nil }) {
      return pages
    }
    let pages = page()
    kept.withLock { if $0?.key == key { $0?.gsvPages = pages } }
    return pages
  }
}
