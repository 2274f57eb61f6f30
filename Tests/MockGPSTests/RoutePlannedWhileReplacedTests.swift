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
  static let tenNorth = GeodeticPosition(known: 10, 20, altitudeMeters: 0)

  /// The latitude field of the step's GGA ("ddmm.mmmmm").
  static func latitude(_ harness: EmulatorHarness) throws -> String? {
    let text = try harness.stepText()
    guard let gga = text.split(separator: "\r\n").first(where: { $0.hasPrefix("$GPGGA") })
    else { return nil }
    let fields = gga.split(separator: ",", omittingEmptySubsequences: false)
    return fields.count > 2 ? String(fields[2]) : nil
  }

  /// A harness whose `route` request was answered, with how many times it was planned.
  struct Routed {
    let harness: EmulatorHarness
    let reply: ControlReply
    let plannings: Int
  }

  /// Sends a `route` request (10 m/s) to a harness that has sent its first epoch (at
  /// Greenwich), with `hook` called at each planning, numbered from 1, given the harness. The
  /// caller stops the harness.
  static func route(
    loops: Bool = false, _ hook: @escaping @Sendable (Int, EmulatorHarness) -> Void
  ) throws -> Routed {
    let harness = try EmulatorHarness(configuration: EmulatorConfiguration())
    do {
      let first = try latitude(harness)
      #expect(first?.hasPrefix("5128.") == true)
    } catch {
      harness.stop()
      throw error
    }
    let plannings = Atomic<Int>(0)
    let shared = SharedForTest(harness)
    harness.emulator.whenRoutePlanned {
      hook(plannings.add(1, ordering: .relaxed).newValue, shared.value)
    }
    let reply = harness.emulator.handle(
      .route(path: Self.route, speedMetersPerSecond: 10, loops: loops))
    return Routed(harness: harness, reply: reply, plannings: plannings.load(ordering: .relaxed))
  }

  /// Moved to 10° N while the route was planned from Greenwich, the receiver drives from
  /// 10° N towards the route's first point (in Slovenia), 10 m a second.
  @Test func aPositionSetWhileARouteIsPlannedIsWhereTheRouteStarts() throws {
    let routed = try Self.route { planning, harness in
      if planning == 1 { harness.emulator.setPosition(Self.tenNorth) }
    }
    defer { routed.harness.stop() }
    #expect(routed.reply == .ok(), "\(routed.reply.line)")
    #expect(routed.plannings == 2, "planned again after the move")
    let latitude = try Self.latitude(routed.harness)
    #expect(latitude?.hasPrefix("1000.0") == true, "\(String(describing: latitude))")
    #expect(routed.harness.emulator.handle(.status).line.contains("\"source\":\"route\""))
  }

  /// A source replaced each time the route is planned: the request is refused after three
  /// plannings, and the last replacement holds.
  @Test func aSourceReplacedEachTimeARouteIsPlannedRefusesIt() throws {
    let routed = try Self.route { planning, harness in
      harness.emulator.setPosition(
        GeodeticPosition(known: Double(10 + planning), 20, altitudeMeters: 0))
    }
    defer { routed.harness.stop() }
    #expect(
      routed.reply.line.contains("moved during each of the 3 plannings"), "\(routed.reply.line)")
    #expect(routed.plannings == 3)
    let latitude = try Self.latitude(routed.harness)
    #expect(latitude?.hasPrefix("1300.000") == true, "\(String(describing: latitude))")
  }

  /// A `position` request answered while the route is planned moves the receiver as a
  /// replaced source does: the drive starts from there.
  @Test func aPositionRequestAnsweredWhileARouteIsPlannedIsWhereTheRouteStarts() throws {
    let routed = try Self.route { planning, harness in
      guard planning == 1 else { return }
      let moved = harness.emulator.handle(
        .position(latitude: 10, longitude: 20, altitudeMeters: nil))
      #expect(moved == .ok())
    }
    defer { routed.harness.stop() }
    #expect(routed.reply == .ok(), "\(routed.reply.line)")
    #expect(routed.plannings == 2)
    let latitude = try Self.latitude(routed.harness)
    #expect(latitude?.hasPrefix("1000.0") == true, "\(String(describing: latitude))")
  }

  /// Planned again, the route starts at the time of its last planning: epochs sent during the
  /// first one (5 s) are not driven as if the route had started then (50 m at 10 m/s).
  @Test func aRoutePlannedAgainStartsWhenItWasPlannedAgain() throws {
    let routed = try Self.route { planning, harness in
      guard planning == 1 else { return }
      for _ in 0..<5 { _ = try? harness.step() }
      harness.emulator.setPosition(Self.tenNorth)
    }
    defer { routed.harness.stop() }
    #expect(routed.reply == .ok(), "\(routed.reply.line)")
    // Within 15 m of 10° N (0.008'): one second of the drive.
    let latitude = try Self.latitude(routed.harness)
    #expect(latitude?.hasPrefix("1000.00") == true, "\(String(describing: latitude))")
  }

  /// A looping route plays from its first point wherever the receiver is: a move while it is
  /// planned needs no second planning, and the route holds, as one sent after the move would.
  @Test func aLoopingRouteIsNotPlannedAgainForAMove() throws {
    let routed = try Self.route(loops: true) { _, harness in
      harness.emulator.setPosition(Self.tenNorth)
    }
    defer { routed.harness.stop() }
    #expect(routed.reply == .ok(), "\(routed.reply.line)")
    #expect(routed.plannings == 1)
    let latitude = try Self.latitude(routed.harness)
    #expect(latitude?.hasPrefix("45") == true, "on the route: \(String(describing: latitude))")
  }
}
