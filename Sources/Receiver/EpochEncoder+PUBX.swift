import NMEA
import Simulation

/// u-blox's proprietary PUBX,00, sent once CFG-MSG F1 00 switches it on or polled by
/// `$PUBX,00`.
extension EpochEncoder {
  /// The digits of minutes PUBX,00 writes: 6, as the receiver description's example
  /// (`4717.113210`) and the chips, where their standard sentences write 5.
  static let pubxMinuteDigits = 6

  /// PUBX,00 from the same fields as the standard sentences: the position (with
  /// `pubxMinuteDigits`), the altitude above the ellipsoid, the accuracies as GST's errors
  /// (`PositionErrors`: horizontal and vertical DOP times the range error), speed in km/h and
  /// course as VTG, the climb as a downward velocity, the DOPs and the satellites used. Without
  /// a fix the position, altitude and accuracies are empty and the status `NF`.
  func pubxPosition(_ f: EpochFields, _ sky: EpochSky) -> PUBXPosition {
    var pubx = PUBXPosition()
    pubx.time = f.time
    if f.hasFix {
      let position = f.fix.position
      pubx.latitude = EpochFields.coordinate(
        position.latitude, axis: .latitude, fractionDigits: Self.pubxMinuteDigits)
      pubx.longitude = EpochFields.coordinate(
        position.longitude, axis: .longitude, fractionDigits: Self.pubxMinuteDigits)
    }
    pubx.navigationStatus = Self.navigationStatus(f)
    let height = f.fix.ellipsoidalPosition.altitudeMeters
    if f.hasFix, height.isFinite {
      let range = dialect.altitudeRangeMeters
      let clamped = min(max(height, range.lowerBound), range.upperBound)
      pubx.ellipsoidalAltitude = NMEADecimal(clamped, fractionDigits: 3)
    }
    if let errors = PositionErrors(f, dialect: dialect) {
      pubx.horizontalAccuracy = errors.meters(errors.dop.horizontal)
      pubx.verticalAccuracy = errors.altitude
      pubx.tdop = EpochFields.dop(errors.dop.time, fractionDigits: dialect.dopFractionDigits)
    }
    pubx.speedKilometersPerHour = f.speedKilometersPerHour
    pubx.course = f.course
    let climb = f.fix.climbMetersPerSecond
    if f.hasFix, climb.isFinite {
      let limit = EpochEncoder.maximumSpeedMetersPerSecond
      // 0 minus: a climb of 0 is written 0.000, not -0.000.
      pubx.verticalVelocity = NMEADecimal(0 - min(max(climb, -limit), limit), fractionDigits: 3)
    }
    pubx.differentialAge = f.correctionAge
    pubx.hdop = f.hdop
    pubx.vdop = f.vdop
    pubx.satellitesUsed = NMEADecimal(integer: sky.used.count)
    pubx.reserved = NMEADecimal(integer: 0)
    pubx.deadReckoning = NMEADecimal(integer: 0)
    return pubx
  }

  /// PUBX,00's navigation status: `NF` without a fix, `RK` with RTK corrections, else `D` with
  /// differential corrections or `G`, then the dimension.
  static func navigationStatus(_ f: EpochFields) -> String {
    guard f.hasFix, f.mode != .noFix else { return "NF" }
    let dimension = f.mode == .twoDimensional ? "2" : "3"
    switch f.fix.correction {
    case .none: return "G" + dimension
    case .differential: return "D" + dimension
    case .rtkFloat, .rtkFixed: return "RK"
    }
  }
}

/// u-blox's proprietary PUBX,04, sent once CFG-MSG F1 04 switches it on or polled by
/// `$PUBX,04`.
extension EpochEncoder {
  /// PUBX,04 of the fix's time as RMC writes it: the UTC week and time of week counted from the
  /// GPS epoch on UTC's scale (the leap seconds left out, so the time of week is the day of the
  /// week and the time of day), the leap seconds of `GPSTime` without the default's `D`, as
  /// NAV-TIMEGPS says they are valid, and the clock NAV-CLOCK reports at the same second. No
  /// time pulse is modelled: its granularity is 0.
  func pubxTime(_ f: EpochFields) -> PUBXTime {
    var pubx = PUBXTime()
    pubx.time = f.time
    pubx.date = f.date
    let sinceEpoch = max(0, f.roundedTime.nanoseconds(since: GPSTime.epoch))
    let week = sinceEpoch / Self.nanosecondsPerWeek
    let ofWeek = sinceEpoch % Self.nanosecondsPerWeek
    pubx.utcTimeOfWeek = NMEADecimal(
      scaled: UInt64(ofWeek / (UTCInstant.nanosecondsPerSecond / 100)), fractionDigits: 2)
    pubx.utcWeek = NMEADecimal(integer: Int(week))
    let gps = GPSTime(f.roundedTime)
    pubx.leapSeconds = String(gps.leapSeconds)
    pubx.clockBias = NMEADecimal(
      integer: Int(
        UBXNavigationEncoder.clockBiasNanoseconds(nanosecondsOfWeek: gps.nanosecondsOfWeek)))
    pubx.clockDrift = NMEADecimal(
      Double(UBXNavigationEncoder.clockDriftNanosecondsPerSecond), fractionDigits: 3)
    pubx.timePulseGranularity = NMEADecimal(integer: 0)
    return pubx
  }

  /// Nanoseconds in a week.
  static let nanosecondsPerWeek = 7 * UTCInstant.nanosecondsPerDay
}

/// u-blox's proprietary PUBX,03, sent once CFG-MSG F1 03 switches it on or polled by
/// `$PUBX,03`.
extension EpochEncoder {
  /// PUBX,03 of the satellites GSV lists that are tracked (with a C/N0), numbered as NAV-SVINFO
  /// and the chips' captures number them (`UBXSatellite.singleNumber`: GPS 1–32, BeiDou 33–64
  /// and 159–163, GLONASS 65–96, SBAS 120–158, Galileo 211–246; the description's SBAS 33–64
  /// would collide with BeiDou). `U` for a satellite used in the fix, `e` for one tracked but
  /// not used (the emulated chip has every ephemeris); the lock time is the 64 s the field
  /// saturates at, as the chip counts as started long before (see NAV-STATUS's `msss`), so the
  /// line changes with the sky alone.
  func pubxSatelliteStatus(_ f: EpochFields, _ sky: EpochSky) -> PUBXSatelliteStatus {
    var pubx = PUBXSatelliteStatus()
    pubx.satellites = sky.inView.compactMap { listed in
      let satellite = UBXNavigationEncoder.satellite(listed.satellite, hasFix: f.hasFix)
      guard listed.satellite.snr != nil, let number = satellite.singleNumber else { return nil }
      return PUBXSatelliteStatus.Satellite(
        number: Int(number), status: satellite.isUsed ? "U" : "e",
        azimuth: Int(satellite.azimuthDegrees.rounded()) % 360,
        elevation: Int(satellite.elevationDegrees.rounded()),
        carrierToNoise: satellite.carrierToNoise, lockSeconds: 64)
    }
    return pubx
  }
}
