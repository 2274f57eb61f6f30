import Foundation
import Geodesy
import Simulation
import TestFixtures
import Testing

/// The almanac orbits against RTKLIB's, and the week resolved from its value modulo 1024.
@Suite struct AlmanacOrbitTests {
  /// The fixture almanac, read by a tiny YUMA parser of the test's own (the real reader is
  /// `AlmanacFile`, written elsewhere).
  static func fixtureAlmanac() throws -> [AlmanacEntry] {
    let url = Fixtures.almanacDirectory.appendingPathComponent(
      "almanac.yuma.week0149.405504.txt")
    let text = try String(contentsOf: url, encoding: .utf8)
    return try text.components(separatedBy: "********").compactMap { block in
      var fields: [String: Double] = [:]
      for line in block.split(separator: "\n") {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let value = Double(parts[1].trimmingCharacters(in: .whitespaces))
        else { continue }
        fields[parts[0].trimmingCharacters(in: .whitespaces)] = value
      }
      guard let id = fields["ID"] else { return nil }
      func field(_ name: String) throws -> Double {
        try #require(fields[name], "PRN \(id) has no \(name)")
      }
      return AlmanacEntry(
        prn: Int(id), health: Int(try field("Health")), eccentricity: try field("Eccentricity"),
        timeOfApplicabilitySeconds: try field("Time of Applicability(s)"),
        week: Int(try field("week")), inclinationRadians: try field("Orbital Inclination(rad)"),
        rateOfRightAscensionRadiansPerSecond: try field("Rate of Right Ascen(r/s)"),
        squareRootOfSemiMajorAxis: try field("SQRT(A)  (m 1/2)"),
        rightAscensionAtWeekRadians: try field("Right Ascen at Week(rad)"),
        argumentOfPerigeeRadians: try field("Argument of Perigee(rad)"),
        meanAnomalyRadians: try field("Mean Anom(rad)"), clockBiasSeconds: try field("Af0(s)"),
        clockDriftSecondsPerSecond: try field("Af1(s/s)"))
    }
  }

  static func angleDifference(_ a: Double, _ b: Double) -> Double {
    let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
    return min(difference, 360 - difference)
  }

  @Test func fixtureHasThirtyOneSatellitesOfWeek149() throws {
    let almanac = try Self.fixtureAlmanac()
    #expect(almanac.count >= 24)
    #expect(Set(almanac.map(\.week)) == [149])
  }

  @Test func azimuthAndElevationMatchRTKLIBWithinHalfADegree() throws {
    let almanac = try Self.fixtureAlmanac()
    var worstAzimuth = 0.0
    var worstElevation = 0.0
    for reference in AlmanacReferenceDirection.all {
      let entry = try #require(almanac.first { $0.prn == reference.prn })
      let time = try UTCInstant(iso8601: reference.time)
      let orbit = KeplerianOrbit(almanac: entry)
      let seconds = Double(GPSTime(time).nanosecondsSinceEpoch) / 1e9
      let direction = TopocentricDirection(
        of: orbit.position(atGPSSeconds: seconds), from: reference.site.position)
      let azimuthError = Self.angleDifference(direction.azimuthDegrees, reference.azimuth)
      let elevationError = abs(direction.elevationDegrees - reference.elevation)
      #expect(elevationError < 0.5, "PRN \(reference.prn) \(reference.site) \(reference.time)")
      #expect(azimuthError < 0.5, "PRN \(reference.prn) \(reference.site) \(reference.time)")
      worstAzimuth = max(worstAzimuth, azimuthError)
      worstElevation = max(worstElevation, elevationError)
    }
    print("almanac vs RTKLIB: worst azimuth \(worstAzimuth)°, elevation \(worstElevation)°")
  }

  @Test func skyFromAlmanacShowsTheSameDirectionsAsRTKLIB() throws {
    let sky = OrbitalSky(
      almanac: try Self.fixtureAlmanac(), constellations: [.gps], channelLimit: 64)
    for reference in AlmanacReferenceDirection.all where reference.elevation > 0.1 {
      let time = try UTCInstant(iso8601: reference.time)
      let inView = sky.satellites(at: time, from: reference.site.position)
      let satellite = try #require(inView.first { $0.id == reference.prn })
      #expect(abs(satellite.elevation - reference.elevation) < 0.5)
      #expect(Self.angleDifference(satellite.azimuth, reference.azimuth) < 0.5)
    }
  }

  @Test func weekModulo1024ResolvesToTheFullWeekNearestTheTime() throws {
    let entry = try #require(try Self.fixtureAlmanac().first)
    var fullWeek = KeplerianOrbit(almanac: entry)
    fullWeek.referenceWeek = 2197
    fullWeek.weekModulus = nil
    let modulo = KeplerianOrbit(almanac: entry)
    // Three days either side of the toa, and across the start of week 2198.
    for offset in [-259_200.0, 0, 200_000, 259_200] {
      let seconds = 2197 * 604_800 + 405_504 + offset
      let a = modulo.position(atGPSSeconds: seconds)
      let b = fullWeek.position(atGPSSeconds: seconds)
      #expect(abs(a.x - b.x) + abs(a.y - b.y) + abs(a.z - b.z) < 1e-3)
    }
    // A 1024-week-old almanac is read as the one nearest the time: week 1173 in 2002.
    let old = fullWeek.position(atGPSSeconds: 2197 * 604_800 + 405_504)
    var earlier = fullWeek
    earlier.referenceWeek = 1173
    #expect(earlier.position(atGPSSeconds: 1173 * 604_800 + 405_504) == old)
    #expect(modulo.position(atGPSSeconds: 1173 * 604_800 + 405_504) == old)
  }

  @Test func almanacOrbitRadiusIsWithinTheEccentricityOfTheSemiMajorAxis() throws {
    for entry in try Self.fixtureAlmanac() {
      let p = KeplerianOrbit(almanac: entry).position(atGPSSeconds: 2197 * 604_800 + 405_504)
      let radius = (p.x * p.x + p.y * p.y + p.z * p.z).squareRoot()
      let a = entry.squareRootOfSemiMajorAxis * entry.squareRootOfSemiMajorAxis
      #expect(abs(radius - a) <= a * entry.eccentricity + 1, "PRN \(entry.prn)")
      #expect((25_500_000...27_600_000).contains(radius), "PRN \(entry.prn)")
    }
  }
}
