import DeviceRuntime
import DeviceSources
import Glibc
import InputFiles
import MockGPS
import Panel
import Replay
import RouteFiles
import Simulation
import SystemIO

/// Exit codes, as in sysexits.h.
enum ExitCode {
  static let success: Int32 = 0
  static let failure: Int32 = 1
  static let usage: Int32 = 64
  static let dataError: Int32 = 65
  static let noInput: Int32 = 66
}

/// `mockgps run`: start the emulator, wait for a termination signal or the end of the source,
/// stop cleanly.
enum RunCommand {
  static func execute(_ options: RunOptions) -> Int32 {
    if let path = options.configPath {
      return ManyDevicesRun.execute(
        configPath: path, shard: options.shard, logLevel: options.logLevel,
        panel: options.panel, panelFiles: options.panelFiles)
    }
    // Clients of the network outputs and the control socket are served up to the hard limit.
    OpenFilesLimit.raiseToHardLimit()
    // The route, scenario or log is read and checked before anything is opened or any thread
    // starts; a termination signal meanwhile ends the process as usual, since there is nothing
    // to clean up yet.
    let inputs: Inputs
    switch readInputs(options) {
    case .success(let read): inputs = read
    case .failure(let failure):
      writeError(failure.text)
      return failure.code
    }
    let panelListener: PanelListener?
    switch PanelOption.listen(options.panel) {
    case .success(let listener): panelListener = listener
    case .failure(let failure):
      writeError(failure.text)
      return failure.code
    }
    // Before any thread starts (the log's writer is the first): every thread inherits the mask,
    // so termination signals wait for the main thread's sigwait instead of killing the process
    // with the link still in place; the wake-up signal alike.
    SignalSet.termination.block()
    let sourceEnded = ThreadWakeUp()
    let log = Log(level: options.logLevel)
    let emulator: Emulator
    let configuration: EmulatorConfiguration
    switch makeEmulator(options, inputs, log: log) {
    case .success(let made): (emulator, configuration) = made
    case .failure(let failure):
      writeError(failure.text)
      return failure.code
    }
    if let failure = start(emulator, configuration, log: log) {
      writeError(failure.text)
      return failure.code
    }
    let panel: PanelServer?
    switch PanelOption.serve(panelListener, [emulator], filesDirectory: options.panelFiles) {
    case .success(let server): panel = server
    case .failure(let failure):
      emulator.stop()
      writeError(failure.text)
      return failure.code
    }
    // Only `--once` ends the run with the source; otherwise the receiver stays at the end.
    if options.playback.once { emulator.onFinished { sourceEnded.wake() } }
    let reason = waitForTermination(wakeUp: sourceEnded) {
      options.playback.once && emulator.isFinished
    }
    if options.playback.once && emulator.isFinished {
      drain(emulator, options, log: log)
    }
    log.info("\(reason): removing \(emulator.link.path) and stopping")
    panel?.stop()
    emulator.stop()
    let code = logSummary(of: emulator, log: log)
    // A reader of standard error that stopped reading gets half a second, not a hung exit.
    log.flush()
    return code
  }

  /// Why a device could not be set up or started: the text for standard error, and the exit
  /// code.
  struct Failure: Error {
    var text: String
    var code: Int32
  }

  /// What a device reads before anything is opened: its route or scenario, log and almanac.
  struct Inputs {
    var source: EmulatorConfiguration.Source?
    var replay: ReplayReader?
    var almanac: [AlmanacEntry]?
  }

  /// Reads and checks the files `options` name; the route or scenario and the almanac are
  /// taken from `checked` when a config's check read them already.
  static func readInputs(_ options: RunOptions, checked: DeviceConfig.CheckedInputs? = nil)
    -> Result<Inputs, Failure>
  {
    var inputs = Inputs(source: checked?.source, replay: nil, almanac: checked?.almanac)
    do {
      if checked == nil {
        inputs.source = try options.playback.source()
        inputs.almanac = try options.almanacPath.map { (path) throws(InputFileError) in
          try AlmanacFile.load(path: path)
        }
      }
      inputs.replay = try options.playback.openReplay()
    } catch {
      return .failure(Failure(text: error.description + "\n", code: error.exitCode))
    }
    do {
      try options.playback.checkStart(
        options.configuration.startTime, of: inputs.source ?? options.configuration.source)
    } catch {
      return .failure(Failure(text: error.report, code: ExitCode.usage))
    }
    return .success(inputs)
  }

  /// Opens the device and publishes the link, not yet emitting; logs the budget warning. Its
  /// simulated time counts from `wallClockStart` when given (see
  /// `EmulatorConfiguration.wallClockStart`).
  static func makeEmulator(
    _ options: RunOptions, _ inputs: sending Inputs, log: Log, runtime: EmulatorRuntime? = nil,
    wallClockStart: UTCInstant? = nil
  ) -> Result<(Emulator, EmulatorConfiguration), Failure> {
    var configuration = options.resolvedConfiguration(log: log)
    configuration.wallClockStart = wallClockStart
    if let source = inputs.source { configuration.source = source }
    if let almanac = inputs.almanac { configuration.sky.almanac = almanac }
    let emulator: Emulator
    do {
      if let replay = inputs.replay {
        prepareReplay(of: replay.header, path: replay.path, &configuration, options, log)
        emulator = try Emulator(
          configuration: configuration, replaying: replay, log: log, runtime: runtime)
      } else {
        emulator = try Emulator(configuration: configuration, log: log, runtime: runtime)
      }
    } catch .unknownGroup(let name) {
      return .failure(
        Failure(
          text: UsageError.invalidValue(name, for: "--group", "no such group on this system")
            .report, code: ExitCode.usage))
    } catch .passthrough(let error) {
      return .failure(
        Failure(
          text: "mockgps: \(error)\n",
          code: error.isMissingInput ? ExitCode.noInput : ExitCode.failure))
    } catch .chipState(let error) {
      return .failure(Failure(text: error.description + "\n", code: error.exitCode))
    } catch .tooFast(let error) {
      return .failure(
        Failure(
          text: UsageError(message: "invalid combination of '--rate' and '--time-scale': \(error)")
            .report, code: ExitCode.usage))
    } catch {
      return .failure(
        Failure(
          text: "mockgps: \(error)\n" + (error.hint.map { "hint: \($0)\n" } ?? ""),
          code: ExitCode.failure))
    }
    if let warning = emulator.budgetWarning { log.warning(warning) }
    return .success((emulator, configuration))
  }

  /// Starts emitting and prints the start line; on failure the emulator is stopped.
  static func start(_ emulator: Emulator, _ configuration: EmulatorConfiguration, log: Log)
    -> Failure?
  {
    do {
      try emulator.start()
    } catch {
      emulator.stop()
      return Failure(text: "mockgps: \(error)\n", code: ExitCode.failure)
    }
    // The rate and baud in effect: the chip's saved memory may have set others.
    let receiver = receiver(emulator.configurationInEffect)
    print(
      "mockgps: \(emulator.link.path) -> \(emulator.link.target) (\(receiver))"
        + (NetworkOptions.summary(emulator).map { ", \($0)" } ?? ""))
    fflush(nil)
    if let passthrough = configuration.passthrough { log.info(passthrough.summary) }
    if let control = emulator.controlSocketPath { log.info("control socket: \(control)") }
    return nil
  }

  /// At the end of a `--once` source: the last epoch reaches the clients before the device
  /// goes; a replay's clients may still have the whole queue of the pseudo-terminal to read.
  static func drain(_ emulator: Emulator, _ options: RunOptions, log: Log) {
    let milliseconds = options.playback.isReplay ? replayDrainMilliseconds : 1000
    if !emulator.waitUntilClientsHaveRead(milliseconds: milliseconds) {
      log.warning("the clients did not read the last bytes within \(milliseconds / 1000) s")
    }
  }

  /// Logs what a stopped emulator did, and returns the exit code it ends with.
  static func logSummary(of emulator: Emulator, log: Log) -> Int32 {
    let statistics = emulator.statistics
    if let reader = emulator.replayReaderStatistics {
      log.info(
        "\(statistics.replaySummary(reader: reader)); \(statistics.connections) client connections")
      return emulator.replayFailure?.exitCode ?? ExitCode.success
    }
    if let passthroughStatistics = emulator.passthroughStatistics {
      log.info(
        "\(passthroughStatistics.summary(device: statistics)); \(statistics.connections) client connections"
      )
      return ExitCode.success
    }
    log.info(
      "sent \(statistics.epochsSent) epochs to \(statistics.connections) client connections, "
        + "\(statistics.epochsWithoutClient) without a client; "
        + "\(statistics.epochsOverrun) dropped for unread data, \(statistics.epochsLate) late, "
        + "\(statistics.burstsCut) cut short, of \(statistics.epochsDue) due "
        + "(\(statistics.burstsFellBehind) of them behind their pacing); "
        + "\(statistics.commandsReceived) client messages, "
        + "\(statistics.clientBytesDiscarded) client bytes and "
        + "\(statistics.clientSentencesRejected) bad-checksum sentences dropped")
    return ExitCode.success
  }

  /// What the start line says of the receiver: the profile, rate, baud and source; a replay's
  /// baud and log; or the real receiver passed through.
  static func receiver(_ configuration: EmulatorConfiguration) -> String {
    if let passthrough = configuration.passthrough {
      return "passing through \(passthrough.target)"
    }
    let baud =
      configuration.pacing.baud == 0 ? "unpaced" : "\(configuration.pacing.baud) baud"
    if case .replay = configuration.source { return "\(baud), \(configuration.source)" }
    let delay = configuration.effectiveOutputDelay
    let delayText = delay == .none ? "" : "output delay \(delay), "
    return "\(configuration.profile.name) at \(configuration.cadence.rateText) Hz, \(baud), "
      + delayText + "\(configuration.source)"
  }

  /// How long `--once` waits at the end of a log for the clients to read what is queued.
  static let replayDrainMilliseconds = 10_000

  /// Sets up a replay from its log's header: the pacing at the log's `# Serial:` baud unless
  /// `--baud` was given, and warnings for what mockgps does not do as the log asks.
  static func prepareReplay(
    of header: LogHeader, path: String, _ configuration: inout EmulatorConfiguration,
    _ options: RunOptions, _ log: Log
  ) {
    if !options.baudIsExplicit {
      let (pacing, warning) = PlaybackOptions.replayPacing(header)
      configuration.pacing = pacing
      if let warning { log.warning("\(path): \(warning)") }
    }
    if header.transport != .pty {
      log.warning(
        "\(path): '# Transport: \(header.transport.rawValue.uppercased())' is for gpsd's test "
          + "harness; mockgps replays it on the pseudo-terminal")
    }
  }

  /// Waits for a termination signal, or for `wakeUp` when `sourceHasEnded`, and says which.
  /// Call it on the thread that created `wakeUp`.
  static func waitForTermination(wakeUp: ThreadWakeUp, sourceHasEnded: () -> Bool) -> String {
    while true {
      let signal = SignalSet.termination.wait(orWakeUp: wakeUp)
      guard signal == ThreadWakeUp.signal else { return signalName(signal) }
      // A SIGUSR1 from outside is not the end of the source: wait on.
      if sourceHasEnded() { return "the source has ended" }
    }
  }

  static func writeError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }

  static func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGINT: return "SIGINT"
    case SIGTERM: return "SIGTERM"
    case SIGHUP: return "SIGHUP"
    default: return "signal \(signal)"
    }
  }
}
