import Geodesy
import Simulation

extension RTKRover {
  /// The range error of a DGNSS solution, and of a float one when it starts, meters.
  static let differentialRangeErrorMeters = 0.5
  /// The range error a float solution converges to, meters.
  static let convergedFloatRangeErrorMeters = 0.05
  /// A fixed solution's range error on a zero baseline, meters.
  static let fixedRangeErrorMeters = 0.008
  /// How much the range error grows per meter of baseline (1 ppm).
  static let rangeErrorPerBaselineMeter = 1e-6
  /// How much it grows per second of correction age, meters (3 cm a minute).
  static let rangeErrorPerAgeSecond = 0.0005
  /// A station further than this is not used, meters.
  public static let farthestStationMeters = 1_000_000.0
  /// How long after the newest observations the convergence goes on, seconds: one epoch of a
  /// 1 Hz stream, so that it advances between two arrivals but not once they stop.
  static let convergenceCarrySeconds = 1.0
  /// How far apart a moving base's position and its observations may be and still be of one
  /// epoch, seconds.
  static let epochMatchSeconds = 0.001

  /// `fix` as the rover computes it with the corrections received so far: its correction
  /// level and `corrections` (age, station, range error, baseline); unchanged without a fix,
  /// without a station and its observations within the timeout, or with fewer than four
  /// satellites shared with the station. From a moving base, the position stays as it is and
  /// `movingBaseline` carries the vector from the base at the base's latest epoch, with the
  /// rover's antenna there given by `antennaAt` (its ellipsoidal position at a time; the fix's
  /// own position when nil).
  public func solution(
    for fix: Fix, antennaAt: ((UTCInstant) -> GeodeticPosition)? = nil
  ) -> Fix {
    guard fix.mode != .noFix, let station, let start = run.start, start <= fix.time else {
      return fix
    }
    if let epoch = station.epoch, isOld(epoch, at: fix.time) { return fix }
    let antenna = station.epoch.flatMap { epoch in antennaAt?(epoch) } ?? fix.ellipsoidalPosition
    guard let (level, use, newest) = convergedUse(for: fix, from: station, antenna: antenna)
    else { return fix }
    var corrected = fix
    if let epoch = station.epoch {
      // Older than the other, the base's position or its observations would have been
      // extrapolated by a real rover: it says so (refPosMiss, refObsMiss).
      corrected.movingBaseline = MovingBaseline(
        corrections: use, level: level,
        positionMissed: Self.seconds(from: epoch, to: newest) >= Self.epochMatchSeconds,
        observationsMissed: Self.seconds(from: newest, to: epoch) >= Self.epochMatchSeconds)
    } else {
      corrected.correction = level
      corrected.corrections = use
    }
    return corrected
  }

  /// The correction level and use of the corrections from `station` at the fix's time, with
  /// the rover's antenna at `antenna`; nil without observations within the timeout, with
  /// fewer than four satellites shared, or from a station too far.
  private func convergedUse(for fix: Fix, from station: Station, antenna: GeodeticPosition)
    -> (Fix.Correction, CorrectionUse, newestObservation: UTCInstant)?
  {
    let time = fix.time
    let current = observations.filter {
      $0.value.stationID == station.id && !isOld($0.value.time, at: time)
    }
    guard let newest = current.values.map(\.time).max() else { return nil }
    let shared = fix.satellitesUsed.filter {
      current[$0.constellation]?.satellites.contains($0.id) ?? false
    }
    guard shared.count >= 4 else { return nil }
    let fixable = shared.filter {
      $0.constellation != .glonass || glonassBiasStations.contains(station.id)
    }
    // A moving base's vector is as old as the older of its position and its observations.
    let age = max(0, Self.seconds(from: min(newest, station.epoch ?? newest), to: time))
    let fromRover = LocalTangentFrame(at: antenna).eastNorthUp(of: station.position)
    let baseline =
      (fromRover.east * fromRover.east + fromRover.north * fromRover.north
      + fromRover.up * fromRover.up).squareRoot()
    guard baseline <= Self.farthestStationMeters else { return nil }
    let times = convergence.times(baselineMeters: baseline, run: run.number)
    let elapsed = run.flowingSeconds + min(age, Self.convergenceCarrySeconds)
    let level: Fix.Correction
    var rangeError: Double
    if elapsed < times.float {
      level = .differential
      rangeError = Self.differentialRangeErrorMeters
    } else if elapsed < times.float + times.fixed || !settings.fixesAmbiguities
      || fixable.count < 5 || baseline > RTKConvergence.longestFixedBaselineMeters
      || age > settings.correctionTimeoutSeconds / 2
    {
      level = .rtkFloat
      let progress = min(1, (elapsed - times.float) / max(times.fixed, 1))
      rangeError =
        Self.differentialRangeErrorMeters
        - (Self.differentialRangeErrorMeters - Self.convergedFloatRangeErrorMeters) * progress
    } else {
      level = .rtkFixed
      rangeError = Self.fixedRangeErrorMeters
    }
    rangeError += Self.rangeErrorPerBaselineMeter * baseline + Self.rangeErrorPerAgeSecond * age
    let use = CorrectionUse(
      ageSeconds: age, stationID: station.id, rangeErrorMeters: rangeError,
      north: -fromRover.north, east: -fromRover.east, down: fromRover.up)
    return (level, use, newest)
  }
}

extension RTKConvergence {
  /// The seconds to float and then to fixed of run `run` of corrections, over a baseline: the
  /// means drawn from 0.5 to 1.5 times, then stretched by the baseline.
  func times(baselineMeters: Double, run: Int) -> (float: Double, fixed: Double) {
    var generator = FaultRandomNumberGenerator(
      seed: seed, time: UTCInstant(nanosecondsSinceEpoch: Int64(run)))
    let floatDraw = floatSeconds * (0.5 + generator.nextUnit())
    let fixedDraw = fixedSeconds * (0.5 + generator.nextUnit())
    let tens = baselineMeters / 10_000
    return (floatDraw * (1 + baselineMeters / 20_000), fixedDraw * (1 + tens * tens))
  }
}
