import Geodesy

/// What goes wrong with the receiver's solution.
///
/// Fix faults sit between the scene and the encoder: `Scene.fix(at:)` derives the fix from the
/// motion and the sky, then applies its `FixFaults`.
public enum FixFaultKind: Hashable, Sendable {
  /// True for the faults that cut every signal, after which the receiver locks its carriers
  /// again (`TimedFaults.signalsReacquired`): a loss of all satellites, a cold start.
  public var cutsEverySignal: Bool {
    switch self {
    case .loseSatellites(.all), .coldStart: return true
    default: return false
    }
  }

  /// Which satellites stop being used or seen.
  public enum SatelliteLoss: Hashable, Sendable {
    /// Every satellite goes out of view.
    case all
    /// Only the first `count` used satellites stay used; the others stay in view, unused.
    case keepUsed(Int)
    /// The satellites with these IDs stay in view but are not used.
    case markUnused(Set<Int>)
  }

  /// The mode the receiver reports, at most what the satellites used allow.
  case forceMode(Fix.Mode)
  /// Every DOP multiplied by a factor.
  case scaleDOP(by: Double)
  /// Satellites lost; the mode and DOPs follow from the ones still used.
  case loseSatellites(SatelliteLoss)
  /// The position moved by a fixed offset, meters north, east and up.
  case jump(northMeters: Double, eastMeters: Double, upMeters: Double = 0)
  /// Horizontal position noise: north and east offsets drawn from a normal-like distribution
  /// with this standard deviation, from `seed` and the epoch time only.
  case noise(standardDeviationMeters: Double, seed: UInt64)
  /// Horizontal position error that wanders slowly: a seeded first-order Gauss–Markov process.
  case gaussMarkovNoise(GaussMarkovNoise)
  /// The corrections the solution claims to use (DGPS, RTK); kept only while there is a fix.
  case correction(Fix.Correction)
  /// The DOPs replaced by these values (the time DOP is kept); only while there is a fix.
  case setDOP(horizontal: Double, vertical: Double, position: Double)
  /// The receiver's clock is off: the time it reports moves by this many nanoseconds, while the
  /// scene is still evaluated at the true time. A GPS week rollover is −1024 weeks
  /// (`weekRolloverNanoseconds`).
  case clockOffset(nanoseconds: Int64)
  /// A cold start at `since`: no fix until `timeToFirstFixNanoseconds` later, the satellites in
  /// view growing from none to all of the sky's over that time, none of them used.
  case coldStart(since: UTCInstant, timeToFirstFixNanoseconds: Int64)

  /// What the GPS week-rollover bug does to the reported time: 1024 weeks early.
  public static let weekRolloverNanoseconds: Int64 = -1024 * 7 * 86_400 * 1_000_000_000
}

/// One thing that goes wrong with the receiver's solution, for a time.
public typealias FixFault = TimedFault<FixFaultKind>

/// The fix faults of a scene.
public typealias FixFaults = TimedFaults<FixFaultKind>

/// The fix faults of a scene, applied in a fixed order whatever the order of the list.
///
/// At each epoch only the faults whose window contains the true epoch time take part, in these
/// stages (several faults of one stage apply in list order):
/// 1. Cold start: the satellites acquired so far are in view, none used, so there is no fix.
/// 2. Satellite loss. The DOPs are computed again from the satellites still used, and the mode
///    can only get worse: 3D needs four used satellites, 2D three, fewer means no fix.
/// 3. DOP values, then 4. DOP scaling.
/// 5. Forced mode. A forced mode can only make the fix worse or keep it, never better than what
///    the satellites used allow (a receiver cannot solve 3D from three satellites). So "no fix"
///    can be forced with every satellite still in view, and 3D with the satellites a scenario
///    chooses by losing the others. Without a fix the DOPs are dropped; the satellites stay.
///    With several forced modes the worst wins.
/// 6. Corrections: the last one given, kept only while there is a fix.
/// 7. Position jumps, then 8. white position noise, then 9. Gauss–Markov noise. Offsets that are
///    not finite are ignored, so the position always stays a valid `GeodeticPosition`.
/// 10. Clock offsets: the reported time moves last, so the windows and the noise follow the
///    true time.
extension TimedFaults where Kind == FixFaultKind {
  /// Applies the faults active at the fix's time to it, in place: most epochs have none, and
  /// a fix handed in and back was copied twice (some 400 bytes each) for nothing.
  public func apply(to fix: inout Fix) {
    let active = active(at: fix.time)
    guard !active.isEmpty else { return }
    let kinds = active.map { $0.kind }
    for case .coldStart(let since, let timeToFirstFix) in kinds {
      Self.coldStart(&fix, since: since, timeToFirstFixNanoseconds: timeToFirstFix)
    }
    let losses = kinds.compactMap { kind -> FixFaultKind.SatelliteLoss? in
      if case .loseSatellites(let loss) = kind { return loss }
      return nil
    }
    if !losses.isEmpty {
      for loss in losses { fix.satellites = Self.satellites(fix.satellites, after: loss) }
      let used = fix.satellitesUsed
      fix.dop = DilutionOfPrecision(directions: used.map { ($0.azimuth, $0.elevation) })
      fix.mode = min(fix.mode, Fix.Mode(satellitesUsedCount: used.count))
    }
    Self.applyDOP(kinds, to: &fix)
    for case .forceMode(let mode) in kinds {
      fix.mode = min(fix.mode, mode, Fix.Mode(satellitesUsedCount: fix.satellitesUsed.count))
    }
    for case .correction(let correction) in kinds { fix.correction = correction }
    if fix.mode == .noFix {
      fix.dop = nil
      fix.correction = .none
    }
    Self.applyPositionErrors(kinds, to: &fix)
    for case .clockOffset(let offset) in kinds {
      fix.time = fix.time.clampedAdding(nanoseconds: offset)
    }
  }

  /// When the receiver last began tracking its satellites again at or before `time` after a
  /// fault cut every signal: the end of the latest loss of all satellites that is over, or the
  /// start of the latest cold start (from which the satellites are found again one by one);
  /// nil when no fault cut them. Stateless, so that any epoch can be computed alone: a fault
  /// forgotten once over (a restart, or the control socket replacing it) no longer counts.
  public func signalsReacquired(by time: UTCInstant) -> UTCInstant? {
    var latest: UTCInstant?
    for fault in faults {
      let reacquired: UTCInstant?
      switch fault.kind {
      case .loseSatellites(.all):
        reacquired = fault.window.until.flatMap { $0 <= time ? $0 : nil }
      case .coldStart(let since, _):
        reacquired = since <= time ? since : nil
      default:
        reacquired = nil
      }
      if let reacquired, latest.map({ $0 < reacquired }) ?? true { latest = reacquired }
    }
    return latest
  }

  /// `time` as the receiver reports it: moved by the clock offsets active then (stage 10).
  public func reportedTime(of time: UTCInstant) -> UTCInstant {
    var reported = time
    for case .clockOffset(let offset) in active(at: time).map({ $0.kind }) {
      reported = reported.clampedAdding(nanoseconds: offset)
    }
    return reported
  }

  /// Stage 1: the sky as a receiver sees it while it searches.
  static func coldStart(_ fix: inout Fix, since: UTCInstant, timeToFirstFixNanoseconds: Int64) {
    guard since <= fix.time, fix.time < since.clampedAdding(nanoseconds: timeToFirstFixNanoseconds)
    else { return }
    let elapsed = fix.time.nanoseconds - since.nanoseconds
    let acquired = Int(
      Double(fix.satellites.count) * Double(elapsed) / Double(timeToFirstFixNanoseconds))
    fix.satellites = fix.satellites.prefix(acquired).map { satellite in
      var satellite = satellite
      satellite.isUsed = false
      return satellite
    }
    fix.mode = .noFix
    fix.dop = nil
  }

  /// Stages 3 and 4: DOP values, then DOP scaling, while there are DOPs.
  static func applyDOP(_ kinds: [FixFaultKind], to fix: inout Fix) {
    for case .setDOP(let horizontal, let vertical, let position) in kinds {
      fix.dop = fix.dop.map {
        DilutionOfPrecision(
          position: position, horizontal: horizontal, vertical: vertical, time: $0.time)
      }
    }
    for case .scaleDOP(let factor) in kinds {
      fix.dop = fix.dop.map {
        DilutionOfPrecision(
          position: $0.position * factor, horizontal: $0.horizontal * factor,
          vertical: $0.vertical * factor, time: $0.time * factor)
      }
    }
  }

  /// Stages 7 to 9: jumps, white noise, Gauss–Markov noise.
  static func applyPositionErrors(_ kinds: [FixFaultKind], to fix: inout Fix) {
    for case .jump(let north, let east, let up) in kinds {
      fix.position = Self.moved(fix.position, northMeters: north, eastMeters: east)
      if up.isFinite { fix.position.altitudeMeters += up }
    }
    for case .noise(let deviation, let seed) in kinds {
      var generator = FaultRandomNumberGenerator(seed: seed, time: fix.time)
      let north = deviation.magnitude * generator.nextStandardNormal()
      let east = deviation.magnitude * generator.nextStandardNormal()
      fix.position = Self.moved(fix.position, northMeters: north, eastMeters: east)
    }
    for case .gaussMarkovNoise(let noise) in kinds {
      let offsets = noise.offsets(at: fix.time)
      fix.position = Self.moved(
        fix.position, northMeters: offsets.northMeters, eastMeters: offsets.eastMeters)
    }
  }

  /// The satellites after a loss, used ones first.
  static func satellites(
    _ satellites: [SatelliteInView], after loss: FixFaultKind.SatelliteLoss
  ) -> [SatelliteInView] {
    var result = satellites
    switch loss {
    case .all:
      return []
    case .keepUsed(let count):
      var kept = 0
      for index in result.indices where result[index].isUsed {
        if kept < count { kept += 1 } else { result[index].isUsed = false }
      }
    case .markUnused(let ids):
      for index in result.indices where ids.contains(result[index].id) {
        result[index].isUsed = false
      }
    }
    return result.filter(\.isUsed) + result.filter { !$0.isUsed }
  }

  /// A position moved by an offset north and east: along the WGS-84 geodesic whose azimuth and
  /// length are the offset's; unchanged for offsets that are not finite.
  static func moved(
    _ position: GeodeticPosition, northMeters: Double, eastMeters: Double
  ) -> GeodeticPosition {
    guard northMeters.isFinite, eastMeters.isFinite else { return position }
    let distance = (northMeters * northMeters + eastMeters * eastMeters).squareRoot()
    guard distance > 0, distance.isFinite else { return position }
    let azimuth = faultArcTangent2(eastMeters, northMeters) * 180 / .pi
    return Geodesic.wgs84.direct(
      from: position, azimuthDegrees: azimuth < 0 ? azimuth + 360 : azimuth,
      distanceMeters: distance
    ).position
  }
}
