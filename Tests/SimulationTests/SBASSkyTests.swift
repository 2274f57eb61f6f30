import Geodesy
import Simulation
import Testing

/// The geostationary SBAS satellites: their look angles against an independent computation,
/// and the rules of the orbital sky for them (above the mask, searched PRNs only, after the
/// others in the channels left, tracked but never used, weaker than GNSS satellites).
@Suite struct SBASSkyTests {
  static let greenwich = GeodeticPosition(known: 51.477_928, -0.001_545, altitudeMeters: 46)
  static let boulder = GeodeticPosition(known: 40.015, -105.2705, altitudeMeters: 1655)
  static let melbourne = GeodeticPosition(known: -37.8136, 144.9631, altitudeMeters: 30)
  static let time = UTCInstant(year: 2026, month: 12, day: 2, hour: 12, minute: 0, second: 0)

  /// A satellite's look angles from a place, as the oracle computed them.
  struct LookAngle: CustomTestStringConvertible, Sendable {
    var place: GeodeticPosition
    var prn: Int
    var elevation: Double
    var azimuth: Double
    var testDescription: String { "PRN \(prn) from \(place.latitude), \(place.longitude)" }
  }

  /// From `Tests/Tools/sbas_look_angles.py` (numpy and geographiclib's WGS84 constants, no
  /// code of mockgps's), run once:
  ///
  ///     python3 Tests/Tools/sbas_look_angles.py 51.477928 -0.001545 46 -5 31.5 5 -16 55
  ///     python3 Tests/Tools/sbas_look_angles.py 40.015 -105.2705 1655 -117 -129 -125
  ///     python3 Tests/Tools/sbas_look_angles.py -37.8136 144.9631 30 143.5
  static let lookAngles: [LookAngle] = [
    LookAngle(place: greenwich, prn: 121, elevation: 30.922511, azimuth: 186.382667),
    LookAngle(place: greenwich, prn: 123, elevation: 24.167787, azimuth: 141.907376),
    LookAngle(place: greenwich, prn: 136, elevation: 30.922279, azimuth: 173.613400),
    LookAngle(place: greenwich, prn: 125, elevation: 29.218611, azimuth: 200.138657),
    LookAngle(place: greenwich, prn: 127, elevation: 12.455750, azimuth: 118.686823),
    LookAngle(place: boulder, prn: 131, elevation: 42.168572, azimuth: 197.909067),
    LookAngle(place: boulder, prn: 133, elevation: 37.662045, azimuth: 214.381409),
    LookAngle(place: boulder, prn: 135, elevation: 39.445472, azimuth: 209.171137),
    LookAngle(place: melbourne, prn: 122, elevation: 46.177983, azimuth: 357.612532),
  ]

  @Test(arguments: lookAngles)
  func lookAnglesAgreeWithAnIndependentComputation(_ expected: LookAngle) throws {
    let satellite = try #require(SBASSatellite.operational.first { $0.prn == expected.prn })
    let direction = satellite.direction(from: expected.place)
    #expect(abs(direction.elevationDegrees - expected.elevation) < 1e-5)
    #expect(abs(direction.azimuthDegrees - expected.azimuth) < 1e-5)
  }

  @Test func theTableHoldsEachPRNOnceWithinSBASsRange() {
    let prns = SBASSatellite.operational.map(\.prn)
    #expect(Set(prns).count == prns.count)
    #expect(prns.allSatisfy(SBASSatellite.prns.contains))
    #expect(prns == prns.sorted())
  }

  @Test func theSkyListsTheSBASSatellitesAboveTheMaskAfterTheOthersNeverUsed() {
    let sky = OrbitalSky.nominal(constellations: [.gps, .sbas], channelLimit: 72)
    let inView = sky.satellites(at: Self.time, from: Self.greenwich)
    let sbas = inView.filter { $0.constellation == .sbas }
    #expect(sbas.map(\.id) == [121, 123, 125, 127, 136])
    #expect(sbas.allSatisfy { !$0.isUsed && $0.snr != nil })
    #expect(inView.suffix(sbas.count).allSatisfy { $0.constellation == .sbas })
    let expected = Dictionary(
      uniqueKeysWithValues: Self.lookAngles.filter { $0.place == Self.greenwich }.map {
        ($0.prn, $0)
      })
    for satellite in sbas {
      #expect(abs(satellite.elevation - (expected[satellite.id]?.elevation ?? 0)) < 1e-5)
      #expect(abs(satellite.azimuth - (expected[satellite.id]?.azimuth ?? 0)) < 1e-5)
    }
    // Above a 15° mask, GAGAN's PRN 127 (12.5°) is not in view.
    let masked = OrbitalSky.nominal(
      constellations: [.sbas], elevationMask: 15, channelLimit: 72)
    #expect(
      masked.satellites(at: Self.time, from: Self.greenwich).map(\.id) == [121, 123, 125, 136])
  }

  @Test func onlyTheSearchedPRNsAndOnlyWithSBASTracked() {
    let one = OrbitalSky.nominal(constellations: [.gps, .sbas], channelLimit: 72, sbasPRNs: [123])
    #expect(
      one.satellites(at: Self.time, from: Self.greenwich).filter { $0.constellation == .sbas }
        .map(\.id) == [123])
    let without = OrbitalSky.nominal(constellations: [.gps], channelLimit: 72)
    #expect(without.sbasSatellites.isEmpty)
    #expect(
      !without.satellites(at: Self.time, from: Self.greenwich).contains {
        $0.constellation == .sbas
      })
    // WAAS is below the horizon from Greenwich.
    let waas = OrbitalSky.nominal(constellations: [.sbas], channelLimit: 72, sbasPRNs: [131, 133])
    #expect(waas.satellites(at: Self.time, from: Self.greenwich).isEmpty)
  }

  @Test func sbasSatellitesTakeOnlyTheChannelsTheOthersLeave() {
    let gpsOnly = OrbitalSky.nominal(constellations: [.gps], channelLimit: 72)
    let gpsCount = gpsOnly.satellites(at: Self.time, from: Self.greenwich).count
    let full = OrbitalSky.nominal(constellations: [.gps, .sbas], channelLimit: gpsCount + 2)
    let inView = full.satellites(at: Self.time, from: Self.greenwich)
    #expect(inView.count == gpsCount + 2)
    #expect(inView.filter { $0.constellation == .sbas }.map(\.id) == [121, 123])
  }

  /// Over ten minutes of seconds at 30°, an SBAS satellite's C/N0 averages 3 dB-Hz below a GPS
  /// satellite's, and stays deterministic.
  @Test func sbasIsWeakerThanGPSAtTheSameElevation() {
    let model = SignalStrength(seed: 11)
    let seconds = (0..<600).map { Int64(1_780_000_000 + $0) }
    func mean(_ constellation: Constellation, _ id: Int) -> Double {
      let values = seconds.map {
        model.decibelHertz(
          constellation: constellation, id: id, elevationDegrees: 30, epochSecond: $0)
      }
      return Double(values.reduce(0, +)) / Double(values.count)
    }
    let difference = mean(.gps, 5) - mean(.sbas, 136)
    #expect(abs(difference - SignalStrength.geostationaryLossDecibelHertz) < 0.5)
    #expect(
      model.decibelHertz(constellation: .sbas, id: 136, elevationDegrees: 30, epochSecond: 7)
        == model.decibelHertz(constellation: .sbas, id: 136, elevationDegrees: 30, epochSecond: 7))
  }
}
