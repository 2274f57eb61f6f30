import Control
import Geodesy
import NMEA
import Receiver
import Simulation
import Testing

/// LiveControls on real epochs: the sentences the encoder writes after each change, decoded
/// with the NMEA module.
@Suite struct LiveControlsTests {
  static let start = UTCInstant(year: 2026, month: 3, day: 1, hour: 12)
  static let home = GeodeticPosition(known: 46.05, 14.5, altitudeMeters: 300)
  static let route = Route(points: [
    RoutePoint(position: GeodeticPosition(known: 46.05, 14.5, altitudeMeters: 300)),
    RoutePoint(position: GeodeticPosition(known: 46.06, 14.5, altitudeMeters: 300)),
    RoutePoint(position: GeodeticPosition(known: 46.06, 14.52, altitudeMeters: 300)),
  ])

  static func at(_ seconds: Double) -> UTCInstant {
    start.adding(nanoseconds: Int64((seconds * 1e9).rounded()))
  }

  static func fixed() -> LiveControls {
    LiveControls(base: SceneSource(scene: Scene(motion: FixedPosition(home))))
  }

  /// The route driven from the start at 10 m/s, once.
  static var routeMotion: RouteDriving {
    guard
      let driving = RouteDriving(
        route: route, limits: Scenario.defaultLimits, startTime: start, looping: false)
    else { preconditionFailure("the test route is drivable") }
    return driving
  }

  static func driving() -> LiveControls {
    LiveControls(
      base: SceneSource(scene: Scene(motion: routeMotion)), motionStartTime: start)
  }

  /// The decoded sentences of the epoch at `seconds` after the start.
  struct Sentences {
    let epoch: Epoch
    let messages: [NMEAMessage]

    init(_ controls: LiveControls, _ seconds: Double) throws {
      epoch = controls.source.epoch(at: LiveControlsTests.at(seconds))
      messages = try epoch.packets.map {
        try NMEAMessage(parsing: String(decoding: $0, as: UTF8.self))
      }
    }

    var gga: GGA? {
      for case .gga(let gga) in messages { return gga }
      return nil
    }
    var rmc: RMC? {
      for case .rmc(let rmc) in messages { return rmc }
      return nil
    }
    var gsa: GSA? {
      for case .gsa(let gsa) in messages { return gsa }
      return nil
    }
    /// GGA's position, degrees.
    var position: (latitude: Double, longitude: Double)? {
      guard let latitude = gga?.latitude, let longitude = gga?.longitude else { return nil }
      return (latitude.degreesValue, longitude.degreesValue)
    }
  }

  static func distance(_ a: GeodeticPosition, _ b: GeodeticPosition) -> Double {
    Geodesic.wgs84.inverse(from: a, to: b).distanceMeters
  }

  static func apply(_ controls: inout LiveControls, _ line: String, at seconds: Double) throws {
    let envelope = try ControlEnvelope.decode(line: Array(line.utf8))
    try controls.apply(envelope.request, at: at(seconds))
  }

  @Test func nothingChangedIsTheBase() throws {
    let controls = Self.fixed()
    #expect(controls.source.epoch(at: Self.at(3)) == controls.base.epoch(at: Self.at(3)))
    #expect(!controls.isPaused)
  }

  @Test func positionLandsInTheNextEpochsGGAAndRMC() throws {
    var controls = Self.fixed()
    try Self.apply(&controls, #"{"cmd":"position","lat":-33.8568,"lon":151.2153}"#, at: 5)
    let next = try Sentences(controls, 5)
    let position = try #require(next.position)
    #expect(abs(position.latitude - -33.8568) < 1e-6)
    #expect(abs(position.longitude - 151.2153) < 1e-6)
    #expect(next.gga?.altitude?.doubleValue == 300, "the altitude is kept")
    let rmc = try #require(next.rmc)
    #expect(abs((rmc.latitude?.degreesValue ?? 0) - -33.8568) < 1e-6)
    #expect(abs((rmc.longitude?.degreesValue ?? 0) - 151.2153) < 1e-6)
    #expect(rmc.status == "A")
    #expect(next.epoch.fix?.speedMetersPerSecond == 0)
    // Before the change the receiver was home.
    #expect(abs((try Sentences(controls, 4).position?.latitude ?? 0) - 46.05) < 1e-6)
    try Self.apply(&controls, #"{"cmd":"position","lat":1,"lon":2,"alt":-20.5}"#, at: 6)
    #expect(try Sentences(controls, 7).gga?.altitude?.doubleValue == -20.5)
  }

  /// At 10 Hz a scene reports the sky of each second once (`SkyOfTheSecond`); a position set
  /// within a second is seen from at once: the epochs after it report the sky at the change
  /// from the new place, those before it the sky of the second from the old one. Also when
  /// a client sets positions twice a second, long after the first change.
  @Test func theSkyOfAnEpochIsSeenFromWhereAChangeWithinItsSecondPutTheReceiver() throws {
    let sky = OrbitalSky.nominal(constellations: [.gps, .galileo], channelLimit: 20)
    var controls = LiveControls(
      base: SceneSource(scene: Scene(motion: FixedPosition(Self.home), sky: sky)))
    let sydney = (latitude: -33.8568, longitude: 151.2153)
    try Self.apply(&controls, #"{"cmd":"position","lat":-33.8568,"lon":151.2153}"#, at: 5.3)
    // True when the epoch at `seconds` reports the sky at `skyAt` from where it is.
    let seenFrom = { (seconds: Double, skyAt: Double) throws -> Bool in
      let fix = try #require(controls.source.epoch(at: Self.at(seconds)).fix)
      return fix.satellites == sky.satellites(at: Self.at(skyAt), from: fix.position)
    }
    #expect(try seenFrom(5.2, 5))
    #expect(abs((try Sentences(controls, 5.2).position?.latitude ?? 0) - 46.05) < 1e-6)
    for seconds in [5.3, 5.4, 5.9] {
      #expect(try seenFrom(seconds, 5.3), "\(seconds) s")
      #expect(
        abs((try Sentences(controls, seconds).position?.latitude ?? 0) - sydney.latitude) < 1e-6)
    }
    #expect(try seenFrom(6, 6))
    #expect(try !seenFrom(5.4, 5), "the sky of the second's start, from Sydney, is another")
    // Ten minutes on, a client sets a position at .2 and .7 of each second.
    for second in 600..<603 {
      for (offset, latitude, until) in [(0.2, -33.85, 0.65), (0.7, -33.86, 0.95)] {
        let at = Double(second) + offset
        try Self.apply(
          &controls, #"{"cmd":"position","lat":\#(latitude),"lon":151.2153}"#, at: at)
        for epoch in stride(from: at, to: Double(second) + until, by: 0.1) {
          #expect(try seenFrom(epoch, at), "\(epoch) s")
        }
      }
      #expect(try seenFrom(Double(second) + 1, Double(second) + 1))
    }
  }

  @Test func velocityMovesBySpeedTimesTimeAlongTheCourse() throws {
    var controls = Self.fixed()
    try Self.apply(&controls, #"{"cmd":"velocity","speed":12.5,"course":270,"climb":0.5}"#, at: 10)
    let fix = try #require(controls.source.epoch(at: Self.at(30)).fix)
    #expect(fix.speedMetersPerSecond == 12.5)
    #expect(fix.courseDegrees == 270)
    #expect(fix.climbMetersPerSecond == 0.5)
    let path = Geodesic.wgs84.inverse(from: Self.home, to: fix.position)
    #expect(abs(path.distanceMeters - 250) < 1e-6)
    #expect(
      abs(path.initialAzimuthDegrees - -90) < 1e-6 || abs(path.initialAzimuthDegrees - 270) < 1e-6)
    #expect(abs(fix.position.altitudeMeters - 310) < 1e-9)
    let rmc = try #require(try Sentences(controls, 30).rmc)
    #expect(abs((rmc.speedKnots?.doubleValue ?? 0) - 12.5 * 3600 / 1852) < 0.01)
    #expect(rmc.course?.doubleValue == 270)
    // A position keeps the velocity: it moves on from there.
    try Self.apply(&controls, #"{"cmd":"position","lat":10,"lon":20}"#, at: 40)
    let later = try #require(controls.source.epoch(at: Self.at(44)).fix)
    let from = GeodeticPosition(known: 10, 20)
    #expect(abs(Self.distance(from, later.position) - 50) < 1e-6)
    #expect(later.courseDegrees == 270)
    // Speed 0 stands still.
    try Self.apply(&controls, #"{"cmd":"velocity","speed":0,"course":90}"#, at: 50)
    let a = try #require(controls.source.epoch(at: Self.at(51)).fix)
    let b = try #require(controls.source.epoch(at: Self.at(90)).fix)
    #expect(a.position == b.position)
    #expect(b.speedMetersPerSecond == 0)
  }

  @Test func fixNoneAndBack() throws {
    var controls = Self.fixed()
    try Self.apply(&controls, #"{"cmd":"fix","mode":"none"}"#, at: 2)
    let none = try Sentences(controls, 2)
    #expect(none.gga?.quality?.doubleValue == 0)
    #expect(none.rmc?.status == "V")
    #expect(try Sentences(controls, 1).gga?.quality?.doubleValue == 1, "before the change")
    try Self.apply(&controls, #"{"cmd":"fix","mode":"dgps"}"#, at: 3)
    #expect(try Sentences(controls, 3).gga?.quality?.doubleValue == 2, "dgps replaces none")
    try Self.apply(&controls, #"{"cmd":"fix","mode":"3d"}"#, at: 4)
    let back = try Sentences(controls, 4)
    #expect(back.gga?.quality?.doubleValue == 1)
    #expect(back.rmc?.status == "A")
  }

  @Test func threeSatellitesGiveTwoDimensionsAndAllRestores() throws {
    var controls = Self.fixed()
    try Self.apply(&controls, #"{"cmd":"satellites","used":3}"#, at: 1)
    let twoD = try Sentences(controls, 1)
    #expect(twoD.epoch.fix?.mode == .twoDimensional)
    #expect(twoD.gsa?.fixType?.doubleValue == 2)
    #expect(twoD.gga?.satellitesUsed?.doubleValue == 3)
    try Self.apply(&controls, #"{"cmd":"satellites","used":"all"}"#, at: 2)
    #expect(try Sentences(controls, 2).gsa?.fixType?.doubleValue == 3)
  }

  @Test func dopValuesAndReset() throws {
    var controls = Self.fixed()
    let sky = try #require(controls.source.epoch(at: Self.at(1)).fix?.dop?.horizontal)
    try Self.apply(&controls, #"{"cmd":"dop","hdop":7.5,"vdop":9}"#, at: 1)
    #expect(try Sentences(controls, 1).gga?.hdop?.doubleValue == 7.5)
    try Self.apply(&controls, #"{"cmd":"dop","reset":true}"#, at: 2)
    #expect(controls.source.epoch(at: Self.at(2)).fix?.dop?.horizontal == sky)
  }

  @Test func pauseHoldsARouteAndResumeGoesOnFromTheSamePoint() throws {
    var controls = Self.driving()
    let route = Self.routeMotion
    try Self.apply(&controls, #"{"cmd":"pause"}"#, at: 20)
    #expect(controls.isPaused)
    let held = route.state(at: Self.at(20)).position
    for second in [20.0, 21, 35, 59.5] {
      let fix = try #require(controls.source.epoch(at: Self.at(second)).fix)
      #expect(fix.position == held)
      #expect(fix.speedMetersPerSecond == 0)
    }
    #expect(try Sentences(controls, 30).gga != nil, "epochs keep coming")
    try Self.apply(&controls, #"{"cmd":"resume"}"#, at: 60)
    #expect(!controls.isPaused)
    #expect(controls.source.epoch(at: Self.at(60)).fix?.position == held)
    for second in [61.0, 75, 100] {
      let fix = try #require(controls.source.epoch(at: Self.at(second)).fix)
      #expect(fix.position == route.state(at: Self.at(second - 40)).position)
    }
    #expect(throws: ControlRequestError.self) {
      try Self.apply(&controls, #"{"cmd":"resume"}"#, at: 101)
    }
  }

  @Test func seekLandsWhereTheRouteIsAtThatTime() throws {
    var controls = Self.driving()
    let route = Self.routeMotion
    try Self.apply(&controls, #"{"cmd":"seek","time":120}"#, at: 5)
    #expect(
      controls.source.epoch(at: Self.at(5)).fix?.position == route.state(at: Self.at(120)).position)
    #expect(
      controls.source.epoch(at: Self.at(6)).fix?.position == route.state(at: Self.at(121)).position)
    // Back in time, while paused: held there, then on from there.
    try Self.apply(&controls, #"{"cmd":"pause"}"#, at: 10)
    try Self.apply(&controls, #"{"cmd":"seek","time":30}"#, at: 12)
    #expect(
      controls.source.epoch(at: Self.at(15)).fix?.position == route.state(at: Self.at(30)).position)
    try Self.apply(&controls, #"{"cmd":"resume"}"#, at: 20)
    #expect(
      controls.source.epoch(at: Self.at(25)).fix?.position == route.state(at: Self.at(35)).position)
  }

  /// Scale, seek, pause, scale while paused and resume on a manual clock: the route's own time
  /// is exact at every step (no jump at a change).
  @Test func scaleComposesWithSeekPauseAndResumeExactly() throws {
    var controls = Self.driving()
    let route = Self.routeMotion
    func expectRouteTime(_ routeSeconds: Double, at seconds: Double) throws {
      let fix = try #require(controls.source.epoch(at: Self.at(seconds)).fix)
      #expect(fix.position == route.state(at: Self.at(routeSeconds)).position, "at \(seconds)")
      #expect(controls.routeTime(at: Self.at(seconds)) == routeSeconds, "at \(seconds)")
    }
    #expect(controls.scale == 1)
    try expectRouteTime(10, at: 10)
    try Self.apply(&controls, #"{"cmd":"scale","factor":10}"#, at: 10)
    #expect(controls.scale == 10)
    try expectRouteTime(10, at: 10)
    try expectRouteTime(30, at: 12)
    let fast = try #require(controls.source.epoch(at: Self.at(12)).fix)
    #expect(
      abs(fast.speedMetersPerSecond - 10 * route.state(at: Self.at(30)).speedMetersPerSecond)
        < 1e-9, "the speed reported is the speed moved")
    // A seek sets the route time; the scale stays.
    try Self.apply(&controls, #"{"cmd":"seek","time":100}"#, at: 12)
    try expectRouteTime(100, at: 12)
    try expectRouteTime(110, at: 13)
    // A pause holds the route time, through a change of scale.
    try Self.apply(&controls, #"{"cmd":"pause"}"#, at: 13)
    try Self.apply(&controls, #"{"cmd":"scale","factor":2}"#, at: 20)
    let held = try #require(controls.source.epoch(at: Self.at(25)).fix)
    #expect(held.position == route.state(at: Self.at(110)).position)
    #expect(held.speedMetersPerSecond == 0)
    #expect(controls.routeTime(at: Self.at(25)) == 110)
    // Resumed, it goes on from there at the new scale.
    try Self.apply(&controls, #"{"cmd":"resume"}"#, at: 30)
    try expectRouteTime(110, at: 30)
    try expectRouteTime(113, at: 31.5)
    // Back to real time: one second of route per second from where it is.
    try Self.apply(&controls, #"{"cmd":"scale","factor":1}"#, at: 32)
    try expectRouteTime(114, at: 32)
    try expectRouteTime(120, at: 38)
  }

  @Test func routeSecondsIsTheRoutesDurationAndTimeStopsAtItsEnd() throws {
    var controls = Self.driving()
    let end = try #require(Self.routeMotion.endTime)
    let duration = Double(end.nanoseconds(since: Self.start)) / 1e9
    #expect(controls.routeSeconds == duration)
    #expect(controls.routeTime(at: Self.at(duration + 50)) == duration)
    // A route loaded once lasts its approach and its drive, counted from when it was loaded.
    try Self.apply(&controls, #"{"cmd":"scale","factor":5}"#, at: 1)
    controls.drive(route: Self.route, speedMetersPerSecond: 10, loops: false, at: Self.at(10))
    let loaded = try #require(controls.routeSeconds)
    #expect(loaded > 200)
    #expect(controls.routeTime(at: Self.at(12)) == 10, "it plays at the scale set before")
    // Looping has no end; a position follows no route.
    controls.drive(route: Self.route, speedMetersPerSecond: 10, loops: true, at: Self.at(20))
    #expect(controls.routeSeconds == nil)
    #expect(controls.routeTime(at: Self.at(21)) == 5)
    try Self.apply(&controls, #"{"cmd":"position","lat":46,"lon":14}"#, at: 22)
    #expect(controls.routeTime(at: Self.at(23)) == nil)
  }

  /// A route planned on a copy of the controls (as the emulator plans, outside its locks) and
  /// followed by the controls after the chip changed their base meanwhile keeps the chip's
  /// change, and drives from where the copy was.
  @Test func aRoutePlannedOnACopyKeepsWhatTheChipChangedMeanwhile() throws {
    var controls = Self.fixed()
    try Self.apply(&controls, #"{"cmd":"position","lat":46.06,"lon":14.52}"#, at: 1)
    let planned = controls.plannedRoute(
      Self.route, speedMetersPerSecond: 10, loops: false, at: Self.at(2))
    controls.changeBase({
      $0.restart(ReceiverRestart(start: .cold, powersUp: true), at: Self.at(1.5))
    })
    controls.follow(planned)
    #expect(controls.source.powerUpBanner != nil, "the restart is kept")
    #expect(controls.source.epoch(at: Self.at(3)).fix?.mode == .noFix, "the search is kept")
    let driven = controls.state(at: Self.at(2)).position
    #expect(abs(driven.latitude - 46.06) < 1e-9 && abs(driven.longitude - 14.52) < 1e-9)
    #expect(controls.state(at: Self.at(30)).position.longitude < 14.52, "it drives the route")
  }

  /// A chip restart ends a `cold-start` injection's search where the restart starts its own:
  /// the fix comes back after the chip's time to first fix, not at the injection's end.
  @Test func aChipRestartEndsAnInjectedSearch() throws {
    var controls = Self.fixed()
    try Self.apply(&controls, #"{"cmd":"inject","fault":"cold-start","ttff":600}"#, at: 1)
    #expect(controls.source.epoch(at: Self.at(100)).fix?.mode == .noFix)
    controls.changeBase(
      { $0.restart(ReceiverRestart(start: .hot, powersUp: false), at: Self.at(10)) },
      restartedAt: Self.at(10))
    let fixedAgain = controls.source.epoch(at: Self.at(100)).fix
    #expect(fixedAgain?.mode == .threeDimensional, "\(String(describing: fixedAgain?.mode))")
  }

  @Test func scaleAtAFixedPositionIsKeptForARouteLoadedLater() throws {
    var controls = Self.fixed()
    try Self.apply(&controls, #"{"cmd":"scale","factor":4}"#, at: 1)
    #expect(controls.scale == 4)
    #expect(controls.routeSeconds == nil)
    #expect(controls.routeTime(at: Self.at(2)) == nil)
    #expect(controls.source.epoch(at: Self.at(3)).fix?.position == Self.home)
  }

  @Test func seekIsRefusedAtAFixedPosition() {
    var controls = Self.fixed()
    #expect {
      try Self.apply(&controls, #"{"cmd":"seek","time":1}"#, at: 1)
    } throws: { error in
      (error as? ControlRequestError)?.message
        == "seek: nothing to seek: the receiver is not driving a route"
    }
    var unknownStart = LiveControls(base: SceneSource(scene: Scene(motion: Self.routeMotion)))
    #expect(throws: ControlRequestError.self) {
      try Self.apply(&unknownStart, #"{"cmd":"seek","time":1}"#, at: 1)
    }
  }

  @Test func injectedSilenceEmptiesExactlyItsWindow() throws {
    var controls = Self.fixed()
    try Self.apply(&controls, #"{"cmd":"inject","fault":"silence","duration":2}"#, at: 10)
    for tenth in 90...130 {
      let seconds = Double(tenth) / 10
      let epoch = controls.source.epoch(at: Self.at(seconds))
      #expect(epoch.packets.isEmpty == (seconds >= 10 && seconds < 12), "at \(seconds) s")
    }
  }

  @Test func aFaultInjectedAgainReplacesTheEarlierAndZeroClears() throws {
    var controls = Self.fixed()
    try Self.apply(&controls, #"{"cmd":"inject","fault":"jump","north":100,"duration":60}"#, at: 0)
    let first = try #require(controls.source.epoch(at: Self.at(1)).fix)
    #expect(abs(Self.distance(Self.home, first.position) - 100) < 0.01)
    try Self.apply(&controls, #"{"cmd":"inject","fault":"jump","east":30}"#, at: 2)
    let second = try #require(controls.source.epoch(at: Self.at(3)).fix)
    #expect(abs(Self.distance(Self.home, second.position) - 30) < 0.01, "not 100 m north too")
    try Self.apply(&controls, #"{"cmd":"inject","fault":"jump","duration":0}"#, at: 4)
    #expect(controls.source.epoch(at: Self.at(5)).fix?.position == Self.home)
    // No fix for 3 s, then the fix again.
    try Self.apply(&controls, #"{"cmd":"inject","fault":"nofix","duration":3}"#, at: 10)
    #expect(try Sentences(controls, 12).gga?.quality?.doubleValue == 0)
    #expect(try Sentences(controls, 13).gga?.quality?.doubleValue == 1)
  }

  @Test func checksumCorruptionBreaksEverySentence() throws {
    var controls = Self.fixed()
    try Self.apply(&controls, #"{"cmd":"inject","fault":"checksum","duration":1}"#, at: 1)
    let packets = controls.source.epoch(at: Self.at(1)).packets
    #expect(!packets.isEmpty)
    for packet in packets {
      #expect(throws: SentenceError.self) {
        try NMEAMessage(parsing: String(decoding: packet, as: UTF8.self))
      }
    }
    #expect(try Sentences(controls, 2).gga != nil)
  }

  @Test func theBasesOwnFaultsStay() throws {
    let scenario = Scenario(
      startTime: Self.start, startPosition: Self.home,
      timeline: [
        Scenario.Event(at: Self.at(100), .silence, durationNanoseconds: 5_000_000_000),
        Scenario.Event(at: Self.at(0), .satellites(usedCount: 3)),
      ]
    ).compiled()
    var controls = LiveControls(base: SceneSource(scenario), motionStartTime: Self.start)
    try Self.apply(&controls, #"{"cmd":"position","lat":1,"lon":1}"#, at: 50)
    try Self.apply(&controls, #"{"cmd":"fix","mode":"dgps"}"#, at: 50)
    #expect(controls.source.epoch(at: Self.at(102)).packets.isEmpty)
    let fix = try #require(controls.source.epoch(at: Self.at(60)).fix)
    #expect(fix.mode == .twoDimensional)
    #expect(fix.correction == .differential)
    #expect(abs(fix.position.latitude - 1) < 1e-12)
  }

  @Test func theSameRequestsAtTheSameTimesGiveTheSameEpochs() throws {
    func run() throws -> [Epoch] {
      var controls = Self.driving()
      try Self.apply(&controls, #"{"cmd":"inject","fault":"noise","sigma":20}"#, at: 3)
      try Self.apply(&controls, #"{"cmd":"inject","fault":"corrupt","rate":0.5}"#, at: 4)
      try Self.apply(&controls, #"{"cmd":"velocity","speed":3,"course":45}"#, at: 5)
      return (0..<20).map { controls.source.epoch(at: Self.at(Double($0))) }
    }
    let first = try run()
    #expect(first == (try run()))
    #expect(first[10].fix?.position != first[11].fix?.position)
  }

  @Test func drivingARouteFromWhereTheReceiverIs() throws {
    var controls = Self.fixed()
    try Self.apply(&controls, #"{"cmd":"position","lat":46.04,"lon":14.5}"#, at: 0)
    controls.drive(route: Self.route, speedMetersPerSecond: 10, loops: false, at: Self.at(10))
    let start = try #require(controls.source.epoch(at: Self.at(10)).fix)
    #expect(abs(start.position.latitude - 46.04) < 1e-9, "it drives from where it is")
    let later = try #require(controls.source.epoch(at: Self.at(100)).fix)
    #expect(later.speedMetersPerSecond > 5)
    #expect(later.position.latitude > 46.04)
    // Driven once, it stops at the route's end and stays there (the emulator goes on).
    let end = try #require(controls.source.epoch(at: Self.at(10_000)).fix)
    #expect(end.speedMetersPerSecond == 0)
    #expect(Self.distance(end.position, Self.route.points[2].position) < 0.01)
    #expect(controls.source.endTime == nil)
    // A driven route can be sought, counted from when it was loaded.
    try Self.apply(&controls, #"{"cmd":"seek","time":90}"#, at: 200)
    #expect(controls.source.epoch(at: Self.at(200)).fix?.position == later.position)
    // Looping, it goes round again.
    controls.drive(route: Self.route, speedMetersPerSecond: 20, loops: true, at: Self.at(300))
    let lap = try #require(controls.source.epoch(at: Self.at(100_000)).fix)
    #expect(lap.speedMetersPerSecond > 0)
  }

  @Test(arguments: [
    ControlRequest.status, .subscribe, .rate(hertz: 1),
    .route(path: "a", speedMetersPerSecond: nil, loops: false),
    .override(OverrideRequest(mode: .off)),
  ])
  func theEmulatorsRequestsAreNotApplied(_ request: ControlRequest) {
    var controls = Self.fixed()
    #expect(throws: ControlRequestError.self) { try controls.apply(request, at: Self.at(1)) }
  }

  /// An outage cleared early, or injected again, still counts as over at the time it ended:
  /// the carriers locked again after it have slipped, and many outages keep one.
  @Test func anOutageEndedKeepsItsEndForTheCarriers() throws {
    var controls = Self.fixed()
    try controls.apply(.inject(.outage, durationSeconds: nil), at: Self.at(1))
    #expect(controls.source.scene.fix(at: Self.at(2)).satellites.isEmpty)
    try controls.apply(.inject(.outage, durationSeconds: 0), at: Self.at(3))
    let fix = controls.source.scene.fix(at: Self.at(4))
    #expect(!fix.satellites.isEmpty)
    #expect(fix.signalsReacquired == Self.at(3))
    for index in 0..<50 {
      try controls.apply(.inject(.outage, durationSeconds: 0.5), at: Self.at(10 + Double(index)))
    }
    #expect(controls.source.scene.faults.faults.count <= 2)
    #expect(controls.source.scene.fix(at: Self.at(70)).signalsReacquired == Self.at(59.5))
  }

  /// A cold start cleared before its time to first fix still began a new lock: the cold
  /// review saw the ambiguity change with the lock time going up, a slip no decoder could see.
  @Test func aColdStartClearedKeepsItsStartForTheCarriers() throws {
    var controls = Self.fixed()
    try controls.apply(
      .inject(.coldStart(timeToFirstFixNanoseconds: 5_000_000_000), durationSeconds: nil),
      at: Self.at(10))
    try controls.apply(
      .inject(.coldStart(timeToFirstFixNanoseconds: 5_000_000_000), durationSeconds: 0),
      at: Self.at(12))
    #expect(controls.source.scene.fix(at: Self.at(30)).signalsReacquired == Self.at(10))
  }

  @Test func manyChangesKeepTheSourceSmall() throws {
    var controls = Self.fixed()
    for index in 0..<2_000 {
      let now = Self.at(Double(index) / 100)
      let longitude = Double(index % 90)
      try controls.apply(.position(latitude: 1, longitude: longitude, altitudeMeters: nil), at: now)
      try controls.apply(.fix(.twoDimensional), at: now)
      try controls.apply(.inject(.silence, durationSeconds: 0.001), at: now)
    }
    let source = controls.source
    let motion = try #require(source.scene.motion as? ControlledMotion)
    #expect(motion.segments.count <= 2)
    #expect(source.scene.faults.faults.count <= 2)
    #expect(source.wireFaults.faults.count <= 1)
    let last = Double(1_999 % 90)
    #expect(abs((source.epoch(at: Self.at(100)).fix?.position.longitude ?? 0) - last) < 1e-9)
  }

  @Test func fixReportFields() throws {
    let fix = try #require(Self.fixed().source.epoch(at: Self.at(0.5)).fix)
    let fields = FixReport.fields(of: fix)
    #expect(
      fields.map(\.0) == [
        "time", "mode", "fix", "lat", "lon", "alt", "speed", "course", "climb", "satellites",
        "visible", "hdop", "vdop", "pdop",
      ])
    let line = ControlReply.ok(fields).line
    #expect(
      line.hasPrefix(
        #"{"ok":true,"time":"2026-03-01T12:00:00.5Z","mode":"3d","fix":"3d","lat":46.05,"lon":14.5,"alt":300,"speed":0,"#
      ))
    var noFix = fix
    noFix.mode = .noFix
    noFix.correction = .rtkFixed
    let report = FixReport.fields(of: noFix)
    #expect(report[2].1 == .string("none"))
    #expect(report[11].1 == .null)
    var rtk = fix
    rtk.correction = .rtkFloat
    #expect(FixReport.fields(of: rtk)[2].1 == .string("rtk-float"))
  }
}
