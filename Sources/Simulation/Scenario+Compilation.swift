/// What a run of a scenario plays: the scene (scripted motion, sky, fix faults) and the faults on
/// the wire.
public struct CompiledScenario: Sendable {
  /// The simulated time the run starts at.
  public var startTime: UTCInstant
  /// The world, with the scenario's moves as its `ScriptedMotion` and its fix faults.
  public var scene: Scene
  /// Silence and corruption.
  public var wireFaults: WireFaults
}

extension Scenario {
  /// Which actions replace one another: an action lasts for its duration, or until the next
  /// action of the same kind, or for ever.
  enum FaultKind: Hashable {
    case fix, dop, satellites, outage, jump, noise, clock, coldStart, silence, corrupt
  }

  /// The scene and wire faults of this scenario under `sky`.
  ///
  /// Moves become the steps of one `ScriptedMotion`. Every other action becomes timed faults of
  /// the one fault machinery (`FixFaults`, `WireFaults`), so a control socket can inject the
  /// same ones at run time. A fault starts at its event's time and ends after its duration, at
  /// the next action of the same kind, or never, whichever comes first; a cold start lasts its
  /// time to first fix.
  public func compiled(
    sky: any Sky = StaticSky.typicalGPS, geoidSeparationMeters: Double = 0
  ) -> CompiledScenario {
    var steps: [ScriptedMotion.Step] = []
    var fixFaults: [FixFault] = []
    var wireFaults: [WireFault] = []
    let windows = faultWindows()
    for (index, event) in timeline.enumerated() {
      if let leg = Self.leg(event.action, limits: limits) {
        steps.append(ScriptedMotion.Step(at: event.at, leg: leg))
        continue
      }
      guard let window = windows[index] else { continue }
      let faults = event.action.faults(since: event.at, window: window, seed: seed)
      fixFaults += faults.fix
      wireFaults += faults.wire
    }
    let motion = ScriptedMotion(
      start: startPosition, startTime: startTime, steps: steps, limits: limits)
    return CompiledScenario(
      startTime: startTime,
      scene: Scene(
        motion: motion, sky: sky, geoidSeparationMeters: geoidSeparationMeters,
        faults: FixFaults(fixFaults)),
      wireFaults: WireFaults(wireFaults))
  }

  /// The leg of a move; nil for the other actions.
  static func leg(_ action: Action, limits: DrivingLimits) -> ScriptedMotion.Leg? {
    switch action {
    case .hold: return .hold
    case .goto(let position, let speed):
      return .goto(position, speedMetersPerSecond: speed ?? limits.speedMetersPerSecond)
    case .route(let route, let speed): return .route(route, speedMetersPerSecond: speed)
    default: return nil
    }
  }

  /// The kind of fault a non-move action is.
  static func faultKind(_ action: Action) -> FaultKind? {
    switch action {
    case .hold, .goto, .route: return nil
    case .fix: return .fix
    case .dop: return .dop
    case .satellites: return .satellites
    case .outage: return .outage
    case .jump: return .jump
    case .noise: return .noise
    case .clock: return .clock
    case .coldStart: return .coldStart
    case .silence: return .silence
    case .corrupt: return .corrupt
    }
  }

  /// When the fault of each event is active; nil for moves and for faults that are never
  /// active (replaced at once by one of the same kind). One pass from the end, so that long
  /// timelines compile in linear time.
  func faultWindows() -> [FaultWindow?] {
    var windows = [FaultWindow?](repeating: nil, count: timeline.count)
    var nextOfKind: [FaultKind: UTCInstant] = [:]
    for (index, event) in timeline.enumerated().reversed() {
      guard let kind = Self.faultKind(event.action) else { continue }
      var until: UTCInstant?
      if case .coldStart(let timeToFirstFix) = event.action {
        until = event.at.clampedAdding(nanoseconds: timeToFirstFix)
      } else if let duration = event.durationNanoseconds {
        until = event.at.clampedAdding(nanoseconds: duration)
      }
      if let next = nextOfKind[kind] { until = min(until ?? next, next) }
      nextOfKind[kind] = event.at
      if let until, until <= event.at { continue }
      windows[index] = FaultWindow(from: event.at, until: until)
    }
    return windows
  }
}

extension Scenario.Action {
  /// The timed faults this action injects in `window`, drawing its randomness from `seed`: what a
  /// scenario compiles it to, and what a control socket injects for it at run time. Moves give
  /// none.
  ///
  /// - Parameter since: When the action happens (a cold start counts its time to first fix from
  ///   there).
  public func faults(
    since: UTCInstant, window: FaultWindow, seed: UInt64
  ) -> (fix: [FixFault], wire: [WireFault]) {
    var seeds = FaultRandomNumberGenerator(seed: seed)
    let noiseSeed = seeds.next()
    let corruptionSeed = seeds.next()
    switch self {
    case .silence: return ([], [WireFault(.silence, window: window)])
    case .corrupt(let rate, let style):
      let kind = WireFaultKind.corruptSentences(rate: rate, style: style, seed: corruptionSeed)
      return ([], [WireFault(kind, window: window)])
    default:
      let kinds = fixFaultKinds(since: since, noiseSeed: noiseSeed)
      return (kinds.map { FixFault($0, window: window) }, [])
    }
  }

  /// The fix faults of an action that acts on the fix.
  func fixFaultKinds(since: UTCInstant, noiseSeed: UInt64) -> [FixFaultKind] {
    switch self {
    case .fix(.none): return [.forceMode(.noFix)]
    case .fix(.twoDimensional): return [.forceMode(.twoDimensional)]
    case .fix(.threeDimensional): return []
    case .fix(.dgps): return [.correction(.differential)]
    case .fix(.rtkFloat): return [.correction(.rtkFloat)]
    case .fix(.rtkFixed): return [.correction(.rtkFixed)]
    case .dop(.scale(let factor)): return [.scaleDOP(by: factor)]
    case .dop(.values(let horizontal, let vertical, let position)):
      return [.setDOP(horizontal: horizontal, vertical: vertical, position: position)]
    case .satellites(let count): return [.loseSatellites(.keepUsed(count))]
    case .outage: return [.loseSatellites(.all)]
    case .jump(let north, let east, let up):
      return [.jump(northMeters: north, eastMeters: east, upMeters: up)]
    case .noise(let sigma, let timeConstant):
      return [
        .gaussMarkovNoise(
          GaussMarkovNoise(sigmaMeters: sigma, timeConstantSeconds: timeConstant, seed: noiseSeed))
      ]
    case .clock(let offset): return [.clockOffset(nanoseconds: offset)]
    case .coldStart(let timeToFirstFix):
      return [.coldStart(since: since, timeToFirstFixNanoseconds: timeToFirstFix)]
    case .hold, .goto, .route, .silence, .corrupt: return []
    }
  }
}
