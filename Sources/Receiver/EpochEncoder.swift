import Geodesy
import NMEA
import Simulation

/// Turns a fix into the sentences a receiver sends in one epoch.
///
/// This is the generic NMEA 2.3 receiver: the order of a u-blox 6/7 in its default
/// configuration (RMC, VTG, GGA, GSA, GSV…, GLL, then ZDA), GP talker, 5 decimals of minutes.
///
/// Every field is normalised into the range its sentence allows, whatever the fix holds, so a
/// bad value from a scenario never reaches the wire and never traps:
/// - A value that is not finite (NaN, ±infinity) leaves its field empty. A latitude or longitude
///   that is not finite reports the epoch without a position, as without a fix (status V,
///   quality 0, mode N).
/// - Speed over ground is a magnitude: a negative speed is written as its magnitude with the
///   course turned by 180°, since moving backwards along c is moving forwards along c + 180.
///   Speeds are capped at `maximumSpeedMetersPerSecond`.
/// - Courses and azimuths are rounded to the digits written, then reduced to 0 up to but excluding
///   360 (359.996° is `0.00`, -10° is `350.00`).
/// - Elevations are clamped to 0…90; a satellite below the horizon (elevation below 0) is not in
///   view and is not listed. SNR is clamped to 0…99. A satellite whose ID does not fit the two
///   digits of GSA and GSV (1…99) is not listed either.
/// - DOPs are capped at `maximumDOP`; altitude and geoid separation are clamped to
///   `altitudeRangeMeters` and `geoidSeparationRangeMeters`.
///
/// With these limits and up to 5 digits of minutes every sentence fits in 82 bytes.
public struct EpochEncoder: Sendable {
  /// The sentence types (without talker) in the order they are sent.
  public static let sentenceOrder = ["RMC", "VTG", "GGA", "GSA", "GSV", "GLL", "ZDA"]
  /// The largest DOP written; receivers report 99.99 for anything worse.
  public static let maximumDOP = 99.99
  /// The largest speed written, in meters per second (9719.222 knots, 18000 km/h).
  public static let maximumSpeedMetersPerSecond = 5000.0
  /// The altitudes written, meters: the range a `GeodeticPosition` accepts.
  public static let altitudeRangeMeters = -1000.0...100_000.0
  /// The geoid separations written, meters: what `xxx.x` holds (the real geoid lies within about
  /// ±110 m of the ellipsoid).
  public static let geoidSeparationRangeMeters = -999.9...999.9
  /// The most satellites listed in GSV: nine pages of four, as the one-digit message count allows.
  public static let maximumSatellitesInView = 36

  /// Digits of decimal minutes in latitude and longitude; 5 keeps a round trip within 2e-7°.
  public var minuteDigits = 5
  /// The constellations this receiver tracks.
  ///
  /// Only their satellites are counted in GGA, listed in GSA and shown in GSV, so the three agree.
  /// All are written under the GP talker with their own IDs (GLONASS 65–96), as NMEA 2.3
  /// receivers do.
  public var constellations: Set<Constellation> = [.gps]
  /// The sentence types sent each epoch, without talker (`"GSV"`); a configuration command can
  /// switch them on and off. They are always sent in `sentenceOrder`; other names are ignored.
  public var enabledSentences = Set(EpochEncoder.sentenceOrder)

  /// Creates an encoder.
  public init() {}

  /// The sentences of one epoch, in the order they are sent.
  public func sentences(for fix: Fix) -> [RawSentence] {
    let fields = EpochFields(fix: fix, minuteDigits: minuteDigits)
    let sky = EpochSky(fix: fix, hasFix: fields.hasFix, constellations: constellations)
    var sentences: [RawSentence] = []
    for type in Self.sentenceOrder where enabledSentences.contains(type) {
      switch type {
      case "RMC": sentences.append(rmc(fields).raw)
      case "VTG": sentences.append(vtg(fields).raw)
      case "GGA": sentences.append(gga(fields, sky).raw)
      case "GSA": sentences.append(gsa(fields, sky).raw)
      case "GSV": sentences += gsv(sky).map(\.raw)
      case "GLL": sentences.append(gll(fields).raw)
      case "ZDA": sentences.append(zda(fields).raw)
      default: break
      }
    }
    return sentences
  }

  /// The bytes of one epoch, every sentence ending in CR LF.
  public func bytes(for fix: Fix) -> [UInt8] {
    Array(sentences(for: fix).map(\.line).joined().utf8)
  }

  func rmc(_ f: EpochFields) -> RMC {
    var rmc = RMC()
    rmc.time = f.time
    rmc.status = f.hasFix ? "A" : "V"
    rmc.latitude = f.latitude
    rmc.longitude = f.longitude
    rmc.speedKnots = f.speedKnots
    rmc.course = f.course
    rmc.date = f.date
    rmc.mode = f.modeIndicator
    return rmc
  }

  func vtg(_ f: EpochFields) -> VTG {
    var vtg = VTG()
    vtg.courseTrue = f.course
    vtg.courseTrueUnit = "T"
    vtg.courseMagneticUnit = "M"
    vtg.speedKnots = f.speedKnots
    vtg.speedKnotsUnit = "N"
    vtg.speedKilometersPerHour = f.speedKilometersPerHour
    vtg.speedKilometersPerHourUnit = "K"
    vtg.mode = f.modeIndicator
    return vtg
  }

  func gga(_ f: EpochFields, _ sky: EpochSky) -> GGA {
    var gga = GGA()
    gga.time = f.time
    gga.latitude = f.latitude
    gga.longitude = f.longitude
    gga.quality = NMEADecimal(integer: f.quality)
    gga.satellitesUsed = NMEADecimal(integer: sky.used.count, width: 2)
    gga.hdop = f.hdop
    gga.altitude = f.altitude
    gga.geoidSeparation = f.geoidSeparation
    gga.altitudeUnit = "M"
    gga.geoidSeparationUnit = "M"
    return gga
  }

  func gsa(_ f: EpochFields, _ sky: EpochSky) -> GSA {
    var gsa = GSA()
    gsa.selectionMode = "A"
    gsa.fixType = NMEADecimal(integer: f.mode.rawValue)
    let used = sky.used.prefix(12).map { NMEADecimal(integer: $0.id, width: 2) }
    gsa.satelliteIDs = used + Array(repeating: nil, count: 12 - used.count)
    gsa.pdop = f.pdop
    gsa.hdop = f.hdop
    gsa.vdop = f.vdop
    return gsa
  }

  func gsv(_ sky: EpochSky) -> [GSV] {
    let visible = sky.inView
    let pages = max(1, (visible.count + 3) / 4)
    return (0..<pages).map { page in
      var gsv = GSV()
      gsv.messageCount = NMEADecimal(integer: pages)
      gsv.messageNumber = NMEADecimal(integer: page + 1)
      gsv.satellitesInView = NMEADecimal(integer: visible.count, width: 2)
      gsv.satellites = visible.dropFirst(page * 4).prefix(4).map { satellite in
        GSV.Satellite(
          id: NMEADecimal(integer: satellite.id, width: 2),
          elevation: satellite.elevation.isFinite
            ? NMEADecimal(integer: Int(min(90, satellite.elevation.rounded())), width: 2) : nil,
          azimuth: EpochFields.angle(satellite.azimuth, fractionDigits: 0),
          snr: satellite.snr.map { NMEADecimal(integer: min(99, max(0, $0)), width: 2) })
      }
      return gsv
    }
  }

  func gll(_ f: EpochFields) -> GLL {
    var gll = GLL()
    gll.latitude = f.latitude
    gll.longitude = f.longitude
    gll.time = f.time
    gll.status = f.hasFix ? "A" : "V"
    gll.mode = f.modeIndicator
    return gll
  }

  func zda(_ f: EpochFields) -> ZDA {
    let civil = f.roundedTime.civil
    var zda = ZDA()
    zda.time = f.time
    zda.day = NMEADecimal(integer: civil.day, width: 2)
    zda.month = NMEADecimal(integer: civil.month, width: 2)
    zda.year = NMEADecimal(integer: civil.year, width: 4)
    zda.zoneHours = NMEADecimal(integer: 0, width: 2)
    zda.zoneMinutes = NMEADecimal(integer: 0, width: 2)
    return zda
  }
}

/// The satellites one epoch reports, chosen once so that GGA, GSA and GSV agree.
struct EpochSky {
  /// Satellites of the tracked constellations in view, used ones first: not below the horizon,
  /// with an ID of two digits, at most `EpochEncoder.maximumSatellitesInView`.
  let inView: [SatelliteInView]
  /// The satellites of `inView` used in the fix; none without a fix.
  let used: [SatelliteInView]

  init(fix: Fix, hasFix: Bool, constellations: Set<Constellation>) {
    let tracked = fix.satellites.filter {
      constellations.contains($0.constellation) && (1...99).contains($0.id)
        && !($0.elevation < 0)
    }
    let ordered = tracked.filter(\.isUsed) + tracked.filter { !$0.isUsed }
    inView = Array(ordered.prefix(EpochEncoder.maximumSatellitesInView))
    used = hasFix ? inView.filter(\.isUsed) : []
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
  /// The epoch time rounded to the 10 ms that `hhmmss.ss` shows.
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
  let altitude: NMEADecimal?
  let geoidSeparation: NMEADecimal?
  let hdop: NMEADecimal?
  let pdop: NMEADecimal?
  let vdop: NMEADecimal?

  init(fix: Fix, minuteDigits: Int) {
    self.fix = fix
    hasFix =
      fix.mode != .noFix && fix.position.latitude.isFinite && fix.position.longitude.isFinite
    mode = hasFix ? fix.mode : .noFix
    roundedTime = fix.time.rounded(toMultipleOf: 10_000_000)
    let civil = roundedTime.civil
    time = NMEATime(
      hours: civil.hour, minutes: civil.minute,
      seconds: NMEADecimal(
        scaled: UInt64(civil.second * 100 + civil.nanosecond / 10_000_000), fractionDigits: 2,
        integerDigits: 2))
    date = NMEADate(day: civil.day, month: civil.month, year: civil.year % 100)
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
      NMEADecimal($0 * Self.knotsPerMeterPerSecond, fractionDigits: 3)
    }
    speedKilometersPerHour = speedMagnitude.map { NMEADecimal($0 * 3.6, fractionDigits: 3) }
    let moving = (speedMagnitude ?? 0) > 0
    course =
      moving
      ? Self.angle(speed < 0 ? fix.courseDegrees + 180 : fix.courseDegrees, fractionDigits: 2)
      : nil
    (modeIndicator, quality) = hasFix ? Self.indicators(fix.correction) : ("N", 0)
    altitude =
      hasFix
      ? Self.clamped(
        fix.position.altitudeMeters, to: EpochEncoder.altitudeRangeMeters, fractionDigits: 1)
      : nil
    geoidSeparation =
      hasFix
      ? Self.clamped(
        fix.geoidSeparationMeters, to: EpochEncoder.geoidSeparationRangeMeters, fractionDigits: 1)
      : nil
    hdop = Self.dop(fix.dop?.horizontal)
    pdop = Self.dop(fix.dop?.position)
    vdop = Self.dop(fix.dop?.vertical)
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
    var scale = 1.0
    for _ in 0..<max(0, fractionDigits) { scale *= 10 }
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

  /// A DOP capped at 99.99 as receivers write it; nil when it is absent, negative or not finite.
  static func dop(_ value: Double?) -> NMEADecimal? {
    guard let value, value.isFinite, value >= 0 else { return nil }
    return NMEADecimal(min(value, EpochEncoder.maximumDOP), fractionDigits: 2)
  }
}
