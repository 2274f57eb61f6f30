import Foundation
import Geodesy
import Simulation
import Testing

/// The nominal constellations and the rules of the orbital sky: what is in view, what is used,
/// SNR, channel limit, determinism and the DOPs the geometry gives.
@Suite struct OrbitalSkyTests {
  /// The systems whose satellites orbit: SBAS's are geostationary, placed by `SBASSatellite`
  /// (`SBASSkyTests`).
  static let orbitingSystems = Constellation.allCases.filter { !$0.isAugmentation }
  static let allSystems = Set(orbitingSystems)
  static let london = GeodeticPosition(known: 51.5074, -0.1278, altitudeMeters: 20)
  static let melbourne = GeodeticPosition(known: -37.8136, 144.9631, altitudeMeters: 30)
  static let start = UTCInstant(year: 2026, month: 3, day: 14, hour: 6, minute: 0, second: 0)
  static let siderealDayNanoseconds: Int64 = 86_164_090_000_000

  static func times(every minutes: Int64, for hours: Int64) -> [UTCInstant] {
    stride(from: 0, to: hours * 60, by: Int(minutes)).map {
      start.adding(nanoseconds: Int64($0) * 60 * UTCInstant.nanosecondsPerSecond)
    }
  }

  @Test func nominalConstellationsHaveTheirRealSizesAndNumbers() {
    for constellation in Self.orbitingSystems {
      let satellites = NominalConstellation.satellites(of: constellation)
      #expect(satellites.count == 24, "\(constellation)")
      #expect(Set(satellites.map(\.id)).count == 24, "\(constellation)")
    }
    let limits: [Constellation: ClosedRange<Int>] = [
      .gps: 1...32, .glonass: 1...24, .galileo: 1...36, .beidou: 1...63,
    ]
    for (constellation, range) in limits {
      #expect(
        NominalConstellation.satellites(of: constellation).allSatisfy { range.contains($0.id) })
    }
  }

  @Test func gpsGeometryRepeatsAfterOneSiderealDay() {
    let sky = OrbitalSky.nominal(constellations: [.gps], channelLimit: 32)
    for time in Self.times(every: 97, for: 24) {
      let today = sky.satellites(at: time, from: Self.london)
      let tomorrow = sky.satellites(
        at: time.adding(nanoseconds: Self.siderealDayNanoseconds), from: Self.london)
      for satellite in today where satellite.elevation > 1 {
        let again = tomorrow.first { $0.id == satellite.id }
        #expect(again != nil, "PRN \(satellite.id) at \(time)")
        guard let again else { continue }
        #expect(Self.separationDegrees(again, satellite) < 0.5, "PRN \(satellite.id)")
      }
    }
  }

  /// The angle between two directions on the sky, degrees.
  static func separationDegrees(_ a: SatelliteInView, _ b: SatelliteInView) -> Double {
    let radian = Double.pi / 180
    let cosine =
      sin(a.elevation * radian) * sin(b.elevation * radian)
      + cos(a.elevation * radian) * cos(b.elevation * radian)
      * cos((a.azimuth - b.azimuth) * radian)
    return acos(min(1, cosine)) / radian
  }

  @Test func satellitesRiseAndSetOverHours() {
    let sky = OrbitalSky.nominal(constellations: [.gps], elevationMask: 0, channelLimit: 32)
    let times = Self.times(every: 5, for: 24)
    var passes: [Int: [Int]] = [:]  // PRN → lengths in minutes of its complete passes
    var risenAt: [Int: Int] = [:]
    var previous: Set<Int> = []
    for (step, time) in times.enumerated() {
      let now = Set(sky.satellites(at: time, from: Self.london).map(\.id))
      for id in now.subtracting(previous) where step > 0 { risenAt[id] = step }
      for id in previous.subtracting(now) {
        if let rose = risenAt.removeValue(forKey: id) {
          passes[id, default: []].append((step - rose) * 5)
        }
      }
      previous = now
    }
    let lengths = passes.values.flatMap { $0 }
    #expect(passes.count >= 20, "most satellites rise and set within a day")
    #expect(lengths.allSatisfy { (20...480).contains($0) }, "\(lengths.sorted())")
    #expect(lengths.filter { $0 >= 180 }.count >= 10, "GPS passes usually last hours")
  }

  @Test func satellitesMoveSmoothlyBetweenEpochs() {
    let sky = OrbitalSky.nominal(constellations: Self.allSystems, channelLimit: 200)
    let one = UTCInstant.nanosecondsPerSecond
    for time in Self.times(every: 61, for: 6) {
      let now = sky.satellites(at: time, from: Self.melbourne)
      let later = sky.satellites(at: time.adding(nanoseconds: one), from: Self.melbourne)
      for satellite in now where satellite.elevation < 80 {
        guard
          let next = later.first(where: {
            $0.constellation == satellite.constellation && $0.id == satellite.id
          })
        else { continue }
        #expect(abs(next.elevation - satellite.elevation) < 0.02)
        #expect(AlmanacOrbitTests.angleDifference(next.azimuth, satellite.azimuth) < 0.1)
      }
    }
  }

  @Test(arguments: [london, melbourne])
  func countsInViewPerSystemAreRealistic(place: GeodeticPosition) {
    let sky = OrbitalSky.nominal(constellations: Self.allSystems, channelLimit: 200)
    var counts: [Constellation: [Int]] = [:]
    for time in Self.times(every: 20, for: 24) {
      let inView = sky.satellites(at: time, from: place)
      for constellation in Self.orbitingSystems {
        counts[constellation, default: []].append(
          inView.filter { $0.constellation == constellation }.count)
      }
    }
    for (constellation, values) in counts {
      #expect(values.min()! >= 5 && values.max()! <= 14, "\(constellation): \(values)")
    }
    let totals = (0..<counts[.gps]!.count).map { i in counts.values.reduce(0) { $0 + $1[i] } }
    #expect(totals.min()! >= 26 && totals.max()! <= 48, "\(totals)")
  }

  @Test func usedMeansHealthyAndAtOrAboveTheMaskAndComesFirst() throws {
    var almanac = try AlmanacOrbitTests.fixtureAlmanac()
    almanac[0].health = 63
    almanac[4].health = 1
    let unhealthy = Set(almanac.filter { !$0.isHealthy }.map(\.prn))
    #expect(unhealthy.count == 3, "PRN 1, PRN 5 and the fixture's own unhealthy one")
    let sky = OrbitalSky(
      almanac: almanac, constellations: [.gps], elevationMask: 15, channelLimit: 32)
    var unhealthySeen = 0
    var belowMaskSeen = 0
    for time in Self.times(every: 13, for: 24) {
      let inView = sky.satellites(at: time, from: Self.london)
      for satellite in inView {
        #expect(satellite.elevation > 0)
        #expect(satellite.snr != nil)
        let healthy = !unhealthy.contains(satellite.id)
        #expect(satellite.isUsed == (healthy && satellite.elevation >= 15))
        if !healthy { unhealthySeen += 1 }
        if satellite.elevation < 15 { belowMaskSeen += 1 }
      }
      let firstUnused = inView.firstIndex { !$0.isUsed } ?? inView.count
      #expect(inView[firstUnused...].allSatisfy { !$0.isUsed })
    }
    #expect(unhealthySeen > 0 && belowMaskSeen > 0)
  }

  @Test func channelLimitKeepsTheHighest() {
    let all = OrbitalSky.nominal(constellations: Self.allSystems, channelLimit: 200)
    let limited = OrbitalSky.nominal(constellations: Self.allSystems, channelLimit: 12)
    for time in Self.times(every: 37, for: 12) {
      let every = all.satellites(at: time, from: Self.melbourne)
      let kept = limited.satellites(at: time, from: Self.melbourne)
      #expect(every.count > 12)
      #expect(kept.count == 12)
      let highest = Set(every.sorted { $0.elevation > $1.elevation }.prefix(12))
      #expect(Set(kept) == highest)
    }
  }

  @Test func snrRisesWithElevationAndIsSeeded() {
    let sky = OrbitalSky.nominal(constellations: Self.allSystems, seed: 7, channelLimit: 200)
    var low: [Int] = []
    var high: [Int] = []
    for time in Self.times(every: 29, for: 24) {
      for satellite in sky.satellites(at: time, from: Self.london) {
        let snr = satellite.snr!
        #expect((17...51).contains(snr))
        if satellite.elevation < 15 { low.append(snr) }
        if satellite.elevation > 60 { high.append(snr) }
      }
    }
    let mean = { (values: [Int]) in Double(values.reduce(0, +)) / Double(values.count) }
    #expect(mean(low) < 26 && mean(high) > 38, "low \(mean(low)), high \(mean(high))")

    let time = Self.start
    let again = OrbitalSky.nominal(constellations: Self.allSystems, seed: 7, channelLimit: 200)
    let other = OrbitalSky.nominal(constellations: Self.allSystems, seed: 8, channelLimit: 200)
    #expect(
      again.satellites(at: time, from: Self.london) == sky.satellites(at: time, from: Self.london))
    #expect(
      other.satellites(at: time, from: Self.london).map(\.snr)
        != sky.satellites(at: time, from: Self.london).map(\.snr))
    // Within one UTC second the noise does not change.
    let later = time.adding(nanoseconds: 900_000_000)
    let snrs = Dictionary(
      uniqueKeysWithValues: sky.satellites(at: time, from: Self.london).map {
        ("\($0.constellation)\($0.id)", ($0.snr!, $0.elevation))
      })
    for satellite in sky.satellites(at: later, from: Self.london) {
      guard let (snr, elevation) = snrs["\(satellite.constellation)\(satellite.id)"] else {
        continue
      }
      #expect(abs(satellite.snr! - snr) <= 1 || abs(satellite.elevation - elevation) > 0.01)
    }
  }

  @Test func warmAndColdCachesGiveTheSameSky() {
    let warm = OrbitalSky.nominal(constellations: Self.allSystems, seed: 3, channelLimit: 40)
    let times = (0..<200).map { Self.start.adding(nanoseconds: Int64($0) * 700_000_000) }
    let warmSkies = times.map { warm.satellites(at: $0, from: Self.melbourne) }
    for index in stride(from: 199, through: 0, by: -17) {
      let cold = OrbitalSky.nominal(constellations: Self.allSystems, seed: 3, channelLimit: 40)
      #expect(cold.satellites(at: times[index], from: Self.melbourne) == warmSkies[index])
      #expect(warm.satellites(at: times[index], from: Self.melbourne) == warmSkies[index])
    }
  }

  /// One sky shared by concurrent tasks, each asking for different times out of order, gives
  /// what a sky of its own gives.
  @Test func sharedSkyAnswersConcurrentCallersAlike() async {
    let shared = OrbitalSky.nominal(constellations: Self.allSystems, seed: 5, channelLimit: 24)
    let times = (0..<240).map { Self.start.adding(nanoseconds: Int64($0) * 37_000_000_000) }
    let answers = await withTaskGroup(of: [(Int, [SatelliteInView])].self) { group in
      for task in 0..<6 {
        group.addTask {
          stride(from: times.count - 1 - task, through: 0, by: -6).map {
            ($0, shared.satellites(at: times[$0], from: Self.london))
          }
        }
      }
      var all: [(Int, [SatelliteInView])] = []
      for await part in group { all += part }
      return all
    }
    #expect(answers.count == times.count)
    let own = OrbitalSky.nominal(constellations: Self.allSystems, seed: 5, channelLimit: 24)
    for (index, sky) in answers {
      #expect(sky == own.satellites(at: times[index], from: Self.london))
    }
  }

  @Test func gridInterpolationStaysWithinAHundredthOfADegree() {
    let sky = OrbitalSky.nominal(constellations: Self.allSystems, channelLimit: 200)
    for time in Self.times(every: 7, for: 3).map({ $0.adding(nanoseconds: 14_300_000_000) }) {
      let exact = sky.exactPositions(at: time)
      let frame = LocalTangentFrame(at: Self.london)
      for satellite in sky.satellites(at: time, from: Self.london) {
        let index = sky.orbitingSatellites.firstIndex {
          $0.constellation == satellite.constellation && $0.id == satellite.id
        }!
        let direction = frame.direction(of: exact[index])
        #expect(abs(direction.elevationDegrees - satellite.elevation) < 0.01)
        #expect(
          AlmanacOrbitTests.angleDifference(direction.azimuthDegrees, satellite.azimuth) < 0.05)
      }
    }
  }

  /// With 16 or 24 channels HDOP stays in the usual 0.5–2.5; with 32 it drops to about 0.5, as
  /// multi-system receivers report. (Twelve channels filled highest first reach HDOP 3 at
  /// times: all the low satellites are left out.)
  @Test(arguments: [(16, 0.5...2.5), (24, 0.5...2.5), (32, 0.3...1.0)])
  func fourSystemSkyGivesRealisticDOPs(channels: Int, expected: ClosedRange<Double>) {
    let scene = Scene(
      motion: FixedPosition(Self.london),
      sky: OrbitalSky.nominal(constellations: Self.allSystems, channelLimit: channels))
    var hdops: [Double] = []
    for time in Self.times(every: 31, for: 24) {
      let fix = scene.faultFreeFix(at: time)
      hdops.append(fix.dop?.horizontal ?? .infinity)
      #expect(fix.satellites.filter(\.isUsed).count >= channels - 6)
    }
    #expect(hdops.allSatisfy { expected.contains($0) }, "\(hdops)")
  }
}
