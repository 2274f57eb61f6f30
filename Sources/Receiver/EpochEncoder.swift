import Geodesy
import NMEA
import Simulation

/// Turns a fix into the sentences a receiver sends in one epoch.
///
/// This is the generic NMEA 2.3 receiver: the order of a u-blox 6/7 in its default
/// configuration (RMC, VTG, GGA, GSA, GSV…, GLL, then ZDA), GP talker, 5 decimals of minutes.
public struct EpochEncoder: Sendable {
  /// Digits of decimal minutes in latitude and longitude; 5 keeps a round trip within 2e-7°.
  public var minuteDigits = 5

  /// Creates an encoder.
  public init() {}

  /// The sentences of one epoch, in the order they are sent.
  public func sentences(for fix: Fix) -> [RawSentence] {
    let fields = EpochFields(fix: fix, minuteDigits: minuteDigits)
    return [rmc(fields).raw, vtg(fields).raw, gga(fields).raw, gsa(fix, fields).raw]
      + gsv(fix).map(\.raw) + [gll(fields).raw, zda(fix, fields).raw]
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

  func gga(_ f: EpochFields) -> GGA {
    var gga = GGA()
    gga.time = f.time
    gga.latitude = f.latitude
    gga.longitude = f.longitude
    gga.quality = NMEADecimal(integer: f.hasFix ? 1 : 0)
    gga.satellitesUsed = NMEADecimal(integer: f.satellitesUsed, width: 2)
    gga.hdop = f.hdop
    if f.hasFix {
      gga.altitude = NMEADecimal(f.fix.position.altitudeMeters, fractionDigits: 1)
      gga.geoidSeparation = NMEADecimal(f.fix.geoidSeparationMeters, fractionDigits: 1)
    }
    gga.altitudeUnit = "M"
    gga.geoidSeparationUnit = "M"
    return gga
  }

  func gsa(_ fix: Fix, _ f: EpochFields) -> GSA {
    var gsa = GSA()
    gsa.selectionMode = "A"
    gsa.fixType = NMEADecimal(integer: fix.mode.rawValue)
    let used =
      f.hasFix ? fix.satellitesUsed.prefix(12).map { NMEADecimal(integer: $0.id, width: 2) } : []
    gsa.satelliteIDs = used + Array(repeating: nil, count: 12 - used.count)
    gsa.pdop = f.dop { $0.position }
    gsa.hdop = f.hdop
    gsa.vdop = f.dop { $0.vertical }
    return gsa
  }

  func gsv(_ fix: Fix) -> [GSV] {
    let visible = fix.satellites.filter { $0.constellation == .gps }
    let pages = max(1, (visible.count + 3) / 4)
    return (0..<pages).map { page in
      var gsv = GSV()
      gsv.messageCount = NMEADecimal(integer: pages)
      gsv.messageNumber = NMEADecimal(integer: page + 1)
      gsv.satellitesInView = NMEADecimal(integer: visible.count, width: 2)
      gsv.satellites = visible.dropFirst(page * 4).prefix(4).map { satellite in
        GSV.Satellite(
          id: NMEADecimal(integer: satellite.id, width: 2),
          elevation: NMEADecimal(integer: Int(satellite.elevation.rounded()), width: 2),
          azimuth: NMEADecimal(integer: Int(satellite.azimuth.rounded()) % 360, width: 3),
          snr: satellite.snr.map { NMEADecimal(integer: $0, width: 2) })
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

  func zda(_ fix: Fix, _ f: EpochFields) -> ZDA {
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

/// The field values shared by several sentences of one epoch, computed once.
struct EpochFields {
  static let knotsPerMeterPerSecond = 3600.0 / 1852.0

  let fix: Fix
  let hasFix: Bool
  /// The epoch time rounded to the 10 ms that `hhmmss.ss` shows.
  let roundedTime: UTCInstant
  let time: NMEATime
  let date: NMEADate
  let latitude: NMEACoordinate?
  let longitude: NMEACoordinate?
  let speedKnots: NMEADecimal?
  let speedKilometersPerHour: NMEADecimal?
  let course: NMEADecimal?
  let modeIndicator: String
  let satellitesUsed: Int
  let hdop: NMEADecimal?

  init(fix: Fix, minuteDigits: Int) {
    self.fix = fix
    hasFix = fix.mode != .noFix
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
      ? NMEACoordinate(
        degrees: fix.position.latitude, axis: .latitude, fractionDigits: minuteDigits)
      : nil
    longitude =
      hasFix
      ? NMEACoordinate(
        degrees: fix.position.longitude, axis: .longitude, fractionDigits: minuteDigits)
      : nil
    let moving = fix.speedMetersPerSecond > 0
    speedKnots =
      hasFix
      ? NMEADecimal(fix.speedMetersPerSecond * Self.knotsPerMeterPerSecond, fractionDigits: 3)
      : nil
    speedKilometersPerHour =
      hasFix
      ? NMEADecimal(fix.speedMetersPerSecond * 3.6, fractionDigits: 3) : nil
    course = hasFix && moving ? NMEADecimal(fix.courseDegrees, fractionDigits: 2) : nil
    modeIndicator = hasFix ? "A" : "N"
    satellitesUsed = hasFix ? fix.satellitesUsed.count : 0
    hdop = fix.dop.map { NMEADecimal($0.horizontal, fractionDigits: 2) }
  }

  func dop(_ value: (DilutionOfPrecision) -> Double) -> NMEADecimal? {
    fix.dop.map { NMEADecimal(value($0), fractionDigits: 2) }
  }
}
