import Control
import DeviceRuntime
import DeviceSources
import Glibc
import Passthrough
import Receiver
import RouteFiles
import Servers
import Simulation
import Synchronization
import SystemIO

/// What the control protocol keeps of one emulator: its `LiveControls`, its socket server and
/// the last epoch's fix (the epoch count is the source's, `Emulator.epochsDue`).
///
/// The rule between the controls and `setPosition`/`setScene`/`setSource`: those replace the
/// source outright, and the controls start again from the source they leave (what the
/// controls changed before is dropped with the old source). A control request then applies
/// over whatever the source is at that time.
final class EmulatorControlState: Sendable {
  /// What control requests made of the simulated scene, changed together (taken inside the
  /// epoch loop's plan lock where both are needed, never the other way round).
  let scene = Mutex(SceneControls())
  let server = Mutex<ControlServer?>(nil)
  let lastFix = LastFix()
  /// The epoch listener that feeds `lastFix` and the subscribers. Its own lock: it is held while
  /// the listener is added, and the listener takes `server`'s on the epoch thread.
  let listenerToken = Mutex<EpochListeners.Token?>(nil)
  /// The passthrough override set through `override`, for `status`.
  let overrideName = Mutex<String?>(nil)
  /// Who gets each epoch's `subscribe` line besides the socket's subscribers (the panel).
  let lineSubscribers = Mutex(LineSubscribers())
  /// Called between a `route` request's planning and its install (`whenRoutePlanned`).
  let routePlanned = Mutex<(@Sendable () -> Void)?>(nil)

  /// The controls over the scene and what `status` and the panel say of them.
  struct SceneControls {
    /// The scene as control requests left it; nil until the first request after a source.
    var controls: LiveControls?
    /// What the source is now, for `status`: set by `route`.
    var sourceName: String?
    /// The route loaded through `route`, for the panel's map.
    var loadedRoute: Route?
    /// True once the source the emulator started with was replaced (`setPosition`,
    /// `setScene`, `setSource`): its route is no longer driven.
    var startingSourceReplaced = false
    /// How many times the source was replaced, so that a `route` planned meanwhile is
    /// planned again from where the new source put the receiver.
    var replacements = 0

    /// What a route planned from where the receiver is must find unchanged at its install:
    /// the source and the receiver's motion (`LiveControls.motionRevision`; 0 for controls
    /// not made yet, which start from the source).
    var motionMark: MotionMark {
      MotionMark(replacements: replacements, revision: controls?.motionRevision ?? 0)
    }
  }

  /// See `SceneControls.motionMark`.
  struct MotionMark: Equatable {
    let replacements: Int
    let revision: UInt64
  }

  /// The `subscribe` lines' handlers besides the socket's, by token.
  struct LineSubscribers {
    var handlers: [UInt64: @Sendable (String) -> Void] = [:]
    var nextToken: UInt64 = 0
  }

  init() {}

  /// Forgets the controls: the next request starts from the source as it is then.
  func reset() {
    scene.withLock {
      $0 = SceneControls(startingSourceReplaced: true, replacements: $0.replacements + 1)
    }
  }
}

extension Emulator {
  /// Answers one control request (README, "Control socket") as the control
  /// socket does, without a socket: a change takes effect in the next epoch. The command's row
  /// of `ControlCommand.all` says whether this emulator's source takes it (else the row's
  /// refusal), and its handler in `controlHandlers` answers it. `subscribe` needs
  /// a connection (use `addEpochListener` from Swift) and is refused here. A file the request
  /// names is opened with the rights of `requester` (see `ControlRequester`).
  public func handle(_ request: ControlRequest, from requester: ControlRequester = .process)
    -> ControlReply
  {
    listenToEpochsForControl()
    guard let command = request.definition else {
      return .refused("\(request.command): not in the table of control commands")
    }
    guard command.sources.contains(controlSource) else {
      return .refused(command.refusal(on: controlSource))
    }
    guard let handler = Self.controlHandlers[command.name] else {
      return .refused("\(request.command): this emulator has no handler for it")
    }
    return handler(self, request, requester)
  }

  /// Calls `hook` after each planning of a `route` request (a route is planned again when the
  /// receiver was moved meanwhile), before it is installed, outside every lock: a test makes
  /// the chip change there, or moves the receiver, as a client may while a long route is
  /// planned.
  package func whenRoutePlanned(_ hook: (@Sendable () -> Void)?) {
    controlState.routePlanned.withLock { $0 = hook }
  }

  /// The control socket's path while it listens, else nil.
  public var controlSocketPath: String? { controlState.server.withLock { $0?.path } }

  /// Opens the control socket of `configuration.control` and starts counting epochs; called by
  /// `start()`. A default socket that cannot be opened is a warning; an explicit one throws.
  func startControl() throws(SystemError) {
    guard let settings = configuration.control else { return }
    listenToEpochsForControl()
    let state = controlState
    do {
      // On the I/O thread of the device: the runtime's, shared by every emulator on it.
      let server = try ControlServer(
        settings: settings, io: device.io, log: controlLog,
        handler: { [weak self] request, peer in
          self?.handle(request, from: .socketPeer(peer)) ?? .refused("the emulator has stopped")
        })
      state.server.withLock { $0 = server }
    } catch {
      stopControl()
      if settings.isExplicit { throw Self.systemError(error, path: settings.path) }
      controlLog.warning("no control socket: \(error)")
    }
  }

  /// Keeps the last fix for `status`, and hands each epoch's line (numbered by `epochsDue`) to
  /// the subscribers: from the first control request or the start of a control socket on, so that
  /// an emulator nobody controls builds no `DueEpoch`.
  func listenToEpochsForControl() {
    let state = controlState
    let dialect = configuration.profile.dialect
    state.listenerToken.withLock { token in
      guard token == nil else { return }
      // A simulated receiver's epochs carry their fix: its lines need no packets (a replay's
      // and a passthrough's fixes are read from theirs, which their loops always give).
      token = addEpochListener(needsPackets: false) { [state, weak self] epoch in
        state.lastFix.note(epoch)
        let server = state.server.withLock { $0 }
        let toSocket = server?.hasSubscribers ?? false
        let others = state.lineSubscribers.withLock {
          $0.handlers.isEmpty ? [] : Array($0.handlers.values)
        }
        guard toSocket || !others.isEmpty, let fix = state.lastFix.ofLastEpoch(), let self else {
          return
        }
        // Counted by the source whether or not anything listened, as `status`'s.
        let count = epochsDue
        let line = ControlReply.ok(
          FixReport.fields(of: fix) + [
            ("sky", FixReport.sky(of: fix, dialect: dialect)),
            ("late_ms", FixReport.lateness(nanoseconds: epoch.lateNanoseconds)),
            // Last, as before the panel's fields came: clients read it from the end.
            ("epoch", .integer(Int64(count))),
          ]
        ).line
        if toSocket { server?.publish(line) }
        for subscriber in others { subscriber(line) }
      }
    }
  }

  /// A subscriber added with `addSubscriber`, to remove it.
  public struct SubscriberToken: Hashable, Sendable {
    fileprivate let value: UInt64
  }

  /// Calls `handler` on the epoch thread with each epoch's `subscribe` line (ending in "\n"),
  /// exactly as the control socket's subscribers get it, until removed. It must not block:
  /// queue the line elsewhere. Lines are built only while someone subscribes.
  public func addSubscriber(_ handler: @escaping @Sendable (String) -> Void) -> SubscriberToken {
    listenToEpochsForControl()
    let value = controlState.lineSubscribers.withLock { subscribers in
      defer { subscribers.nextToken &+= 1 }
      subscribers.handlers[subscribers.nextToken] = handler
      return subscribers.nextToken
    }
    return SubscriberToken(value: value)
  }

  /// Removes a subscriber; it is not called after this returns, except by a call in progress.
  public func removeSubscriber(_ token: SubscriberToken) {
    _ = controlState.lineSubscribers.withLock { $0.handlers.removeValue(forKey: token.value) }
  }

  /// The route the device drives now: the last loaded through `route`, else the one it
  /// started on; nil for any other source.
  public var currentRoute: Route? {
    let (loaded, replaced) = controlState.scene.withLock {
      ($0.loadedRoute, $0.startingSourceReplaced)
    }
    if let loaded { return loaded }
    guard !replaced, case .route(let route, _) = configuration.source
    else { return nil }
    return route
  }

  /// What the source is now, as `status` says it: `fixed`, `route`, `scenario`, `replay` or
  /// `passthrough`.
  public var sourceDescription: String { sourceName }

  /// The chip profile a simulated receiver emulates; nil for a replay and a passthrough, which
  /// send what their log or receiver sent.
  public var simulatedProfileName: String? {
    liveLoop == nil ? nil : configuration.profile.name
  }

  /// A socket error as the `SystemError` `start()` throws: `cannot use control socket
  /// '/run/x.sock': Address already in use`.
  private static func systemError(_ error: any Error, path: String) -> SystemError {
    guard let error = error as? UnixSocket.SocketError else {
      return error as? SystemError ?? SystemError("use control socket", path: path, errno: EIO)
    }
    switch error {
    case .system(let error): return error
    case .live: return SystemError("use control socket", path: path, errno: EADDRINUSE)
    case .notASocket: return SystemError("use control socket", path: path, errno: EEXIST)
    case .pathTooLong: return SystemError("use control socket", path: path, errno: ENAMETOOLONG)
    case .unsafeDirectory(let folder, _):
      return SystemError("use control socket folder", path: folder, errno: EPERM)
    case .nothingListening: return SystemError("use control socket", path: path, errno: ENOENT)
    }
  }

  /// Closes every control connection and removes the socket.
  func stopControl() {
    if let token = controlState.listenerToken.withLock({ $0.take() }) {
      removeEpochListener(token)
    }
    controlState.server.withLock { $0.take() }?.close()
  }

  /// The fields of `status`'s reply.
  var statusFields: [(String, ControlReply.Value)] {
    var fields: [(String, ControlReply.Value)] = []
    if let fix = controlState.lastFix.latest { fields += FixReport.fields(of: fix) }
    let statistics = self.statistics
    fields += [
      // Every epoch that fell due since the start, counted whether or not anyone listens.
      ("epoch", .integer(Int64(epochsDue))),
      ("source", .string(sourceName)),
      ("override", overrideName.map { .string($0) } ?? .null),
      (
        "paused",
        .bool(pausedBySource ?? controlState.scene.withLock { $0.controls?.isPaused ?? false })
      ),
      ("clients", .bool(device.hasClients)),
      ("control_clients", .integer(Int64(controlState.server.withLock { $0?.clientCount ?? 0 }))),
      ("bytes_sent", .integer(Int64(statistics.bytesSent))),
      ("epochs_sent", .integer(Int64(statistics.epochsSent))),
      ("packets_sent", .integer(Int64(statistics.packetsSent))),
      ("epochs_late", .integer(Int64(statistics.epochsLate))),
      ("epochs_overrun", .integer(Int64(statistics.epochsOverrun))),
      ("epochs_without_client", .integer(Int64(statistics.epochsWithoutClient))),
      ("epochs_cut", .integer(Int64(statistics.burstsCut))),
      ("client_waits", .integer(Int64(statistics.clientWaits))),
      ("bytes_dropped", .integer(Int64(statistics.bytesDropped))),
      ("ubx_checksum_errors", .integer(Int64(statistics.ubxChecksumErrors))),
      ("ubx_length_errors", .integer(Int64(statistics.ubxLengthErrors))),
      ("commands_lost_while_booting", .integer(Int64(statistics.commandsLostWhileBooting))),
      ("replies_dropped", .integer(Int64(statistics.repliesDropped))),
      ("link", .string(link.path)),
      ("pty", .string(link.target)),
      // A replay and a passthrough send what their log or receiver sent: no rate or chip of
      // their own.
      ("rate", liveLoop == nil ? .null : .number(currentRateHertz, digits: 3)),
      ("baud", .integer(Int64(currentBaud))),
      ("profile", simulatedProfileName.map { .string($0) } ?? .null),
    ]
    fields += playbackFields
    fields += sourceStatusFields
    return fields
  }

  /// `route_seconds`, `route_time` and `scale` of a simulated scene's route or scenario (see
  /// `LiveControls.routeSeconds`); null for a replay or a passthrough.
  private var playbackFields: [(String, ControlReply.Value)] {
    let fields = ["route_seconds", "route_time", "scale"]
    guard let loop = liveLoop else { return fields.map { ($0, .null) } }
    let now = loop.simulatedNow()
    let controls = loop.plan.withLock { plan in
      controlState.scene.withLock { $0.controls } ?? startingControls(plan)
    }
    guard let controls else { return fields.map { ($0, .null) } }
    func seconds(_ value: Double?) -> ControlReply.Value {
      value.map { .number($0, digits: 3) } ?? .null
    }
    return [
      ("route_seconds", seconds(controls.routeSeconds)),
      ("route_time", seconds(controls.routeTime(at: now))),
      ("scale", .number(controls.scale, digits: 3)),
    ]
  }

  /// The controls before any change: nothing changed of the plan's scene (nil when the source
  /// is not a simulated scene).
  private func startingControls(_ plan: EpochLoop.Plan) -> LiveControls? {
    guard let current = plan.source as? SceneSource else { return nil }
    return LiveControls(base: current, motionStartTime: plan.time.simulatedOrigin)
  }

  private var sourceName: String {
    if controlSource == .passthrough { return "passthrough" }
    if let named = controlState.scene.withLock({ $0.sourceName }) { return named }
    switch configuration.source {
    case .fixed: return "fixed"
    case .route: return "route"
    case .scenario: return "scenario"
    case .replay: return "replay"
    }
  }

  /// The passthrough's override: the last `override` asked, else the one it started with;
  /// nil for another source.
  private var overrideName: String? {
    controlState.overrideName.withLock { $0 } ?? configuration.passthrough?.override.rawValue
  }

  private var currentRateHertz: Double {
    guard let loop = liveLoop else { return configuration.cadence.rateHz }
    return loop.plan.withLock { $0.scheduler.cadence.rateHz }
  }

  /// `rate`: the navigation rate of a simulated receiver.
  func setRate(_ hertz: Double) -> ControlReply {
    guard let loop = liveLoop else { return refusedForRunner(.rate(hertz: hertz)) }
    do {
      loop.apply([.setRate(try CadencePlan(rateHz: hertz))])
      return .ok()
    } catch {
      return .refused("rate: \(error)")
    }
  }

  /// `override`: what a passed-through receiver's position becomes.
  func setOverride(_ request: OverrideRequest) -> ControlReply {
    guard var settings = configuration.passthrough else {
      return .refused("override applies to a passthrough (--passthrough) only")
    }
    guard let mode = PassthroughSettings.OverrideMode(rawValue: request.mode.rawValue) else {
      return .refused("override: unknown mode '\(request.mode.rawValue)'")
    }
    settings.override = mode
    settings.offset = nil
    if let north = request.northMeters, let east = request.eastMeters {
      settings.offset = .init(northMeters: north, eastMeters: east)
    }
    settings.replacesAltitude = request.position != nil
    let source =
      request.position.map { EmulatorConfiguration.Source.fixed($0) }
      ?? configuration.source
    do {
      setOverride(try settings.positionOverride(source: source, start: SystemUTCClock().now()))
    } catch {
      return .refused("override: \(error)")
    }
    controlState.overrideName.withLock { $0 = mode.rawValue }
    return .ok()
  }

  /// How many times a `route` request is planned when the receiver is moved each time it is
  /// (a source replaced or a motion request answered meanwhile): then it is refused, to be
  /// sent again.
  static let routePlanningAttempts = 3

  /// A change of the simulated scene through `LiveControls`, or a `route` file to drive
  /// (opened with the rights of `requester`).
  func changeSimulation(_ request: ControlRequest, from requester: ControlRequester)
    -> ControlReply
  {
    guard let loop = liveLoop else { return refusedForRunner(request) }
    let notScene = ControlReply.refused(
      "\(request.command): this emulator's source is not a simulated scene")
    if case .route(let path, let speed, let loops) = request {
      let route: Route
      switch RouteLoading.load(path: path, for: requester, log: controlLog) {
      case .success(let loaded): route = loaded
      case .failure(let refusal): return .refused("route: \(refusal)")
      }
      // Planning a long route takes seconds, which the epoch loop must not wait for: it is
      // planned from where the controls put the receiver now, outside the plan's lock, then
      // followed by the controls as they are by then (what the chip changed stays; a change of
      // the fix or the sky answered meanwhile is superseded, as by a route sent after it). A
      // route that starts where the receiver is is planned again when the receiver was moved
      // meanwhile (a source replaced, a motion request answered), as a route sent after that
      // would start from there.
      for _ in 0..<Self.routePlanningAttempts {
        let now = loop.simulatedNow()
        let reading = loop.plan.withLock {
          plan -> (LiveControls, EmulatorControlState.MotionMark)? in
          let (controls, mark) = controlState.scene.withLock { ($0.controls, $0.motionMark) }
          return (controls ?? startingControls(plan)).map { ($0, mark) }
        }
        guard let (planning, mark) = reading else { return notScene }
        let planned = planning.plannedRoute(
          route, speedMetersPerSecond: speed, loops: loops, at: now)
        controlState.routePlanned.withLock { $0 }?()
        let reply = loop.changePlan { plan -> ControlReply? in
          let (stored, markNow) = controlState.scene.withLock { ($0.controls, $0.motionMark) }
          if planned.startsWhereTheReceiverIs, markNow != mark { return nil }
          guard var controls = stored ?? startingControls(plan) else { return notScene }
          controls.follow(planned)
          return install(controls, in: &plan, route: route) ? .ok() : notScene
        }
        if let reply { return reply }
      }
      return .refused(
        "route: the receiver was moved during each of the \(Self.routePlanningAttempts) "
          + "plannings of the route (from where it was); send the request again")
    }
    let now = loop.simulatedNow()
    return loop.changePlan { plan -> ControlReply in
      guard var controls = controlState.scene.withLock({ $0.controls }) ?? startingControls(plan)
      else { return notScene }
      do throws(ControlRequestError) {
        try controls.apply(request, at: now)
      } catch {
        return .refused(error.message)
      }
      return install(controls, in: &plan) ? .ok() : notScene
    }
  }

  /// Makes `controls` the source of `plan`, keeping the rate and output that clients set
  /// since (they live in the current source), and with `route`, the route it now drives (the
  /// source `status` names); false when the source is not a simulated scene.
  private func install(_ controls: LiveControls, in plan: inout EpochLoop.Plan, route: Route? = nil)
    -> Bool
  {
    guard let current = plan.source as? SceneSource else { return false }
    var next = controls.source
    next.encoder = current.encoder
    next.epochPeriodNanoseconds = current.epochPeriodNanoseconds
    plan.source = next
    controlState.scene.withLock {
      $0.controls = controls
      if let route {
        $0.sourceName = "route"
        $0.loadedRoute = route
      }
    }
    return true
  }

  /// The refusal of a request the emulator cannot answer from its source (a replay or
  /// passthrough, or an emulator whose loop has not started).
  private func refusedForRunner(_ request: ControlRequest) -> ControlReply {
    let source: ControlSource = configuration.passthrough != nil ? .passthrough : .replay
    guard let command = request.definition else { return .refused(request.command) }
    return .refused(command.refusal(on: source))
  }

  /// `pause`, `resume` and `seek` on a replay (see `ReplaySteering`): a pause is silence, as a
  /// receiver whose log stops; a seek's reply tells where the replay goes on.
  func steer(_ replay: ReplayLoop, _ request: ControlRequest) -> ControlReply {
    do throws(ReplayLoop.SteeringRefusal) {
      switch request {
      case .pause:
        try replay.pause()
      case .resume:
        try replay.resume()
      case .seek(let seconds):
        let landing = try replay.seek(seconds: seconds)
        return .ok([
          ("time", .number(landing.targetSeconds, digits: 3)),
          ("epoch_offset", .number(landing.epochSeconds, digits: 3)),
          ("past_end", .bool(landing.isPastTheEnd)),
        ])
      default:
        return refusedForRunner(request)
      }
      return .ok()
    } catch {
      switch error {
      case .ended: return .refused("\(request.command): the replay has ended")
      case .notPaused: return .refused("resume: nothing to resume: the replay is not paused")
      case .seek(let refusal): return .refused("seek: \(refusal)")
      }
    }
  }
}
