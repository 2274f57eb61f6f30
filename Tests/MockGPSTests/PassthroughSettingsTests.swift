import Geodesy
import MockGPS
import MockGPSTestSupport
import Passthrough
import Simulation
import TestFixtures
import Testing

/// `--override` and the source beside it make the override the passthrough runs.
@Suite(.blocking) struct PassthroughSettingsTests {
  static let start = UTCInstant(year: 2026, month: 12, day: 1, hour: 4)
  static let position = GeodeticPosition(known: 48.858_370, 2.294_481, altitudeMeters: 35)
  static let route = Route(points: [
    RoutePoint(position: GeodeticPosition(known: 48.0, 2.0, altitudeMeters: 0)),
    RoutePoint(position: GeodeticPosition(known: 48.01, 2.0, altitudeMeters: 0)),
  ])

  static func override(
    _ mode: PassthroughSettings.OverrideMode, _ source: EmulatorConfiguration.Source,
    offset: PassthroughSettings.Offset? = nil, replacesAltitude: Bool = false
  ) throws -> PositionOverride {
    try PassthroughSettings(
      target: .path("/dev/ttyACM0"), override: mode, offset: offset,
      replacesAltitude: replacesAltitude
    ).positionOverride(source: source, start: start)
  }

  @Test func replaceAndOffsetTakeTheFixedPosition() throws {
    guard
      case .replace(let replaced, true) = try Self.override(
        .replace, .fixed(Self.position), replacesAltitude: true)
    else {
      Issue.record("not a replace")
      return
    }
    #expect(replaced == Self.position)
    guard case .offsetTo(let origin) = try Self.override(.offset, .fixed(Self.position)) else {
      Issue.record("not an offset to the position")
      return
    }
    #expect(origin == Self.position)
  }

  @Test func anOffsetInMetersNeedsNoPosition() throws {
    let offset = PassthroughSettings.Offset(northMeters: 120, eastMeters: -35.5)
    guard
      case .offsetBy(120, -35.5) = try Self.override(
        .offset, .route(Self.route, RoutePlayback()), offset: offset)
    else {
      Issue.record("not an offset by meters")
      return
    }
  }

  @Test func routeTakesTheMotionOfTheRoute() throws {
    guard case .route(let motion) = try Self.override(.route, .route(Self.route, RoutePlayback()))
    else {
      Issue.record("not a route")
      return
    }
    let first = motion.state(at: Self.start).position
    let later = motion.state(at: Self.start.adding(nanoseconds: 30_000_000_000)).position
    #expect(abs(first.latitude - 48.0) < 1e-9)
    #expect(later.latitude > first.latitude)
  }

  @Test func offAndFreezeNeedNothing() throws {
    #expect(try Self.override(.off, .route(Self.route, RoutePlayback())).name == "off")
    #expect(try Self.override(.freeze, .fixed(Self.position)).name == "freeze")
  }

  @Test func aModeWithoutWhatItNeedsIsRefusedClearly() {
    #expect(
      throws: EmulatorConfiguration.Source.SourceError.overrideNeedsSource(
        "route", needs: "--route or --scenario")
    ) {
      _ = try Self.override(.route, .fixed(Self.position))
    }
    #expect(
      throws: EmulatorConfiguration.Source.SourceError.overrideNeedsSource(
        "replace", needs: "--position")
    ) {
      _ = try Self.override(.replace, .route(Self.route, RoutePlayback()))
    }
  }
}
