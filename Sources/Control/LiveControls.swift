import Geodesy
import Receiver
import Simulation

/// What the control socket has changed of a simulated receiver, kept apart from the source it
/// was started with and applied over it: position and velocity, pause and seek, fix mode,
/// satellites, DOPs and injected faults. Pure: the emulator asks it for the source to run after
/// each change and swaps it in, so a change takes effect in the next epoch.
///
/// Changes are expected in time order (each `now` at or after the one before); the epochs asked
/// of `source` from the last change on are exact, and so are those since the change before it.
public struct LiveControls: Sendable {
  /// What the receiver does when it is not paused.
  enum Drive: Sendable {
    /// Follows a motion: the configured one, or a route driven on request.
    case follow(FollowedMotion)
    /// Stands still at a position set by `position`.
    case stand(MotionState)
    /// Moves at the velocity `velocity` set, from a state at an instant.
    case cruise(MotionState, since: UTCInstant)
  }

  /// A motion with a start that `seek` counts from, played on a clock (late by pauses, moved
  /// by seeks, faster or slower by `scale`).
  struct FollowedMotion: Sendable {
    var motion: any Motion
    /// When the motion starts; nil when unknown (nothing to seek).
    var startTime: UTCInstant?
    var clock = PlaybackClock.realTime
    /// False for a receiver standing at a fixed position.
    var isSeekable: Bool { startTime != nil && !(motion is FixedPosition) }
  }

  /// Which control faults replace one another: the permanent settings (`fix`, `satellites`,
  /// `dop`) and each kind of injected fault.
  enum FaultKey: Hashable, Sendable {
    case setting(String)
    case injected(String)
  }

  /// The source as configured (`mockgps run` options, a config file's device).
  public private(set) var base: SceneSource
  /// When the configured motion starts: what `seek` counts from.
  public private(set) var motionStartTime: UTCInstant?

  private var drive: Drive
  /// The state held while paused, and since when.
  private var paused: (since: UTCInstant, state: MotionState)?
  /// The route `seek` applies to: the drive's, or the last followed before a `position` or
  /// `velocity`.
  private var lastFollowed: FollowedMotion
  /// The motion's segments since the change before the last (see `ControlledMotion`).
  private var segments: [(start: UTCInstant, segment: ControlledMotion.Segment)] = []
  private var fixFaults: [FaultKey: [FixFault]] = [:]
  private var wireFaults: [FaultKey: [WireFault]] = [:]
  /// The requests applied so far, for the seeds of the faults.
  private var changeCount: UInt64 = 0
  /// How many times a request moved the receiver or changed how it moves (`position`,
  /// `velocity`, `pause`, `resume`, `seek`, `scale`, a route followed): a route planned from
  /// where the receiver was is planned again when this changed meanwhile.
  public private(set) var motionRevision: UInt64 = 0
  /// The time scale `scale` set: the followed motion's seconds per receiver second, kept for
  /// the routes driven after it.
  public private(set) var scale: Double = 1

  /// Starts with nothing changed: `source` is `base`. `seek` then counts from the start of the
  /// motion when it is known from its type, else it is refused; see
  /// `init(base:motionStartTime:)`.
  public init(base: SceneSource) {
    self.init(base: base, motionStartTime: nil)
  }

  /// Starts with nothing changed; `seek` counts from `motionStartTime`, the simulated time the
  /// configured route or scenario starts at (the emulator's start, or a timed track's or
  /// scenario's own start time).
  public init(base: SceneSource, motionStartTime: UTCInstant?) {
    self.base = base
    self.motionStartTime = motionStartTime
    let followed = FollowedMotion(motion: base.scene.motion, startTime: motionStartTime)
    self.drive = .follow(followed)
    self.lastFollowed = followed
  }

  /// True while paused.
  public var isPaused: Bool { paused != nil }

  /// Applies a request that changes the simulated receiver at simulated time `now` (the time
  /// of the next epoch, or the current simulated time). `status`, `subscribe`, `rate` and
  /// `override` are the emulator's to answer, and `route` comes through `drive(route:…)`:
  /// given here they throw.
  ///
  /// - Throws: a message for the reply when the request cannot apply (nothing is changed).
  public mutating func apply(_ request: ControlRequest, at now: UTCInstant)
    throws(ControlRequestError)
  {
    let current = state(at: now)
    switch request {
    case .position(let latitude, let longitude, let altitude):
      guard
        let position = try? GeodeticPosition(
          latitude: latitude, longitude: longitude,
          altitudeMeters: altitude ?? current.position.altitudeMeters)
      else { throw Self.refusal(request, "expected lat in -90...90 and lon in -180...180") }
      var state = current
      state.position = position
      if case .cruise(let velocity, _) = drive {
        state.speedMetersPerSecond = velocity.speedMetersPerSecond
        state.courseDegrees = velocity.courseDegrees
        state.climbMetersPerSecond = velocity.climbMetersPerSecond
        drive = .cruise(state, since: now)
      } else {
        drive = .stand(Self.still(state))
      }
      if paused != nil { paused = (now, Self.still(state)) }
    case .velocity(let speed, let course, let climb):
      var state = current
      state.speedMetersPerSecond = speed
      state.courseDegrees = course
      state.climbMetersPerSecond = climb
      drive = speed > 0 || climb != 0 ? .cruise(state, since: now) : .stand(Self.still(state))
    case .pause:
      if paused == nil { paused = (now, Self.still(current)) }
    case .resume:
      guard let held = paused else {
        throw Self.refusal(request, "nothing to resume: the receiver is not paused")
      }
      paused = nil
      resume(from: held, at: now)
    case .seek(let seconds):
      try seek(seconds, at: now, request)
    case .scale(let factor):
      rescale(factor, at: now)
    case .fix(let setting):
      setFaults(.setting("fix"), action: setting == .threeDimensional ? nil : .fix(setting), now)
    case .satellites(let used):
      setFaults(.setting("satellites"), action: used.map { .satellites(usedCount: $0) }, now)
    case .dop(let change):
      setFaults(.setting("dop"), action: change.map { .dop($0) }, now)
    case .inject(let action, let duration):
      inject(action, durationSeconds: duration, at: now)
    case .status, .subscribe, .rate, .override, .route:
      throw Self.refusal(request, "not a change of the simulated receiver's state")
    }
    switch request {
    case .position, .velocity, .pause, .resume, .seek, .scale: motionRevision += 1
    default: break
    }
    changeCount += 1
    addSegment(at: now)
  }

  /// Drives `route` from `now` on, from where the receiver is (a route file loaded by the
  /// emulator for `{"cmd":"route"}`): `follow(plannedRoute(…))`.
  public mutating func drive(
    route: Route, speedMetersPerSecond: Double?, loops: Bool, at now: UTCInstant
  ) {
    follow(plannedRoute(route, speedMetersPerSecond: speedMetersPerSecond, loops: loops, at: now))
  }

  /// A route planned to be driven from `now` on, from where the receiver is then: the motion
  /// `follow(_:)` makes the drive. Planning a long route takes seconds: the emulator plans on
  /// a copy of the controls, outside its locks, and has the controls as they are by then
  /// follow it.
  public struct PlannedRoute: Sendable {
    let motion: any Motion
    let startTime: UTCInstant
    /// True when the drive starts from where the receiver was (a route played once); false
    /// when it starts from the route's first point (a looping route), wherever the receiver is.
    public let startsWhereTheReceiverIs: Bool
  }

  /// Plans `route` from where the receiver is at `now`.
  ///
  /// Played once, the receiver drives from where it is to the route's first point, then along
  /// it (`ScriptedMotion`'s route leg): at `speedMetersPerSecond`, or at its recorded pace when
  /// nil and the route is timed, else at 10 m/s. Looping, the route plays as `--route --loop`
  /// does, from its first point. A route with no point holds where the receiver is.
  public func plannedRoute(
    _ route: Route, speedMetersPerSecond: Double?, loops: Bool, at now: UTCInstant
  ) -> PlannedRoute {
    let limits = Scenario.defaultLimits
    if loops {
      if speedMetersPerSecond == nil, route.isTimed, let first = route.points.first?.time,
        let track = TrackMotion(
          route: route, timeOffsetNanoseconds: now.nanoseconds(since: first), looping: true)
      {
        return PlannedRoute(motion: track, startTime: now, startsWhereTheReceiverIs: false)
      }
      if let driving = RouteDriving(
        route: route, limits: limits.cruising(at: speedMetersPerSecond ?? 10), startTime: now,
        looping: true)
      {
        return PlannedRoute(motion: driving, startTime: now, startsWhereTheReceiverIs: false)
      }
    }
    let motion = ScriptedMotion(
      start: state(at: now).position, startTime: now,
      steps: [.init(at: now, leg: .route(route, speedMetersPerSecond: speedMetersPerSecond))],
      limits: limits)
    return PlannedRoute(motion: motion, startTime: now, startsWhereTheReceiverIs: true)
  }

  /// Drives a planned route from its start on, at the time scale `scale` set: the changes
  /// made since it starts are superseded, as any later request supersedes them; what the chip
  /// changed (`changeBase`) stays.
  public mutating func follow(_ planned: PlannedRoute) {
    let now = planned.startTime
    let followed = FollowedMotion(
      motion: planned.motion, startTime: now,
      clock: PlaybackClock(anchor: now, motionAnchor: now, scale: scale))
    drive = .follow(followed)
    lastFollowed = followed
    paused = nil
    motionRevision += 1
    changeCount += 1
    addSegment(at: now)
  }

  /// Makes a change of the chip's own (a command's: its sky, its rover, a restart) in `base`,
  /// so that `source` keeps it under the changes made here. A restart, at `restartedAt`, also
  /// ends the search a `cold-start` injection started: the chip's own search replaces it, as
  /// it replaces one of its own (`SceneSource.restart(_:at:)`).
  public mutating func changeBase(
    _ change: (inout SceneSource) -> Void, restartedAt: UTCInstant? = nil
  ) {
    change(&base)
    if let restartedAt {
      replaceFaults(
        .injected(Self.kindName(.coldStart(timeToFirstFixNanoseconds: 0))), action: nil,
        window: .always, at: restartedAt)
    }
  }

  /// The source to run: `base` with every change applied.
  public var source: SceneSource {
    var source = base
    if !segments.isEmpty {
      source.scene.motion = ControlledMotion(base: base.scene.motion, segments: segments)
    }
    if !fixFaults.isEmpty {
      source.scene.faults.faults += fixFaults.keys.sorted(by: Self.order).flatMap {
        fixFaults[$0] ?? []
      }
    }
    if !wireFaults.isEmpty {
      source.wireFaults.faults += wireFaults.keys.sorted(by: Self.order).flatMap {
        wireFaults[$0] ?? []
      }
    }
    return source
  }

  /// The receiver's motion state at `time` as `source` plays it.
  public func state(at time: UTCInstant) -> MotionState {
    ControlledMotion(base: base.scene.motion, segments: segments).state(at: time)
  }

  /// The segment in force from now on, after a change.
  private var segment: ControlledMotion.Segment {
    if let paused { return .hold(paused.state) }
    switch drive {
    case .follow(let followed):
      return .follow(followed.motion, followed.clock)
    case .stand(let state): return .hold(state)
    case .cruise(let state, let since): return .cruise(state, since: since)
    }
  }

  /// Starts the current segment at `now`, keeping only the one in force just before it.
  private mutating func addSegment(at now: UTCInstant) {
    segments.removeAll { $0.start >= now }
    if let before = segments.last { segments = [before] }
    segments.append((now, segment))
  }

  /// Goes on after a pause held since `held.since`: a followed motion is played later by the
  /// paused span, a velocity starts again from the held position.
  private mutating func resume(
    from held: (since: UTCInstant, state: MotionState), at now: UTCInstant
  ) {
    switch drive {
    case .follow(var followed):
      followed.clock = PlaybackClock(
        anchor: now, motionAnchor: followed.clock.motionTime(at: held.since),
        scale: followed.clock.scale)
      drive = .follow(followed)
      lastFollowed = followed
    case .cruise(let velocity, _):
      var state = velocity
      state.position = held.state.position
      drive = .cruise(state, since: now)
    case .stand:
      break
    }
  }

  /// Moves the followed route's time to `seconds` after its start, and follows it again.
  private mutating func seek(_ seconds: Double, at now: UTCInstant, _ request: ControlRequest)
    throws(ControlRequestError)
  {
    var followed = lastFollowed
    guard followed.isSeekable, let start = followed.startTime else {
      throw Self.refusal(request, "nothing to seek: the receiver is not driving a route")
    }
    let target = start.adding(nanoseconds: UTCInstant.clampedNanoseconds(seconds * 1e9))
    followed.clock = PlaybackClock(anchor: now, motionAnchor: target, scale: scale)
    drive = .follow(followed)
    lastFollowed = followed
    if paused != nil {
      paused = (now, Self.still(followed.motion.state(at: target)))
    }
  }

  /// Plays the followed motion `factor` times as fast as real time from `now` on, from where
  /// it is (or, paused, from where the pause holds it); a position or velocity is kept as it
  /// is, and the routes followed later play at `factor`.
  private mutating func rescale(_ factor: Double, at now: UTCInstant) {
    scale = factor
    guard case .follow(var followed) = drive else { return }
    followed.clock = followed.clock.rescaled(factor, at: paused?.since ?? now)
    drive = .follow(followed)
    lastFollowed = followed
  }

  /// How long the route or scenario that `seek` applies to lasts, in seconds; nil when there
  /// is none or it has no end (a loop).
  public var routeSeconds: Double? {
    let motion = lastFollowed.motion
    guard lastFollowed.isSeekable, let start = lastFollowed.startTime,
      let end = motion.endTime ?? (motion as? ScriptedMotion)?.movementEndTime
    else { return nil }
    return max(0, Double(end.nanoseconds(since: start)) / 1e9)
  }

  /// How far into the followed route or scenario the receiver is at `now`, in seconds (held by
  /// a pause, at most `routeSeconds`); nil when it follows none (a position or a velocity).
  public func routeTime(at now: UTCInstant) -> Double? {
    guard case .follow(let followed) = drive, followed.isSeekable,
      let start = followed.startTime
    else { return nil }
    let time = followed.clock.motionTime(at: paused?.since ?? now)
    let seconds = max(0, Double(time.nanoseconds(since: start)) / 1e9)
    return routeSeconds.map { min($0, seconds) } ?? seconds
  }

  /// Replaces the faults of `key` from `now`: the earlier ones end there, and `action`'s (if
  /// any) start, for good.
  private mutating func setFaults(_ key: FaultKey, action: Scenario.Action?, _ now: UTCInstant) {
    replaceFaults(key, action: action, window: FaultWindow(from: now), at: now)
  }

  /// Injects `action` from `now` for `durationSeconds` (nil: until cleared; 0: clears the
  /// faults of its kind).
  private mutating func inject(
    _ action: Scenario.Action, durationSeconds: Double?, at now: UTCInstant
  ) {
    let key = FaultKey.injected(Self.kindName(action))
    if durationSeconds == 0 {
      replaceFaults(key, action: nil, window: .always, at: now)
      return
    }
    var until = durationSeconds.map {
      now.adding(nanoseconds: UTCInstant.clampedNanoseconds($0 * 1e9))
    }
    if case .coldStart(let timeToFirstFix) = action {
      until = min(
        until ?? .init(nanosecondsSinceEpoch: .max), now.adding(nanoseconds: timeToFirstFix))
    }
    replaceFaults(key, action: action, window: FaultWindow(from: now, until: until), at: now)
  }

  private mutating func replaceFaults(
    _ key: FaultKey, action: Scenario.Action?, window: FaultWindow, at now: UTCInstant
  ) {
    func end<Kind>(_ faults: [TimedFault<Kind>]?) -> [TimedFault<Kind>] {
      var ended = TimedFaults(
        (faults ?? []).map { fault in
          var fault = fault
          fault.window.until = min(fault.window.until ?? now, now)
          return fault
        })
      ended.removeEnded(by: now)
      return ended.faults
    }
    var fix = end(fixFaults[key])
    var wire = end(wireFaults[key])
    // The latest fault that cut every signal (an outage, a cold start) stays once over: the
    // carriers locked again after it have slipped (`FixFaults.signalsReacquired`), which
    // forgetting it would undo.
    if var cut = fixFaults[key]?.last(where: \.kind.cutsEverySignal) {
      cut.window.until = min(cut.window.until ?? now, now)
      if !fix.contains(cut) { fix.insert(cut, at: 0) }
    }
    if let action {
      let seed = UInt64(bitPattern: now.nanoseconds) &* 0x9E37_79B9_7F4A_7C15 &+ changeCount
      let faults = action.faults(since: now, window: window, seed: seed)
      fix += faults.fix
      wire += faults.wire
    }
    fixFaults[key] = fix.isEmpty ? nil : fix
    wireFaults[key] = wire.isEmpty ? nil : wire
  }

  /// The state standing still: speed and climb 0, course kept.
  static func still(_ state: MotionState) -> MotionState {
    var state = state
    state.speedMetersPerSecond = 0
    state.climbMetersPerSecond = 0
    return state
  }

  /// The kind of an injected fault: faults of one kind replace one another.
  static func kindName(_ action: Scenario.Action) -> String {
    switch action {
    case .hold, .goto, .route: return "move"
    case .fix: return "fix"
    case .dop: return "dop"
    case .satellites: return "satellites"
    case .outage: return "outage"
    case .jump: return "jump"
    case .noise: return "noise"
    case .clock: return "clock"
    case .coldStart: return "cold-start"
    case .silence: return "silence"
    case .corrupt: return "corrupt"
    }
  }

  /// A fixed order of the fault lists, so that the same requests give the same source.
  static func order(_ lhs: FaultKey, _ rhs: FaultKey) -> Bool {
    func rank(_ key: FaultKey) -> (Int, String) {
      switch key {
      case .setting(let name): return (0, name)
      case .injected(let name): return (1, name)
      }
    }
    return rank(lhs) < rank(rhs)
  }

  static func refusal(_ request: ControlRequest, _ message: String) -> ControlRequestError {
    ControlRequestError(message: "\(request.command): \(message)", idJSON: nil)
  }
}

/// The fields of a fix in `status` replies and `subscribe` lines: `time` (ISO 8601), `mode`
/// (`none|2d|3d`), `fix` (`none|2d|3d|dgps|rtk-float|rtk-fixed`), `lat`, `lon`, `alt` (MSL),
/// `speed`, `course`, `climb`, `satellites` (used), `visible`, `hdop`, `vdop`, `pdop`.
public enum FixReport {
  public static func fields(of fix: Fix) -> [(String, ControlReply.Value)] {
    let mode: String
    switch fix.mode {
    case .noFix: mode = "none"
    case .twoDimensional: mode = "2d"
    case .threeDimensional: mode = "3d"
    }
    var setting = mode
    if fix.mode != .noFix {
      switch fix.correction {
      case .none: break
      case .differential: setting = "dgps"
      case .rtkFloat: setting = "rtk-float"
      case .rtkFixed: setting = "rtk-fixed"
      }
    }
    let hasFix = fix.mode != .noFix
    func dop(_ value: Double?) -> ControlReply.Value {
      guard hasFix, let value else { return .null }
      return .number(value, digits: 2)
    }
    return [
      ("time", .string(fix.time.civil.description)),
      ("mode", .string(mode)),
      ("fix", .string(setting)),
      ("lat", .number(fix.position.latitude, digits: 9)),
      ("lon", .number(fix.position.longitude, digits: 9)),
      ("alt", .number(fix.position.altitudeMeters, digits: 3)),
      ("speed", .number(fix.speedMetersPerSecond, digits: 3)),
      ("course", .number(fix.courseDegrees, digits: 3)),
      ("climb", .number(fix.climbMetersPerSecond, digits: 3)),
      ("satellites", .integer(Int64(fix.satellitesUsed.count))),
      ("visible", .integer(Int64(fix.satellites.count))),
      ("hdop", dop(fix.dop?.horizontal)),
      ("vdop", dop(fix.dop?.vertical)),
      ("pdop", dop(fix.dop?.position)),
    ]
  }
}
