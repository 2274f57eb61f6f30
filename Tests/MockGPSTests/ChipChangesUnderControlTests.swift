import Control
import MockGPS
import MockGPSTestSupport
import Synchronization
import TestFixtures
import Testing

/// What the chip changes itself (a command's effect: a restart, the systems it tracks) after a
/// control request holds through the next request, which builds the source anew from the
/// controls' base: the base follows the chip.
@Suite(.blocking, .timeLimit(.minutes(10))) struct ChipChangesUnderControlTests {
  /// The latitude and fix quality of the step's GGA.
  static func gga(_ text: String) -> (latitude: String, quality: String)? {
    guard let gga = text.split(separator: "\r\n").first(where: { $0.hasPrefix("$GPGGA") })
    else { return nil }
    let fields = gga.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    return fields.count > 6 ? (fields[2], fields[6]) : nil
  }

  /// Steps until GGA has a fix, at most `epochs` times: the epochs without one, and the GGA of
  /// the first with one.
  static func search(_ harness: EmulatorHarness, epochs: Int) throws -> (
    searching: Int, fixed: (latitude: String, quality: String)?
  ) {
    for searching in 0..<epochs {
      let gga = gga(try harness.stepText())
      if gga?.quality != "0" { return (searching, gga) }
    }
    return (epochs, nil)
  }

  /// An MT3301 moved by the control socket, then cold-started by its client, then moved again:
  /// it searches for its fix (36 s) at the new place, as it would without the second move.
  @Test func aColdStartOrderedBetweenTwoControlRequestsOutlastsTheSecond() throws {
    var configuration = EmulatorConfiguration()
    configuration.profile = .mtk
    let harness = try EmulatorHarness(configuration: configuration)
    defer { harness.stop() }
    #expect(Self.gga(try harness.stepText())?.quality == "1")
    #expect(
      harness.emulator.handle(.position(latitude: 10, longitude: 20, altitudeMeters: nil)) == .ok())
    try harness.send("$PMTK103*30\r\n", expectingRestarts: 1)
    #expect(try harness.step() == [], "the chip boots")
    #expect(Self.gga(try harness.stepText())?.quality == "0")
    #expect(
      harness.emulator.handle(.position(latitude: 11, longitude: 21, altitudeMeters: nil)) == .ok())
    // The search goes on (36 s from the boot, one epoch of it gone), then the fix is at the
    // second place.
    let (searching, fixed) = try Self.search(harness, epochs: 40)
    #expect(searching == 35)
    #expect(fixed?.quality == "1")
    #expect(fixed?.latitude.hasPrefix("1100.") == true, "\(String(describing: fixed))")
  }

  /// A restart replaces a search a `cold-start` injection started, as it replaces the chip's
  /// own: a 100 s injected search, then a cold start ordered by the client 5 s into it, then a
  /// move, fixes 36 s after the boot, not at the injection's end.
  @Test func aRestartEndsTheSearchAColdStartInjectionStarted() throws {
    var configuration = EmulatorConfiguration()
    configuration.profile = .mtk
    let harness = try EmulatorHarness(configuration: configuration)
    defer { harness.stop() }
    #expect(Self.gga(try harness.stepText())?.quality == "1")
    let search = ControlRequest.inject(
      .coldStart(timeToFirstFixNanoseconds: 100_000_000_000), durationSeconds: nil)
    #expect(harness.emulator.handle(search) == .ok())
    for _ in 0..<5 { #expect(Self.gga(try harness.stepText())?.quality == "0") }
    try harness.send("$PMTK103*30\r\n", expectingRestarts: 1)
    #expect(try harness.step() == [], "the chip boots")
    // A request rebuilds the source from the controls: the injection must be over in them too.
    #expect(
      harness.emulator.handle(.position(latitude: 10, longitude: 20, altitudeMeters: nil)) == .ok())
    let (searching, fixed) = try Self.search(harness, epochs: 60)
    #expect(searching == 36)
    #expect(fixed?.quality == "1")
  }

  /// A cold start ordered by the client while a `route` request is planned (outside the locks)
  /// outlasts the route's install: the chip boots and searches, then fixes on the route.
  @Test func aColdStartOrderedWhileARouteIsPlannedOutlastsIt() throws {
    var configuration = EmulatorConfiguration()
    configuration.profile = .mtk
    let harness = try EmulatorHarness(configuration: configuration)
    defer { harness.stop() }
    #expect(Self.gga(try harness.stepText())?.quality == "1")
    let restarted = Mutex<(any Error)?>(nil)
    // Called on this thread, within `handle`.
    let client = SharedForTest(harness)
    harness.emulator.whenRoutePlanned {
      do {
        try client.value.send("$PMTK103*30\r\n", expectingRestarts: 1)
      } catch {
        restarted.withLock { $0 = error }
      }
    }
    let file = Fixtures.routesDirectory.appendingPathComponent("cerknicko-jezero.gpx").path
    let reply = harness.emulator.handle(
      .route(path: file, speedMetersPerSecond: 10, loops: false))
    #expect(reply == .ok(), "\(reply)")
    #expect(restarted.withLock { $0 } == nil)
    #expect(try harness.step() == [], "the chip boots")
    let (searching, fixed) = try Self.search(harness, epochs: 40)
    #expect(searching == 36)
    #expect(fixed?.quality == "1")
  }
}
