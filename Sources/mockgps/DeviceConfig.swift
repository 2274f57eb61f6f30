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

  /// Reads and checks the file at `path`.
  ///
  /// - Throws: `.unreadable` (exit 66), or `.invalid` with every error found (exit 65).
  static func load(path: String) throws(InputFileError) -> DeviceConfig {
    let file = try DeviceConfigFile.load(
      path: path, flags: flagKeys, fileKeys: fileKeys, refusal: refusal)
    return try make(file, name: path)
  }

  /// Why a device cannot have `key`, or nil when it can.
  static func refusal(_ key: String) -> String? {
    if let reason = refusedKeys[key] { return reason }
    let accepted = acceptedKeys
    if accepted.contains(key) { return nil }
    return "unknown key (expected one of \(accepted.joined(separator: ", ")))"
  }

  /// Parses each device of `file` with `RunOptions.parse`, collecting every error.
  static func make(_ file: DeviceConfigFile, name: String) throws(InputFileError) -> DeviceConfig {
    var problems = file.problems
    var devices: [Device] = []
    // The first device of each link, control socket and TCP address (port 0 never conflicts).
    var links: [String: String] = [:]
    var controls: [String: String] = [:]
    var tcpAddresses: [InternetAddress: String] = [:]
    for device in file.devices {
      func problem(_ key: String?, _ message: String) {
        let line = device.settings.first { $0.key == key }?.line ?? device.line
        let path = device.label + (key.map { ": \($0)" } ?? "")
        problems.append(
          InputDiagnostic(InputLocation(file: name, line: line, jsonPath: path), message))
      }
      // Checked before the other keys, so that a device with another error still counts.
      let link = Self.normalized(device.link ?? EmulatorConfiguration.defaultLinkPath)
      if let first = links[link] {
        problem("link", "the same link as \(first)")
        continue
      }
      links[link] = "devices[\(device.index)]"
      // A device with a malformed or refused key still has its other values checked.
      guard let options = parse(device, problem: problem), device.isComplete else { continue }
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
    guard problems.isEmpty else {
      throw .invalid(
        problems.enumerated().sorted {
          ($0.1.location.line ?? 0, $0.0) < ($1.1.location.line ?? 0, $1.0)
        }.map(\.1))
    }
    return DeviceConfig(devices: devices)
  }

  /// The device's options, or nil after naming every key whose value `run`'s parser refuses:
  /// the device is parsed again without each refused key until it parses or fails otherwise.
  /// A failure of another kind (options that exclude each other) is named only when no key
  /// was left out (malformed, refused or of a bad value): without that key it may not hold.
  static func parse(
    _ device: DeviceConfigFile.Device, problem: (String?, String) -> Void
  ) -> RunOptions? {
    var settings = device.settings
    var failed = false
    while true {
      do {
        let options = try RunOptions.parse(settings.flatMap(\.arguments))
        return failed ? nil : options
      } catch {
        guard let (option, reason) = error.invalidValue else {
          if device.isComplete && !failed { problem(nil, keysWithoutDashes(error.message)) }
          return nil
        }
        failed = true
        let key = String(option.dropFirst(2))
        guard let setting = settings.first(where: { $0.key == key }) else {
          problem(key, reason)
          return nil
        }
        problem(key, reason + ", got \(setting.shownValue)")
        settings.removeAll { $0.key == key }
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
