import Foundation
import Geodesy
import Receiver
import RouteFiles
import Simulation
import TestFixtures
import Testing

/// Well-formed scenario files: what each field becomes, and the documented example.
@Suite struct ScenarioFileReadingTests {
  static let start = UTCInstant(year: 2024, month: 7, day: 1, hour: 12)

  static func parse(_ json: String) throws -> Scenario {
    try ScenarioFile.parse(bytes: Array(json.utf8), name: "s.json", baseDirectory: "/tmp")
  }

  static func seconds(_ value: Double) -> UTCInstant {
    start.adding(nanoseconds: Int64(value * 1e9))
  }

  @Test func everyActionReadsAsItsModel() throws {
    let scenario = try Self.parse(
      #"""
      {"comment": "all of them", "seed": 18446744073709551615,
       "start": {"time": "2024-07-01T12:00:00Z", "position": [46.05, 14.5, 300]},
       "limits": {"speed": 20, "acceleration": 1.5, "turn-rate": 10},
       "timeline": [
         {"at": 0, "do": "hold"},
         {"at": 0, "do": "goto", "position": [46.06, 14.5]},
         {"at": 1.5, "do": "fix", "mode": "rtk-fixed", "for": 2},
         {"at": 2, "do": "dop", "hdop": 3, "vdop": 4},
         {"at": 3, "do": "dop", "scale": 2},
         {"at": 4, "do": "satellites", "count": 5},
         {"at": 5, "do": "jump", "distance": 30, "bearing": 90, "up": 2},
         {"at": 6, "do": "noise", "sigma": 2},
         {"at": 7, "do": "clock", "week-rollover": true},
         {"at": 8, "do": "clock", "offset": -1.25},
         {"at": 9, "do": "cold-start", "ttff": 45},
         {"at": 10, "do": "silence", "for": 0.5},
         {"at": 11, "do": "corrupt", "rate": 0.2, "style": "truncate"},
         {"at": 12, "do": "corrupt"},
         {"at": 13, "do": "outage", "for": 4}
       ]}
      """#)
    #expect(scenario.seed == .max)
    #expect(scenario.startTime == Self.start)
    #expect(scenario.startPosition == GeodeticPosition(known: 46.05, 14.5, altitudeMeters: 300))
    #expect(
      scenario.limits
        == DrivingLimits(
          speedMetersPerSecond: 20, accelerationMetersPerSecondSquared: 1.5,
          turnRateDegreesPerSecond: 10))
    let actions = scenario.timeline.map(\.action)
    #expect(actions.count == 15)
    #expect(actions[0] == .hold)
    #expect(
      actions[1]
        == .goto(
          GeodeticPosition(known: 46.06, 14.5, altitudeMeters: 300), speedMetersPerSecond: nil))
    #expect(actions[2] == .fix(.rtkFixed))
    #expect(scenario.timeline[2].at == Self.seconds(1.5))
    #expect(scenario.timeline[2].durationNanoseconds == 2_000_000_000)
    #expect(actions[3] == .dop(.values(horizontal: 3, vertical: 4, position: 5)))
    #expect(actions[4] == .dop(.scale(2)))
    #expect(actions[5] == .satellites(usedCount: 5))
    guard case .jump(let north, let east, let up) = actions[6] else {
      Issue.record("not a jump: \(actions[6])")
      return
    }
    #expect(abs(north) < 1e-9 && abs(east - 30) < 1e-9 && up == 2)
    #expect(actions[7] == .noise(sigmaMeters: 2, timeConstantSeconds: 30))
    #expect(actions[8] == .clock(offsetNanoseconds: -1024 * 7 * 86_400 * 1_000_000_000))
    #expect(actions[9] == .clock(offsetNanoseconds: -1_250_000_000))
    #expect(actions[10] == .coldStart(timeToFirstFixNanoseconds: 45_000_000_000))
    #expect(actions[11] == .silence)
    #expect(scenario.timeline[11].durationNanoseconds == 500_000_000)
    #expect(actions[14] == .outage)
    #expect(scenario.timeline[14].durationNanoseconds == 4_000_000_000)
    #expect(actions[12] == .corrupt(rate: 0.2, style: .truncate))
    #expect(actions[13] == .corrupt(rate: 1, style: .checksum))
    #expect(scenario.timeline[13].durationNanoseconds == nil)
  }

  @Test func aGotoWithoutAltitudeKeepsThePreviousOne() throws {
    let scenario = try Self.parse(
      #"{"start": {"time": "2024-07-01T12:00:00Z", "position": [46, 14, 250]}, "timeline": ["#
        + #"{"at": 0, "do": "goto", "position": [46.01, 14]}, "#
        + #"{"at": 9, "do": "goto", "position": [46.02, 14, 400]}, "#
        + #"{"at": 99, "do": "goto", "position": [46.03, 14]}]}"#)
    let altitudes = scenario.timeline.compactMap { event -> Double? in
      guard case .goto(let position, _) = event.action else { return nil }
      return position.altitudeMeters
    }
    #expect(altitudes == [250, 400, 400])
  }

  @Test func defaultsFillWhatIsLeftOut() throws {
    let scenario = try Self.parse(
      #"{"start": {"time": "2024-07-01T12:00:00Z", "position": [0, 0]}, "timeline": []}"#)
    #expect(scenario.seed == 0)
    #expect(scenario.limits == Scenario.defaultLimits)
    #expect(scenario.timeline.isEmpty)
    #expect(scenario.startPosition.altitudeMeters == 0)
  }

  @Test func escapesAndUnicodeInStringsAreRead() throws {
    let scenario = try Self.parse(
      #"{"comment": "tunnel \u00e9\ud83d\ude97 \"A2\"\n", "#
        + #""start": {"time": "2024-07-01T12:00:00Z", "position": [0, 0]}, "timeline": []}"#)
    #expect(scenario.timeline.isEmpty)
  }

  static var tunnelPath: String {
    Fixtures.repositoryFixturesDirectory.appendingPathComponent("scenarios/tunnel.json").path
  }

  @Test func theTunnelExampleChecksClean() throws {
    let scenario = try ScenarioFile.load(path: Self.tunnelPath)
    #expect(scenario.timeline.count == 10)
    #expect(scenario.seed == 7)
  }

  @Test func theTunnelExampleLosesTheFixAndComesBack30MetersOff() throws {
    let compiled = try ScenarioFile.load(path: Self.tunnelPath).compiled()
    let source = SceneSource(compiled)
    func fix(_ seconds: Double) throws -> Fix {
      try #require(source.epoch(at: Self.seconds(seconds)).fix)
    }
    #expect(try fix(50).mode == .threeDimensional)
    #expect(
      try fix(65).dop?.horizontal ?? 0 > compiled.scene.faultFreeFix(at: Self.seconds(65)).dop?
        .horizontal ?? 0)
    #expect(try fix(70).mode == .noFix)
    #expect(try fix(96).mode == .noFix)
    #expect(try fix(97).mode == .twoDimensional)
    #expect(try fix(100).mode == .threeDimensional)
    for seconds in [97.0, 105, 111] {
      let truth = compiled.scene.faultFreeFix(at: Self.seconds(seconds)).position
      let distance = Geodesic.wgs84.inverse(from: truth, to: try fix(seconds).position)
        .distanceMeters
      #expect(abs(distance - 30) < 12, "\(distance) m off at \(seconds) s")
    }
    let truth = compiled.scene.faultFreeFix(at: Self.seconds(130)).position
    let after = Geodesic.wgs84.inverse(from: truth, to: try fix(130).position).distanceMeters
    #expect(after < 10)
  }
}
