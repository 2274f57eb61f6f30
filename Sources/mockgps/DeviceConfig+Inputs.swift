import InputFiles
import MockGPS
import RouteFiles
import Simulation

extension DeviceConfig {
  /// An error of a file a device names: the key naming it, the error's lines (each with the
  /// file's own place), and its exit code.
  struct InputError {
    var key: String
    var lines: [String]
    var code: Int32
  }

  /// What a device's files held when they were checked: its route or scenario and almanac,
  /// kept so that `run --config` does not read them twice. (Its log is opened again as it
  /// starts: a replay reader goes to its emulator alone, and opening one reads only a header.)
  struct CheckedInputs {
    var source: EmulatorConfiguration.Source?
    var almanac: [AlmanacEntry]?
  }

  /// Every error of the files `options` name, each read by `run`'s own reader within its caps:
  /// the route or scenario, the log (up to its first packet, as `run` opens it) and the
  /// almanac; then whether `start-time` falls within the route's track. With no error, what
  /// was read.
  static func readInputs(_ options: RunOptions) -> (inputs: CheckedInputs?, errors: [InputError]) {
    var errors: [InputError] = []
    var almanac: [AlmanacEntry]?
    func add(_ key: String, _ error: InputFileError) {
      errors.append(
        InputError(
          key: key, lines: error.description.split(separator: "\n").map(String.init),
          code: error.exitCode))
    }
    var source: EmulatorConfiguration.Source?
    do {
      source = try options.playback.source()
    } catch {
      add(scriptKey(options.playback.script), error)
    }
    do {
      _ = try options.playback.openReplay()
    } catch {
      add("replay", error)
    }
    if let path = options.almanacPath {
      do {
        almanac = try AlmanacFile.load(path: path)
      } catch {
        add("almanac", error)
      }
    }
    if let source {
      do {
        try options.playback.checkStart(options.configuration.startTime, of: source)
      } catch {
        errors.append(
          InputError(
            key: "start-time", lines: [keysWithoutDashes(error.message)], code: ExitCode.usage))
      }
    }
    guard errors.isEmpty else { return (nil, errors) }
    return (CheckedInputs(source: source, almanac: almanac), [])
  }

  /// The key of a device's source file: `route`, `scenario` or `replay`.
  static func scriptKey(_ script: PlaybackOptions.Script?) -> String {
    switch script {
    case .scenario: return "scenario"
    case .replay: return "replay"
    case .route, nil: return "route"
    }
  }

  /// The keys `keys` hold that the device's source makes pointless, with why: `run` takes them
  /// and they change nothing. A replay sends its log as recorded, and a passthrough its
  /// receiver's output as it comes (only a `route` or `scenario` override moves it, from the
  /// start time); `gpsd-socket` is not among them: every source announces its link to gpsd.
  static func irrelevantKeys(_ keys: Set<String>) -> [(key: String, reason: String)] {
    var found: [(key: String, reason: String)] = []
    if keys.contains("seed") {
      if keys.contains("replay") {
        found.append(
          (
            "seed",
            "not used with 'replay': a log is sent as recorded, with no signal noise or scenario "
              + "to seed"
          ))
      } else if keys.contains("passthrough") && !keys.contains("scenario") {
        found.append(
          (
            "seed",
            "not used with 'passthrough' without 'scenario': the receiver's own output has no "
              + "signal noise to seed"
          ))
      }
    }
    if keys.contains("passthrough") {
      if keys.contains("time-scale") {
        found.append(
          (
            "time-scale",
            "not used with 'passthrough': the receiver's output is forwarded as it comes, at "
              + "the receiver's pace"
          ))
      }
      if keys.contains("start-time") && keys.isDisjoint(with: ["route", "scenario"]) {
        found.append(
          (
            "start-time",
            "not used with 'passthrough' without 'route' or 'scenario': the receiver sends its "
              + "own time, and only a route's or scenario's override starts at 'start-time'"
          ))
      }
    }
    return found
  }
}
