import Geodesy
import Synchronization

/// What a scene's sky shows through one UTC second: its satellites as they are at the second's
/// start, seen from where the motion is then, and the DOPs of those used. Where a change made
/// on request (a new position, a seek: `Motion.stretchStart(at:)`) falls within the second, the
/// epochs after it see the sky at the change, from where it put the receiver.
///
/// A receiver's reports of its sky are whole degrees and decibels, and a satellite 20,000 km
/// away moves a hundredth of a degree in a second, as it does seen from 1 km further on: every
/// epoch of a second reports the same sky, as a receiver sending GSV at 10 Hz does (its signal
/// strengths already change once a second, `SignalStrength`). An epoch on the whole second
/// sees exactly the sky of its own instant, so a 1 Hz stream does not change.
public struct SkyOfTheSecond: Sendable {
  /// The satellites in view, used ones first.
  public var satellites: [SatelliteInView]
  /// The DOPs of the satellites used; nil below four.
  public var dop: DilutionOfPrecision?
  /// How many satellites are used.
  public var usedCount: Int

  /// `sky`'s satellites at `instant` seen from `position`, and their DOPs.
  public init(of sky: any Sky, at instant: UTCInstant, from position: GeodeticPosition) {
    satellites = sky.satellites(at: instant, from: position)
    // The directions of the satellites used, in one pass into room made once.
    var used: [(azimuth: Double, elevation: Double)] = []
    used.reserveCapacity(satellites.count)
    for satellite in satellites where satellite.isUsed {
      used.append((satellite.azimuth, satellite.elevation))
    }
    dop = DilutionOfPrecision(directions: used)
    usedCount = used.count
  }

  /// The instant whose sky an epoch at `time` reports: the start of its UTC second, or the
  /// start of `motion`'s stretch at `time` when that is later (never after `time`).
  public static func instant(seenAt time: UTCInstant, motion: any Motion) -> UTCInstant {
    min(time, max(start(ofSecondHolding: time), motion.stretchStart(at: time)))
  }

  /// The start of the UTC second holding `time` (before 1970 too; `time` itself in the
  /// second before the earliest instant, whose start has no value).
  static func start(ofSecondHolding time: UTCInstant) -> UTCInstant {
    let remainder = time.nanoseconds % UTCInstant.nanosecondsPerSecond
    let intoSecond = remainder < 0 ? remainder + UTCInstant.nanosecondsPerSecond : remainder
    let (start, overflow) = time.nanoseconds.subtractingReportingOverflow(intoSecond)
    return overflow ? time : UTCInstant(nanosecondsSinceEpoch: start)
  }
}

/// A scene's sky of the last instant asked for (`SkyOfTheSecond.instant(seenAt:motion:)`), so
/// that the epochs of one second compute it once (at 10 Hz, a ninth of a device's work went
/// into the satellites and their DOPs). Copies of a scene share it; a scene whose motion or sky
/// changes gets a new one. Only saves work: the sky of an instant is a function of the
/// instant, the motion and the sky.
final class SkyOfTheSecondMemo: Sendable {
  private let last = Mutex<(instant: UTCInstant, sky: SkyOfTheSecond)?>(nil)

  init() {}

  /// The sky of `instant`, computed by `compute` unless it is the last one's.
  func sky(at instant: UTCInstant, otherwise compute: () -> SkyOfTheSecond) -> SkyOfTheSecond {
    if let kept = last.withLock({ $0 }), kept.instant == instant { return kept.sky }
    let sky = compute()
    last.withLock { $0 = (instant, sky) }
    return sky
  }
}
