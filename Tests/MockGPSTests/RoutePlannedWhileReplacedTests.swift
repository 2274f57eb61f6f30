import Control
import Geodesy
import MockGPS
import MockGPSTestSupport
import Synchronization
import TestFixtures
import Testing

/// A `route` request is planned outside the locks, from where the receiver is; a source
/// replaced meanwhile (`setPosition`, `setScene`, `setSource`) or a motion request answered
/// meanwhile moved the receiver, and the route is planned again from there, not installed from
/// where it was.
@Suite(.timeLimit(.minutes(5))) struct RoutePlannedWhileReplacedTests {
  static let route = Fixtures.routesDirectory.appendingPathComponent("cerknicko-jezero.gpx").path

  /// The latitude field of the step's GGA ("ddmm.mmmmm").
  static func latitude(_ text: String) -> String? {
    guard let gga = text.split(separator: "\r\n").first(where: { $0.hasPrefix("$GPGGA") })
    else { return nil }
    let fields = gga.split(separator: ",", omittingEmptySubsequences: false)
    return fields.count > 2 ? String(fields[2]) : nil
  }

  /// Moved to 10° N while the route was planned from Greenwich, the receiver drives from
  /// 10° N towards the route's first point (in Slovenia), 10 m a second.
  @Test func aPositionSetWhileARouteIsPlannedIsWhereTheRouteStarts() throws {
    let harness = try EmulatorHarness(configuration: EmulatorConfiguration())
    defer { harness.stop() }
    #expect(Self.latitude(try harness.stepText())?.hasPrefix("5128.") == true)
    let plannings = Atomic<Int>(0)
    let emulator = SharedForTest(harness.emulator)
    harness.emulator.whenRoutePlanned {
      if plannings.add(1, ordering: .relaxed).newValue == 1 {
        emulator.value.setPosition(GeodeticPosition(known: 10, 20, altitudeMeters: 0))
      }
    }
    let reply = harness.emulator.handle(
      .route(path: Self.route, speedMetersPerSecond: 10, loops: false))
    #expect(reply == .ok(), "\(reply.line)")
    #expect(plannings.load(ordering: .relaxed) == 2, "planned again after the move")
    let latitude = Self.latitude(try harness.stepText())
    #expect(latitude?.hasPrefix("1000.0") == true, "\(String(describing: latitude))")
    #expect(harness.emulator.handle(.status).line.contains("\"source\":\"route\""))
  }

  /// A source replaced each time the route is planned: the request is refused after three
  /// plannings, and the last replacement holds.
  @Test func aSourceReplacedEachTimeARouteIsPlannedRefusesIt() throws {
    let harness = try EmulatorHarness(configuration: EmulatorConfiguration())
    defer { harness.stop() }
    _ = try harness.stepText()
    let plannings = Atomic<Int>(0)
    let emulator = SharedForTest(harness.emulator)
    harness.emulator.whenRoutePlanned {
      let count = plannings.add(1, ordering: .relaxed).newValue
      emulator.value.setPosition(GeodeticPosition(known: Double(10 + count), 20, altitudeMeters: 0))
    }
    let reply = harness.emulator.handle(
      .route(path: Self.route, speedMetersPerSecond: 10, loops: false))
    #expect(reply.line.contains("moved during each of the 3 plannings"), "\(reply.line)")
    #expect(plannings.load(ordering: .relaxed) == 3)
    #expect(Self.latitude(try harness.stepText())?.hasPrefix("1300.000") == true)
  }

  /// A `position` request answered while the route is planned moves the receiver as a
  /// replaced source does: the drive starts from there.
  @Test func aPositionRequestAnsweredWhileARouteIsPlannedIsWhereTheRouteStarts() throws {
    let harness = try EmulatorHarness(configuration: EmulatorConfiguration())
    defer { harness.stop() }
    _ = try harness.stepText()
    let plannings = Atomic<Int>(0)
    let emulator = SharedForTest(harness.emulator)
    harness.emulator.whenRoutePlanned {
      if plannings.add(1, ordering: .relaxed).newValue == 1 {
        let moved = emulator.value.handle(
          .position(latitude: 10, longitude: 20, altitudeMeters: nil))
        #expect(moved == .ok())
      }
    }
    let reply = harness.emulator.handle(
      .route(path: Self.route, speedMetersPerSecond: 10, loops: false))
    #expect(reply == .ok(), "\(reply.line)")
    #expect(plannings.load(ordering: .relaxed) == 2)
    let latitude = Self.latitude(try harness.stepText())
    #expect(latitude?.hasPrefix("1000.0") == true, "\(String(describing: latitude))")
  }

  /// Planned again, the route starts at the time of its last planning: epochs sent during the
  /// first one (5 s) are not driven as if the route had started then (50 m at 10 m/s).
  @Test func aRoutePlannedAgainStartsWhenItWasPlannedAgain() throws {
    let harness = try EmulatorHarness(configuration: EmulatorConfiguration())
    defer { harness.stop() }
    _ = try harness.stepText()
    let plannings = Atomic<Int>(0)
    let client = SharedForTest(harness)
    harness.emulator.whenRoutePlanned {
      guard plannings.add(1, ordering: .relaxed).newValue == 1 else { return }
      for _ in 0..<5 { _ = try? client.value.step() }
      client.value.emulator.setPosition(GeodeticPosition(known: 10, 20, altitudeMeters: 0))
    }
    let reply = harness.emulator.handle(
      .route(path: Self.route, speedMetersPerSecond: 10, loops: false))
    #expect(reply == .ok(), "\(reply.line)")
    // Within 15 m of 10° N (0.008'): one second of the drive.
    let latitude = Self.latitude(try harness.stepText())
    #expect(latitude?.hasPrefix("1000.00") == true, "\(String(describing: latitude))")
  }

  /// A looping route plays from its first point wherever the receiver is: a move while it is
  /// planned needs no second planning, and the route holds, as one sent after the move would.
  @Test func aLoopingRouteIsNotPlannedAgainForAMove() throws {
    let harness = try EmulatorHarness(configuration: EmulatorConfiguration())
    defer { harness.stop() }
    _ = try harness.stepText()
    let plannings = Atomic<Int>(0)
    let emulator = SharedForTest(harness.emulator)
    harness.emulator.whenRoutePlanned {
      plannings.add(1, ordering: .relaxed)
      emulator.value.setPosition(GeodeticPosition(known: 10, 20, altitudeMeters: 0))
    }
    let reply = harness.emulator.handle(
      .route(path: Self.route, speedMetersPerSecond: 10, loops: true))
    #expect(reply == .ok(), "\(reply.line)")
    #expect(plannings.load(ordering: .relaxed) == 1)
    let latitude = Self.latitude(try harness.stepText())
    #expect(latitude?.hasPrefix("45") == true, "on the route: \(String(describing: latitude))")
  }
}
