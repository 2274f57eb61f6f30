import InputFiles
import MockGPS
import RouteFiles
import SystemIO

/// The devices of a `--config` file, each read by `run`'s own parser, with every error worded
/// after the file, the device and its key:
/// `fleet.json:14: devices[3] (link /tmp/gps3): rate: expected a rate in Hz from 0.1 to 20, got 50`.
struct DeviceConfig {
  /// One device ready to run.
  struct Device {
    /// `devices[3] (link /tmp/gps3)`.
    var label: String
    var options: RunOptions
    /// Its files as they were checked, when they were read (by `load`, for the devices it
    /// selects) and held no error.
    var inputs: CheckedInputs? = nil
  }

  var devices: [Device]

  /// Keys of `run` that do not belong to a device, with why.
  static let refusedKeys = [
    "config": "a device cannot name another config file",
    "help": "not an option of a device",
    "verbose": "the log level is the process's: give --verbose on the command line",
    "quiet": "the log level is the process's: give --quiet on the command line",
    "panel": "the panel is the process's: give --panel with --config on the command line",
    "panel-files":
      "the panel is the process's: give --panel-files with --config on the command line",
    "shard": "the shard is the process's: give --shard with --config on the command line",
  ]

  /// The keys a device takes: `run`'s long options without their dashes.
  static var acceptedKeys: [String] {
    RunOptions.allOptions.map { String($0.dropFirst(2)) }.filter { refusedKeys[$0] == nil }
  }

  /// Keys that take `true` or `false`.
  static var flagKeys: Set<String> {
    Set(RunOptions.flags.map { String($0.dropFirst(2)) })
  }

  /// Keys naming files to read, resolved against the config file's folder.
  static let fileKeys: Set<String> = ["route", "scenario", "replay", "almanac", "state-dir"]

  /// Reads and checks the file at `path`, and the files its devices name (route, scenario,
  /// log, almanac) by `run`'s own readers: those of every device, or of the devices `selecting`
  /// keeps (a shard's). Every error is reported, in the config file's line order.
  ///
  /// - Throws: every error found, with the exit code of the first: 66 when the config file is
  ///   missing or unreadable, 65 when it is wrong; a device's file gives its reader's code (66
  ///   missing, 65 wrong), a start time after its track 64.
  static func load(
    path: String, selecting: ([Device]) -> [Device] = { $0 }
  ) throws(RunCommand.Failure) -> DeviceConfig {
    let file: DeviceConfigFile
    do {
      file = try DeviceConfigFile.load(
        path: path, flags: flagKeys, fileKeys: fileKeys, refusal: refusal)
    } catch {
      throw RunCommand.Failure(text: error.description + "\n", code: error.exitCode)
    }
    let checked = check(file, name: path, readingFilesOf: selecting)
    guard let first = checked.problems.first else { return DeviceConfig(devices: checked.devices) }
    throw RunCommand.Failure(
      text: checked.problems.map { $0.diagnostic.description + "\n" }.joined(), code: first.code)
  }

  /// Why a device cannot have `key`, or nil when it can.
  static func refusal(_ key: String) -> String? {
    if let reason = refusedKeys[key] { return reason }
    let accepted = acceptedKeys
    if accepted.contains(key) { return nil }
    return "unknown key (expected one of \(accepted.joined(separator: ", ")))"
  }

  /// Parses each device of `file` with `RunOptions.parse`, collecting every error; reads no
  /// file the devices name.
  static func make(_ file: DeviceConfigFile, name: String) throws(InputFileError) -> DeviceConfig {
    let checked = check(file, name: name, readingFilesOf: { _ in [] })
    guard checked.problems.isEmpty else { throw .invalid(checked.problems.map(\.diagnostic)) }
    return DeviceConfig(devices: checked.devices)
  }

  /// One error of a config file, with the exit code it gives as the first.
  struct Problem {
    var diagnostic: InputDiagnostic
    var code: Int32
    /// The place in the file's `devices` of the device it is about (-1: the file's top
    /// level): on one line, the devices' problems keep the devices' order.
    var device: Int
  }

  /// Parses each device of `file` with `RunOptions.parse`, then reads the files of the devices
  /// `readingFilesOf` keeps of those that parsed (with an error or not), with every error in
  /// line order.
  static func check(
    _ file: DeviceConfigFile, name: String, readingFilesOf selecting: ([Device]) -> [Device]
  ) -> (devices: [Device], problems: [Problem]) {
    var problems = file.problems.map {
      Problem(diagnostic: $0.diagnostic, code: ExitCode.dataError, device: $0.deviceIndex ?? -1)
    }
    var devices: [Device] = []
    // Every device that parsed, in file order, those with an error too: their files are read
    // all the same (without a refused value).
    var parsed: [Device] = []
    // The first device of each link, control socket and TCP address (port 0 never conflicts).
    var links: [String: String] = [:]
    var controls: [String: String] = [:]
    var tcpAddresses: [InternetAddress: String] = [:]
    // Each device as the file has it, for the lines of the keys naming its files.
    var written: [String: DeviceConfigFile.Device] = [:]
    for device in file.devices {
      func problem(_ key: String?, _ message: String) {
        let line = device.settings.first { $0.key == key }?.line ?? device.line
        let path = device.label + (key.map { ": \($0)" } ?? "")
        problems.append(
          Problem(
            diagnostic: InputDiagnostic(
              InputLocation(file: name, line: line, jsonPath: path), message),
            code: ExitCode.dataError, device: device.index))
      }
      written[device.label] = device
      // Checked before the other keys, so that a device with another error still counts.
      let link = Self.normalized(device.link ?? EmulatorConfiguration.defaultLinkPath)
      if let first = links[link] {
        problem("link", "the same link as \(first)")
        continue
      }
      links[link] = "devices[\(device.index)]"
      let irrelevant = irrelevantKeys(Set(device.settings.map(\.key)))
      for (key, reason) in irrelevant { problem(key, reason) }
      // A device with a malformed or refused key still has its other values checked.
      guard let (options, isValid) = parse(device, problem: problem) else { continue }
      parsed.append(Device(label: device.label, options: options))
      guard isValid, irrelevant.isEmpty else { continue }
      let name = "devices[\(device.index)]"
      var isShared = false
      if let control = options.configuration.control.map({ Self.normalized($0.path) }) {
        if let first = controls[control] {
          problem("control", "the same control socket as \(first): \(control)")
          isShared = true
        } else {
          controls[control] = name
        }
      }
      if let tcp = options.configuration.tcp, tcp.port != 0 {
        if let first = tcpAddresses[tcp] {
          problem("tcp", "the same TCP address as \(first): \(tcp)")
          isShared = true
        } else {
          tcpAddresses[tcp] = name
        }
      }
      guard !isShared else { continue }
      devices.append(Device(label: device.label, options: options))
    }
    var checkedInputs: [String: CheckedInputs] = [:]
    for device in selecting(parsed) {
      let source = written[device.label]
      let (inputs, errors) = readInputs(device.options)
      checkedInputs[device.label] = inputs
      for error in errors {
        let line = source?.settings.first { $0.key == error.key }?.line ?? source?.line
        for text in error.lines {
          problems.append(
            Problem(
              diagnostic: InputDiagnostic(
                InputLocation(file: name, line: line, jsonPath: "\(device.label): \(error.key)"),
                text),
              code: error.code, device: source?.index ?? -1))
        }
      }
    }
    // In line order; on one line (a file written on one), in the order of the devices, each
    // device's problems in the order they were found.
    let ordered = problems.enumerated().sorted {
      ($0.1.diagnostic.location.line ?? 0, $0.1.device, $0.0)
        < ($1.1.diagnostic.location.line ?? 0, $1.1.device, $1.0)
    }.map(\.1)
    for index in devices.indices { devices[index].inputs = checkedInputs[devices[index].label] }
    return (devices, ordered)
  }

  /// The options of `device`, and whether every key was taken, after naming every key whose
  /// value `run`'s parser refuses: the device is parsed again without each refused key until it
  /// parses or fails otherwise (nil then). A failure of another kind (options that exclude or
  /// need each other) is named unless it names a key that was left out (malformed, refused or
  /// of a bad value): with that key right it may hold.
  static func parse(
    _ device: DeviceConfigFile.Device, problem: (String?, String) -> Void
  ) -> (options: RunOptions, isValid: Bool)? {
    var settings = device.settings
    var leftOut = device.leftOutKeys
    while true {
      do {
        let options = try RunOptions.parse(settings.flatMap(\.arguments))
        return (options, leftOut.isEmpty)
      } catch {
        guard let (option, reason) = error.invalidValue else {
          if !leftOut.contains(where: { error.message.contains("'--\($0)'") }) {
            problem(nil, keysWithoutDashes(error.message))
          }
          return nil
        }
        let key = String(option.dropFirst(2))
        guard let setting = settings.first(where: { $0.key == key }) else {
          problem(key, reason)
          return nil
        }
        problem(key, reason + ", got \(setting.shownValue)")
        settings.removeAll { $0.key == key }
        leftOut.insert(key)
      }
    }
  }

  /// `path` as `run` would open it, made comparable: absolute against the current directory,
  /// with `//` and `/./` collapsed (`..` is kept: through a symbolic link it is not lexical).
  static func normalized(_ path: String) -> String {
    WorkingDirectory.normalized(path)
  }

  /// A message of `run`'s parser with its options named as keys: `'--route'` → `'route'`.
  static func keysWithoutDashes(_ message: String) -> String {
    var text = message
    for option in RunOptions.allOptions {
      text = text.replacing("'\(option)'", with: "'\(option.dropFirst(2))'")
    }
    return text
  }

  /// `3 devices: /tmp/gps0, /tmp/gps1, /tmp/gps2` for `check`.
  var summary: String {
    let links = devices.map(\.options.configuration.linkPath)
    let shown = links.prefix(5).joined(separator: ", ") + (links.count > 5 ? ", …" : "")
    return "config of \(devices.count) device\(devices.count == 1 ? "" : "s"): \(shown)"
  }
}
