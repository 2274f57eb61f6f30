import Geodesy
import NMEA
import Simulation

/// One satellite as a dialect writes it: the satellite and its NMEA number.
struct ListedSatellite {
  let satellite: SatelliteInView
  let number: Int
}

/// The satellites one epoch reports, chosen once so that GGA, GSA and GSV agree.
struct EpochSky {
  /// Satellites of the tracked constellations in view, used ones first: not below the horizon,
  /// with a number the dialect can write, at most `EpochEncoder.maximumSatellitesInView` per
  /// GSV group (all systems under GP in NMEA 2.3, each system under its own talker after).
  let inView: [ListedSatellite]
  /// The satellites of `inView` used in the fix; none without a fix.
  let used: [ListedSatellite]
  /// The NMEA groups of the systems tracked, in NMEA system ID order: each system's own, SBAS
  /// GPS's (`Constellation.listedWith`).
  let systems: [Constellation]
  /// True when each system has its own GSV group.
  let groupsBySystem: Bool

  init(fix: Fix, hasFix: Bool, constellations: Set<Constellation>, dialect: NMEADialect) {
    // Read off the set's few members rather than looked up (a lookup hashes), as bits: no
    // array an epoch for them, nor for their groups.
    var tracked = 0
    for constellation in constellations { tracked |= constellation.bit }
    systems = Self.systemsByTracked[tracked]
    groupsBySystem = dialect.combinedTalker != nil
    var ordered: [ListedSatellite] = []
    ordered.reserveCapacity(fix.satellites.count)
    for used in [true, false] {
      for satellite in fix.satellites
      where satellite.isUsed == used && tracked & satellite.constellation.bit != 0
        && !(satellite.elevation < 0)
      {
        guard let number = dialect.nmeaNumber(satellite) else { continue }
        ordered.append(ListedSatellite(satellite: satellite, number: number))
      }
    }
    if groupsBySystem {
      var inView: [ListedSatellite] = []
      inView.reserveCapacity(ordered.count)
      for system in systems {
        let start = inView.endIndex
        for listed in ordered where listed.satellite.constellation.listedWith == system {
          guard inView.count - start < EpochEncoder.maximumSatellitesInView else { break }
          inView.append(listed)
        }
        if dialect.gsvByNumber { inView[start...].sort { $0.number < $1.number } }
      }
      self.inView = inView
    } else {
      ordered.removeLast(max(0, ordered.count - EpochEncoder.maximumSatellitesInView))
      inView = ordered
    }
    var used: [ListedSatellite] = []
    if hasFix {
      used.reserveCapacity(inView.count)
      for listed in inView where listed.satellite.isUsed { used.append(listed) }
    }
    self.used = used
  }

  /// The NMEA groups (`systems`) of each set of tracked constellations, by its bits: made once,
  /// so that an epoch takes its array without allocating one.
  private static let systemsByTracked: [[Constellation]] = (0..<1 << Constellation.allCases.count)
    .map { tracked in
      Constellation.allCases.filter { system in
        Constellation.allCases.contains { tracked & $0.bit != 0 && $0.listedWith == system }
      }
    }

  /// The satellites of one group of `systems` in `inView`.
  func inView(of system: Constellation) -> [ListedSatellite] {
    inView.filter { $0.satellite.constellation.listedWith == system }
  }

  /// The satellites of one group of `systems` in `used`.
  func used(of system: Constellation) -> [ListedSatellite] {
    used.filter { $0.satellite.constellation.listedWith == system }
  }
}

/// The field values shared by several sentences of one epoch, computed once and normalised into
/// the ranges the sentences allow.
struct EpochFields {
  static let knotsPerMeterPerSecond = 3600.0 / 1852.0

  let fix: Fix
  /// False without a fix and when the position is not a finite number.
  let hasFix: Bool
  /// The mode GSA reports: the fix's, or no fix when `hasFix` is false.
  let mode: Fix.Mode
  /// The epoch time rounded to the digits that the time field shows.
  let roundedTime: UTCInstant
  let time: NMEATime
  let date: NMEADate
  let latitude: NMEACoordinate?
  let longitude: NMEACoordinate?
  let speedKnots: NMEADecimal?
  let speedKilometersPerHour: NMEADecimal?
  let course: NMEADecimal?
  /// The mode indicator of RMC, GLL and VTG: N without a fix, else A, D, F or R by correction.
  let modeIndicator: String
  /// GGA's quality: 0 without a fix, else 1, 2, 5 or 4 by correction.
  let quality: Int
  /// The age of the corrections used (GGA and GNS), seconds, and their station (4 digits).
  let correctionAge: NMEADecimal?
  let correctionStation: String?
  let altitude: NMEADecimal?
  let geoidSeparation: NMEADecimal?
  let hdop: NMEADecimal?
  let pdop: NMEADecimal?
  let vdop: NMEADecimal?

  init(fix: Fix, dialect: NMEADialect) {
    self.fix = fix
    let minuteDigits = dialect.minuteDigits
    hasFix =
      fix.mode != .noFix && fix.position.latitude.isFinite && fix.position.longitude.isFinite
    mode = hasFix ? fix.mode : .noFix
    (roundedTime, time, date) = Self.timeAndDate(of: fix.time, dialect: dialect)
    latitude =
      hasFix
      ? Self.coordinate(fix.position.latitude, axis: .latitude, fractionDigits: minuteDigits)
      : nil
    longitude =
      hasFix
      ? Self.coordinate(fix.position.longitude, axis: .longitude, fractionDigits: minuteDigits)
      : nil
    // Speed over ground is a magnitude: moving backwards along c is moving forwards along c + 180.
    let speed = fix.speedMetersPerSecond
    let speedMagnitude =
      hasFix && speed.isFinite
      ? min(speed.magnitude, EpochEncoder.maximumSpeedMetersPerSecond) : nil
    speedKnots = speedMagnitude.map {
      NMEADecimal($0 * Self.knotsPerMeterPerSecond, fractionDigits: dialect.knotsFractionDigits)
    }
    speedKilometersPerHour = speedMagnitude.map {
      NMEADecimal($0 * 3.6, fractionDigits: dialect.kilometersPerHourFractionDigits)
    }
    let moving: Bool
    if let minimum = dialect.courseMinimumSpeed {
      moving = (speedMagnitude ?? 0) > minimum
    } else {
      moving = hasFix && speed.isFinite
    }
    course =
      moving
      ? Self.angle(speed < 0 ? fix.courseDegrees + 180 : fix.courseDegrees, fractionDigits: 2)
      : nil
    (modeIndicator, quality) = hasFix ? Self.indicators(fix.correction) : ("N", 0)
    let corrections = hasFix ? fix.corrections : nil
    correctionAge = corrections.map { NMEADecimal(min($0.ageSeconds, 999.9), fractionDigits: 1) }
    correctionStation = corrections.map { Self.stationText($0.stationID) }
    altitude =
      hasFix
      ? Self.clamped(
        fix.position.altitudeMeters, to: dialect.altitudeRangeMeters,
        fractionDigits: dialect.altitudeFractionDigits)
      : nil
    geoidSeparation =
      hasFix
      ? Self.clamped(
        fix.geoidSeparationMeters, to: EpochEncoder.geoidSeparationRangeMeters,
        fractionDigits: dialect.altitudeFractionDigits)
      : nil
    hdop = Self.dop(fix.dop?.horizontal, fractionDigits: dialect.dopFractionDigits)
    pdop = Self.dop(fix.dop?.position, fractionDigits: dialect.dopFractionDigits)
    vdop = Self.dop(fix.dop?.vertical, fractionDigits: dialect.dopFractionDigits)
  }

  /// An instant rounded to the digits of the dialect's time field, and its time and date as
  /// the sentences write them.
  static func timeAndDate(of instant: UTCInstant, dialect: NMEADialect) -> (
    rounded: UTCInstant, time: NMEATime, date: NMEADate
  ) {
    let timeDigits = max(0, min(9, dialect.timeFractionDigits))
    var timeStep = 1
    for _ in timeDigits..<9 { timeStep *= 10 }
    let rounded = instant.rounded(toMultipleOf: Int64(timeStep))
    let civil = rounded.civil
    var secondScale = 1
    for _ in 0..<timeDigits { secondScale *= 10 }
    let time = NMEATime(
      hours: civil.hour, minutes: civil.minute,
      seconds: NMEADecimal(
        scaled: UInt64(civil.second * secondScale + civil.nanosecond / timeStep),
        fractionDigits: timeDigits > 0 ? timeDigits : nil, integerDigits: 2))
    return (rounded, time, NMEADate(day: civil.day, month: civil.month, year: civil.year % 100))
  }

  /// The mode indicator and GGA quality of a fix with these corrections (NMEA 2.3; gpsd's
  /// `NMEA.adoc`).
  static func indicators(_ correction: Fix.Correction) -> (mode: String, quality: Int) {
    switch correction {
    case .none: return ("A", 1)
    case .differential: return ("D", 2)
    case .rtkFloat: return ("F", 5)
    case .rtkFixed: return ("R", 4)
    }
  }

  /// A station ID as GGA writes it: four digits, `0000`–`4095`.
  static func stationText(_ id: Int) -> String {
    let digits = String(max(0, min(id, 4095)))
    return String(repeating: "0", count: 4 - digits.count) + digits
  }

  /// A coordinate whose text is zero is written with the positive hemisphere, never as `-0`.
  static func coordinate(
    _ degrees: Double, axis: NMEACoordinate.Axis, fractionDigits: Int
  ) -> NMEACoordinate {
    var coordinate = NMEACoordinate(degrees: degrees, axis: axis, fractionDigits: fractionDigits)
    if coordinate.degrees == 0 && coordinate.minutes.scaled == 0 {
      coordinate.hemisphere = axis.hemispheres.positive
    }
    return coordinate
  }

  /// An angle in degrees rounded to `fractionDigits`, then reduced to 0 up to but excluding 360;
  /// nil when it is not finite.
  ///
  /// Rounding comes first, so 359.996 at 2 digits is 0.00, never 360.00.
  static func angle(_ degrees: Double, fractionDigits: Int) -> NMEADecimal? {
    guard degrees.isFinite else { return nil }
    let scale = NMEADecimal.powerOfTen(fractionDigits)
    let fullCircle = 360 * scale
    // Reducing first is exact and keeps the scaled value small enough to round.
    var scaled = (degrees.truncatingRemainder(dividingBy: 360) * scale).rounded()
      .truncatingRemainder(dividingBy: fullCircle)
    if scaled < 0 { scaled += fullCircle }
    return NMEADecimal(
      scaled: UInt64(scaled), fractionDigits: fractionDigits > 0 ? fractionDigits : nil,
      integerDigits: fractionDigits > 0 ? 1 : 3)
  }

  /// A value clamped into `range`; nil when it is not finite.
  static func clamped(
    _ value: Double, to range: ClosedRange<Double>, fractionDigits: Int
  ) -> NMEADecimal? {
    guard value.isFinite else { return nil }
    return NMEADecimal(
      min(range.upperBound, max(range.lowerBound, value)), fractionDigits: fractionDigits)
  }

  /// A DOP capped at 99.99 (99.9 with one decimal) as receivers write it; nil when it is absent,
  /// negative or not finite.
  static func dop(_ value: Double?, fractionDigits: Int) -> NMEADecimal? {
    guard let value, value.isFinite, value >= 0 else { return nil }
    let cap =
      fractionDigits >= 2
      ? EpochEncoder.maximumDOP : 100 - 1 / NMEADecimal.powerOfTen(fractionDigits)
    return NMEADecimal(min(value, cap), fractionDigits: fractionDigits)
  }
}

extension Constellation {
  /// Its bit in a set of constellations as bits (`EpochSky`), by its place among all.
  fileprivate var bit: Int {
    switch self {
    case .gps: 1
    case .glonass: 1 << 1
    case .galileo: 1 << 2
    case .beidou: 1 << 3
    case .sbas: 1 << 4
    }
  }
}
