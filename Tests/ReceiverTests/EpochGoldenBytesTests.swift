import Foundation
import Geodesy
import Simulation
import TestFixtures
import Testing

@testable import Receiver

/// The bytes of many epochs, compared with those recorded (`Fixtures/epoch-golden.txt`, whose
/// README says from which commits): every profile, fixed and moving, static and orbital sky,
/// 1 Hz and 10 Hz, across a minute boundary and through GSV page changes (over 1,000 s, every
/// 10 s). Each line is a case, an epoch's offset in milliseconds and the FNV-1a hash of its
/// packets; a mismatch prints the epoch's text.
///
/// `MOCKGPS_RECORD_EPOCH_GOLDEN=1` rewrites the fixture (only from a commit whose output is the
/// reference).
@Suite struct EpochGoldenBytesTests {
  struct Case {
    let name: String
    let profile: ReceiverProfile
    let moving: Bool
    let orbital: Bool
    let periodMilliseconds: Int64
    let count: Int
  }

  static let cases: [Case] = ReceiverProfile.all.flatMap { profile in
    [
      Case(
        name: "\(profile.name)-fixed-orbital-10hz", profile: profile, moving: false,
        orbital: true, periodMilliseconds: 100, count: 150),
      Case(
        name: "\(profile.name)-moving-orbital-1hz", profile: profile, moving: true,
        orbital: true, periodMilliseconds: 1000, count: 150),
      Case(
        name: "\(profile.name)-moving-orbital-10hz", profile: profile, moving: true,
        orbital: true, periodMilliseconds: 100, count: 60),
      Case(
        name: "\(profile.name)-moving-static-10hz", profile: profile, moving: true,
        orbital: false, periodMilliseconds: 100, count: 40),
      Case(
        name: "\(profile.name)-fixed-orbital-every-10s", profile: profile, moving: false,
        orbital: true, periodMilliseconds: 10_000, count: 100),
    ]
  }

  /// 50 s before a minute boundary, so that 1 Hz runs cross it and the orbital sky changes
  /// its satellites (and GSV its pages) within the run.
  static let start = UTCInstant(year: 2026, month: 11, day: 30, hour: 23, minute: 59, second: 10)
  static let greenwich = GeodeticPosition(known: 51.477_928, -0.001_545, altitudeMeters: 46)
  static let fixtureURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/epoch-golden.txt")

  static func source(_ test: Case) throws -> SceneSource {
    let systems = test.profile.defaultConstellations.intersection(
      test.profile.dialect.writableConstellations)
    let sky: any Sky =
      test.orbital
      ? OrbitalSky.nominal(constellations: systems, channelLimit: test.profile.channelLimit)
      : StaticSky.typicalGPS
    let motion: any Motion
    if test.moving {
      let points = [
        greenwich, GeodeticPosition(known: 51.49, -0.02, altitudeMeters: 60),
        GeodeticPosition(known: 51.47, -0.05, altitudeMeters: 30),
      ].map { RoutePoint(position: $0) }
      motion = try #require(
        RouteDriving(route: Route(points: points), limits: .car, startTime: start, looping: true))
    } else {
      motion = FixedPosition(greenwich)
    }
    var source = SceneSource(
      scene: Scene(motion: motion, sky: sky, geoid: EGM96Geoid()),
      encoder: ReceiverEncoder(profile: test.profile, constellations: systems))
    source.epochPeriodNanoseconds = test.periodMilliseconds * 1_000_000
    return source
  }

  static func hash(_ bytes: [UInt8]) -> UInt64 {
    bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
  }

  /// An epoch's fixture line and its text.
  struct Recorded {
    let line: String
    let text: String

    /// How many GSV pages the epoch holds, all groups together.
    var gsvPageCount: Int { text.ranges(of: "GSV,").count }
  }

  /// One line per epoch, and the text of each epoch by its line.
  static func lines() throws -> [Recorded] {
    try cases.flatMap { test in
      let source = try source(test)
      return (0..<test.count).map { index in
        let offset = Int64(index) * test.periodMilliseconds
        let epoch = source.epoch(at: start.adding(nanoseconds: offset * 1_000_000))
        let bytes = epoch.packets.flatMap { $0 }
        let hash = String(hash(bytes), radix: 16)
        return Recorded(
          line: "\(test.name) \(offset) \(hash)", text: String(decoding: bytes, as: UTF8.self))
      }
    }
  }

  @Test func epochBytesMatchTheRecordedOnes() throws {
    let current = try Self.lines()
    if ProcessInfo.processInfo.environment["MOCKGPS_RECORD_EPOCH_GOLDEN"] == "1" {
      let text = current.map(\.line).joined(separator: "\n") + "\n"
      try text.write(to: Self.fixtureURL, atomically: true, encoding: .utf8)
    }
    let recorded = try String(contentsOf: Self.fixtureURL, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    #expect(recorded.count == current.count)
    #expect(Set(current.map { $0.line.split(separator: " ")[0] }).count == Self.cases.count)
    var mismatches = 0
    for (expected, now) in zip(recorded, current) where expected != now.line {
      mismatches += 1
      if mismatches <= 3 { Issue.record("\(now.line) was \(expected):\n\(now.text)") }
    }
    #expect(mismatches == 0)
    // A run must cover a change of GSV pages, or it would not test one.
    let pageCounts = Dictionary(grouping: current) { $0.line.prefix { $0 != " " } }
      .mapValues { Set($0.map(\.gsvPageCount)) }
    #expect(pageCounts.values.contains { $0.count > 1 }, "GSV page counts: \(pageCounts)")
  }
}
