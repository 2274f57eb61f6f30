import DeviceRuntime
import MockGPS
import Panel
import SystemIO

/// `mockgps run --config FILE`: every device of the file in one process, started together and
/// stopped together.
///
/// Every error of every device, its files' included, is reported before anything opens (the
/// run exits with the first's code); a device that cannot open or start stops those already
/// open, and the run exits with its code. SIGINT, SIGTERM and SIGHUP stop
/// them all and remove every link. The run ends with its source only when every device has
/// `once`; then it ends when the last one has finished.
enum ManyDevicesRun {
  static func execute(
    configPath: String, shard: Shard? = nil, logLevel: Log.Level, panel: InternetAddress? = nil,
    panelFiles: String? = nil
  ) -> Int32 {
    // Every error of every device (the shard's, for the files they name) before anything
    // opens; the routes, scenarios and almanacs read then are the ones run (a log is opened
    // again as its device opens: a replay reader goes to its emulator alone).
    let config: DeviceConfig
    do {
      config = try DeviceConfig.load(
        path: configPath, selecting: { devices in shard.map { $0.select(devices) } ?? devices })
    } catch {
      RunCommand.writeError(error.text)
      return error.code
    }
    let devices = shard.map { $0.select(config.devices) } ?? config.devices
    if let shard, devices.isEmpty {
      RunCommand.writeError(
        "mockgps: --shard \(shard.index)/\(shard.count): \(configPath) has "
          + "\(config.devices.count) device(s), none of them this shard's\n")
      return ExitCode.usage
    }
    let needed = descriptorsNeeded(devices.map(\.options))
    let limit = OpenFilesLimit.raiseToHardLimit()
    if needed > limit {
      RunCommand.writeError(
        "mockgps: \(devices.count) devices need at least \(needed) open files (two for a "
          + "pseudo-terminal, one for each socket), and this process may open \(limit): raise the hard limit "
          + "('ulimit -Hn', or LimitNOFILE= in a unit), or spread the devices with --shard\n")
      return ExitCode.failure
    }
    // The kernel opens one fewer than kernel.pty.max (it refuses when the count reaches it).
    // Inside a container the cap is lower still (kernel.pty.reserve, a devpts max=): this
    // check catches the common case, not every one.
    if let terminals = PseudoTerminalLimit.current(),
      devices.count > terminals.maximum - terminals.inUse - 1
    {
      RunCommand.writeError(
        "mockgps: \(devices.count) devices need as many pseudo-terminals, and the system has "
          + "\(max(0, terminals.maximum - terminals.inUse - 1)) free (kernel.pty.max is "
          + "\(terminals.maximum), \(terminals.inUse) in use): raise it ('sysctl -w "
          + "kernel.pty.max=\(terminals.inUse + devices.count + 1024)'), or spread the devices "
          + "over other hosts with --shard\n")
      return ExitCode.failure
    }
    let panelListener: PanelListener?
    switch PanelOption.listen(panel) {
    case .success(let listener): panelListener = listener
    case .failure(let failure):
      RunCommand.writeError(failure.text)
      return failure.code
    }
    // As in a run of one device: before any thread starts.
    SignalSet.termination.block()
    let sourceEnded = ThreadWakeUp()
    let log = Log(level: logLevel)
    if let shard {
      log.info(
        "shard \(shard.index)/\(shard.count): \(devices.count) of the \(config.devices.count) devices of "
          + configPath)
    }
    // One scheduler thread and one I/O thread for every device.
    let runtime: EmulatorRuntime
    do {
      runtime = try EmulatorRuntime()
    } catch {
      RunCommand.writeError("mockgps: \(error)\n")
      return ExitCode.failure
    }
    defer { runtime.stop() }
    var running: [(emulator: Emulator, log: Log, options: RunOptions)] = []
    func stopAll() {
      for device in running { device.emulator.stop() }
    }
    var configurations: [EmulatorConfiguration] = []
    // One start for all: the devices' simulated seconds line up, whenever each is made.
    let wallClockStart = runtime.clock.now()
    for device in devices {
      let deviceLog = log.labelled(device.options.configuration.linkPath)
      let made: Result<(Emulator, EmulatorConfiguration), RunCommand.Failure>
      switch RunCommand.readInputs(device.options, checked: device.inputs) {
      case .success(let inputs):
        made = RunCommand.makeEmulator(
          device.options, inputs, log: deviceLog, runtime: runtime, wallClockStart: wallClockStart)
      case .failure(let failure): made = .failure(failure)
      }
      switch made {
      case .success(let (emulator, configuration)):
        running.append((emulator, deviceLog, device.options))
        configurations.append(configuration)
      case .failure(let failure):
        stopAll()
        RunCommand.writeError(labelled(failure.text, device.label))
        log.flush()
        return failure.code
      }
    }
    for (index, device) in running.enumerated() {
      if let failure = RunCommand.start(device.emulator, configurations[index], log: device.log) {
        stopAll()
        RunCommand.writeError(labelled(failure.text, devices[index].label))
        log.flush()
        return failure.code
      }
    }
    let panelServer: PanelServer?
    switch PanelOption.serve(
      panelListener, running.map(\.emulator), filesDirectory: panelFiles)
    {
    case .success(let server): panelServer = server
    case .failure(let failure):
      stopAll()
      RunCommand.writeError(failure.text)
      log.flush()
      return failure.code
    }
    let endsWithSources = running.allSatisfy { $0.options.playback.once }
    if endsWithSources {
      for device in running { device.emulator.onFinished { sourceEnded.wake() } }
    }
    let reason = RunCommand.waitForTermination(wakeUp: sourceEnded) {
      endsWithSources && running.allSatisfy { $0.emulator.isFinished }
    }
    if endsWithSources && running.allSatisfy({ $0.emulator.isFinished }) {
      for device in running { RunCommand.drain(device.emulator, device.options, log: device.log) }
    }
    log.info("\(reason): removing \(running.count) links and stopping")
    panelServer?.stop()
    stopAll()
    var code = ExitCode.success
    for device in running {
      let deviceCode = RunCommand.logSummary(of: device.emulator, log: device.log)
      if code == ExitCode.success { code = deviceCode }
    }
    log.flush()
    return code
  }

  /// The descriptors a run of `devices` holds however many clients come: each device's
  /// pseudo-terminal and listening sockets (control, TCP, UDP), and the process's own (standard
  /// streams, the threads' wake-ups, epoll, inotify, the panel) with room for a few clients.
  static func descriptorsNeeded(_ devices: [RunOptions]) -> Int {
    let perDevice = devices.reduce(0) { sum, device in
      let configuration = device.configuration
      // The pseudo-terminal's master, and the slave the device holds while clients have it.
      return sum + 2 + (configuration.control == nil ? 0 : 1) + (configuration.tcp == nil ? 0 : 1)
        + (configuration.udp == nil ? 0 : 1) + (configuration.passthrough == nil ? 0 : 1)
    }
    return perDevice + 64
  }

  /// An error text for one device: `mockgps: devices[2] (link /tmp/gps2): …` on each line
  /// that starts with `mockgps: `, and the label before any other first line.
  static func labelled(_ text: String, _ label: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for index in lines.indices where lines[index].hasPrefix("mockgps: ") {
      lines[index] = "mockgps: \(label): " + lines[index].dropFirst("mockgps: ".count)
    }
    if let first = lines.first, !first.hasPrefix("mockgps: ") {
      lines[0] = "mockgps: \(label): " + first
    }
    return lines.joined(separator: "\n")
  }
}
