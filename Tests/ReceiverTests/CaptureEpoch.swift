import Geodesy
import NMEA
import Simulation

/// The fix a real receiver reported in one epoch of a capture, rebuilt from its sentences so
/// that an encoder can write the same fix in its dialect.
enum CaptureEpoch {
  struct Unusable: Error, CustomStringConvertible {
    let description: String
  }

  /// The fix of an epoch: position, altitude and separation from GGA, date, speed and course
  /// from RMC (the date from `fallbackDate` when the epoch has no RMC), mode, DOPs and used
  /// satellites from GSA, satellites from GSV (each listed once, whatever its signals).
  static func fix(_ epoch: [RawSentence], fallbackDate: NMEADate? = nil) throws -> Fix {
    guard let ggaRaw = epoch.first(where: { $0.type == "GGA" }) else {
      throw Unusable(description: "epoch without GGA")
    }
    let gga = try GGA(ggaRaw)
    let rmc = try epoch.first { $0.type == "RMC" }.map { try RMC($0) }
    guard let time = gga.time, let date = rmc?.date ?? fallbackDate,
      let latitude = gga.latitude, let longitude = gga.longitude
    else { throw Unusable(description: "GGA or RMC without time, date or position") }
    let gsas = try epoch.filter { $0.type == "GSA" }.map { try GSA($0) }
    let used = Set(
      gsas.flatMap { gsa in
        gsa.satelliteIDs.compactMap { slot -> String? in
          guard let number = slot?.integerValue,
            let (system, id) = systemAndID(gsaSystem: gsa.systemID?.integerValue, number: number)
          else { return nil }
          return "\(system)\(id)"
        }
      })
    var satellites: [SatelliteInView] = []
    var seen = Set<String>()
    for raw in epoch where raw.type == "GSV" {
      for entry in try GSV(raw).satellites {
        guard let number = entry.id?.integerValue,
          let (system, id) = systemAndID(talker: raw.talker, number: number),
          seen.insert("\(system)\(id)").inserted
        else { continue }
        satellites.append(
          SatelliteInView(
            constellation: system, id: id, elevation: entry.elevation?.doubleValue ?? .nan,
            azimuth: entry.azimuth?.doubleValue ?? .nan, snr: entry.snr?.integerValue,
            isUsed: used.contains("\(system)\(id)")))
      }
    }
    let seconds = time.seconds.doubleValue
    let instant = UTCInstant(
      year: 2000 + date.year, month: date.month, day: date.day, hour: time.hours,
      minute: time.minutes, second: Int(seconds),
      nanosecond: Int(((seconds - seconds.rounded(.down)) * 1e9).rounded()))
    let gsa = gsas.first
    // Without GSA (an epoch between two GSAs), PDOP and VDOP are unknown: HDOP from GGA.
    let hdop = gsa?.hdop?.doubleValue ?? gga.hdop?.doubleValue
    let dop = hdop.map { h in
      DilutionOfPrecision(
        position: gsa?.pdop?.doubleValue ?? h, horizontal: h,
        vertical: gsa?.vdop?.doubleValue ?? h, time: 1)
    }
    let mode = Fix.Mode(rawValue: gsa?.fixType?.integerValue ?? 3) ?? .threeDimensional
    return Fix(
      time: instant, mode: mode,
      position: try GeodeticPosition(
        latitude: latitude.degreesValue, longitude: longitude.degreesValue,
        altitudeMeters: gga.altitude?.doubleValue ?? 0),
      geoidSeparationMeters: gga.geoidSeparation?.doubleValue ?? 0,
      speedMetersPerSecond: (rmc?.speedKnots?.doubleValue ?? 0) * 1852 / 3600,
      courseDegrees: rmc?.course?.doubleValue ?? 0, satellites: satellites, dop: dop)
  }

  /// The system and number within it of a GSA slot: by the GSA's NMEA 4.10 system ID, else by
  /// the number's range (GPS 1–32, GLONASS 65–96).
  static func systemAndID(gsaSystem: Int?, number: Int) -> (Constellation, Int)? {
    switch gsaSystem {
    case 2?: return (.glonass, number - 64)
    case 3?: return (.galileo, number)
    case 4?: return (.beidou, number)
    default: return systemAndID(talker: "GP", number: number)
    }
  }

  /// The system and number within it of a GSV entry: GP lists GPS 1–32 and GLONASS 65–96 (NMEA
  /// 2.3 style), GL GLONASS 65–96, GA Galileo, GB and BD BeiDou.
  static func systemAndID(talker: String, number: Int) -> (Constellation, Int)? {
    switch talker {
    case "GP" where (1...32).contains(number): return (.gps, number)
    case "GP" where (65...96).contains(number), "GL" where (65...96).contains(number):
      return (.glonass, number - 64)
    case "GA": return (.galileo, number)
    case "GB", "BD": return (.beidou, number)
    default: return nil
    }
  }
}
