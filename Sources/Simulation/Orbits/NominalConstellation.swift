/// The built-in constellations used when no almanac is given: each system's real planes and
/// slots on circular orbits. Nodal regression (a few hundredths of a degree a day) is left out,
/// so each ground track repeats exactly.
public enum NominalConstellation {
  /// The satellites of `constellation` (none of SBAS: geostationary, `SBASSatellite` places
  /// them).
  public static func satellites(of constellation: Constellation) -> [OrbitingSatellite] {
    switch constellation {
    case .gps: return gps
    case .glonass: return glonass
    case .galileo: return galileo
    case .beidou: return beidou
    case .sbas: return []
    }
  }

  static let degree = Double.pi / 180
  static let earthEquatorialRadiusMeters = 6_378_137.0

  /// GPS: the baseline 24-slot constellation of the GPS SPS Performance Standard (4th edition,
  /// 2008, Table 3.1-1; the same values as Table 3-1 of the 2001 edition): six planes at 55°,
  /// semi-major axis 26,559.7 km, RAAN and argument of latitude of each slot at the epoch
  /// 1993-07-01 00:00 UTC, when the Greenwich hour angle was 18 h 36 min 14.4 s. The PRN of
  /// each slot is illustrative: real assignments change with every launch.
  static let gps: [OrbitingSatellite] = {
    let planeRightAscensions = [272.847, 332.847, 32.847, 92.847, 152.847, 212.847]
    let argumentsOfLatitude = [
      [268.126, 161.786, 11.676, 41.806], [80.956, 173.336, 309.976, 204.376],
      [111.876, 11.796, 339.666, 241.556], [135.226, 265.446, 35.156, 167.356],
      [197.046, 302.596, 66.066, 333.686], [238.886, 345.226, 105.206, 135.346],
    ]
    let prns = [
      [31, 30, 7, 24], [12, 25, 16, 26], [29, 3, 19, 17], [2, 6, 1, 21], [20, 22, 5, 10],
      [32, 9, 13, 15],
    ]
    let greenwichHourAngle = (18.0 + 36.0 / 60 + 14.4 / 3600) * 15
    let epoch = GPSTime(UTCInstant(year: 1993, month: 7, day: 1, hour: 0, minute: 0, second: 0))
    return planeRightAscensions.indices.flatMap { plane in
      argumentsOfLatitude[plane].indices.map { slot in
        OrbitingSatellite(
          constellation: .gps, id: prns[plane][slot], isHealthy: true,
          orbit: circularOrbit(
            semiMajorAxisMeters: 26_559_700, inclinationDegrees: 55,
            nodeLongitudeDegrees: planeRightAscensions[plane] - greenwichHourAngle,
            argumentOfLatitudeDegrees: argumentsOfLatitude[plane][slot], at: epoch))
      }
    }
  }()

  /// GLONASS: three planes 120° apart at 64.8°, 19,100 km up, eight slots 45° apart in each,
  /// the planes shifted 15° in argument of latitude (a Walker 24/3/1, GLONASS ICD 5.1, 3.1).
  /// Slots 1–8 are plane 1, 9–16 plane 2, 17–24 plane 3, numbered against the direction of
  /// motion as GLONASS does.
  static let glonass = walker(
    .glonass, ids: Array(1...24), inclinationDegrees: 64.8, altitudeMeters: 19_100_000,
    slotsNumberedBackwards: true)

  /// Galileo: Walker 24/3/1 at 56°, 23,222 km up (Galileo OS SIS ICD, 2.1 and the nominal
  /// constellation of the OS SDD). IDs are those of satellites in service in 2022.
  static let galileo = walker(
    .galileo,
    ids: [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15, 19, 21, 24, 25, 26, 27, 30, 31, 33, 34, 36],
    inclinationDegrees: 56, altitudeMeters: 23_222_000)

  /// BeiDou-3 MEO: Walker 24/3/1 at 55°, 21,528 km up (BDS-OS-ICD B1C 3.1); IDs are the MEO
  /// PRNs C19–C30, C32–C37, C41–C46. The GEO and IGSO satellites are left out.
  static let beidou = walker(
    .beidou, ids: Array(19...30) + Array(32...37) + Array(41...46), inclinationDegrees: 55,
    altitudeMeters: 21_528_000)

  /// The reference epoch of the Walker constellations, whose orientation no document fixes.
  static let walkerEpoch = GPSTime(
    UTCInstant(year: 2020, month: 1, day: 1, hour: 0, minute: 0, second: 0))

  /// A Walker t/p/1 constellation with t = ids.count and p = 3.
  static func walker(
    _ constellation: Constellation, ids: [Int], inclinationDegrees: Double,
    altitudeMeters: Double, slotsNumberedBackwards: Bool = false
  ) -> [OrbitingSatellite] {
    let planes = 3
    let perPlane = ids.count / planes
    let slotSpacing = 360 / Double(perPlane)
    let planePhase = 360 / Double(ids.count)
    let direction = slotsNumberedBackwards ? -1.0 : 1.0
    return ids.indices.map { index in
      let plane = index / perPlane
      let slot = index % perPlane
      return OrbitingSatellite(
        constellation: constellation, id: ids[index], isHealthy: true,
        orbit: circularOrbit(
          semiMajorAxisMeters: earthEquatorialRadiusMeters + altitudeMeters,
          inclinationDegrees: inclinationDegrees,
          nodeLongitudeDegrees: Double(plane) * 120 + Double(constellation.systemID) * 10,
          argumentOfLatitudeDegrees: direction * Double(slot) * slotSpacing + Double(plane)
            * planePhase,
          at: walkerEpoch))
    }
  }

  /// A circular orbit whose node is at `nodeLongitudeDegrees` (east of Greenwich) and whose
  /// satellite is `argumentOfLatitudeDegrees` past it at `epoch`.
  static func circularOrbit(
    semiMajorAxisMeters: Double, inclinationDegrees: Double, nodeLongitudeDegrees: Double,
    argumentOfLatitudeDegrees: Double, at epoch: GPSTime
  ) -> KeplerianOrbit {
    let secondsOfWeek = epoch.secondsOfWeek
    return KeplerianOrbit(
      semiMajorAxisMeters: semiMajorAxisMeters, eccentricity: 0,
      inclinationRadians: inclinationDegrees * degree,
      rightAscensionAtWeekRadians: nodeLongitudeDegrees * degree
        + KeplerianOrbit.earthRotationRate * secondsOfWeek,
      rateOfRightAscensionRadiansPerSecond: 0, argumentOfPerigeeRadians: 0,
      meanAnomalyRadians: argumentOfLatitudeDegrees * degree,
      referenceSecondsOfWeek: secondsOfWeek, referenceWeek: epoch.week)
  }
}
