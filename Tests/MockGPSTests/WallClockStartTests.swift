import Control
import DeviceRuntime
import Foundation
import Geodesy
import MockGPS
import Simulation
import TestFixtures
import Testing

/// Emulators that drive one route count their simulated seconds from one wall-clock start when
/// given it (`EmulatorConfiguration.wallClockStart`, which the devices of a `--config` share):
/// made on either side of a second's turn, they are at one place of the route at one time.
/// Each from its own making, they were a second of the route apart (a moving base's rover a
/// second of driving off its base: a baseline of 10.5 m for 1.3 m, now and then, in the suite).
/// On the manual clock with devices in memory, it blocks on nothing: it needs no slot of
/// `.blocking` (whose wait counts in a time limit: CI's full run spent two minutes waiting).
@Suite(.timeLimit(.minutes(10))) struct WallClockStartTests {
  static let second: Int64 = 1_000_000_000

  /// 3 km east, at the route's own speed.
  static let route = Route(points: [
    RoutePoint(position: GeodeticPosition(known: 48.0, 2.0, altitudeMeters: 50)),
    RoutePoint(position: GeodeticPosition(known: 48.0, 2.04, altitudeMeters: 50)),
  ])

  /// The longitude in the `status` reply of `emulator`.
  static func longitude(of emulator: Emulator) throws -> Double {
    let reply = emulator.handle(.status)
    let field = try #require(ReplaySteeringTests.field("lon", of: reply), "\(reply)")
    return try #require(Double(field), "\(field)")
  }

  @Test func emulatorsGivenOneStartAreAtOnePlaceOfTheRouteWhenMadeInTwoSeconds() throws {
    // 10 ms before a whole second.
    let clock = ManualClock(
      UTCInstant(nanosecondsSinceEpoch: 1_767_225_605 * Self.second + 990_000_000))
    let runtime = try EmulatorRuntime(manualClock: clock, devicesInMemory: true)
    defer { runtime.stop() }
    let directory = NSTemporaryDirectory() + "mockgps-start-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var emulators: [Emulator] = []
    defer { for emulator in emulators { emulator.stop() } }
    func make(_ name: String, from wallClockStart: UTCInstant?) throws -> Emulator {
      var configuration = EmulatorConfiguration(
        linkPath: directory + "/" + name, source: .route(Self.route, RoutePlayback()),
        groupName: nil, mode: 0o600)
      configuration.wallClockStart = wallClockStart
      let emulator = try Emulator(
        configuration: configuration, log: Log(level: .quiet), runtime: runtime)
      emulators.append(emulator)
      _ = emulator.handle(.status)  // keeps each epoch's fix from now on
      try emulator.start()
      return emulator
    }
    let start = clock.now()
    let first = try make("first", from: start)
    clock.advance(nanoseconds: 20_000_000)  // the next second
    let second = try make("second", from: start)
    let alone = try make("alone", from: nil)
    // Every device's epochs up to the next 10 s.
    let end = (clock.now().nanoseconds / Self.second + 10) * Self.second
    while let next = runtime.nextDeadlineNanoseconds, next <= end {
      clock.set(UTCInstant(nanosecondsSinceEpoch: max(next, clock.now().nanoseconds)))
      runtime.runDue()
    }
    let (east, sameEast, behind) = try (
      Self.longitude(of: first), Self.longitude(of: second), Self.longitude(of: alone)
    )
    #expect(east > 2.0001, "the route has begun: \(east)")
    #expect(east == sameEast)
    // A second of the route behind: some metres (1e-5° of longitude is 0.74 m here).
    #expect(east - behind > 5e-5, "\(east) against \(behind)")
  }
}
