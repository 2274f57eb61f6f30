import Geodesy
import InputFiles

/// The options of `mockgps run` that choose a route, scenario or log file and how it plays; the
/// file itself is read after the command line is accepted, before the device opens.
struct PlaybackOptions: Equatable {
  /// The file that scripts the receiver's motion, or the log replayed.
  enum Script: Equatable {
    case route(path: String)
    case scenario(path: String)
    case replay(path: String)

    var path: String {
      switch self {
      case .route(let path), .scenario(let path), .replay(let path): return path
      }
    }
  }

  /// Where simulated time starts for a file that carries its own times.
  enum TimeBase: String, Equatable {
    /// At the file's own times: a track's recorded time, a scenario's start.
    case original
    /// Moved so that the file starts now.
    case now
  }

  var script: Script?
  /// `--speed`: drive the route at this speed, even when it is a timed track.
  var speedMetersPerSecond: Double?
  var accelerationMetersPerSecondSquared: Double?
  var turnRateDegreesPerSecond: Double?
  var loop = false
  var once = false
  var timeBase: TimeBase?
  var seed: UInt64?
  /// `--wait-for-client`: a replay's timeline starts when the first client opens.
  var waitsForClient = false
  /// `--settle`: seconds from the first client's open to the start of a replay.
  var settleSeconds: Double?
  /// `--move-to`: where a replayed track is moved to.
  var moveTo: GeodeticPosition?
  /// `--drop-invalid`: a replay leaves out the packets with a problem.
  var dropsInvalid = false

  /// True for `--replay`.
  var isReplay: Bool {
    if case .replay = script { return true }
    return false
  }

  /// Options that take a value, with what the value must be.
  static let valueOptions: [String: String] = [
    "--route": "a GPX, KML, CSV or GeoJSON file",
    "--scenario": "a scenario file (JSON)",
    "--speed": "a speed in m/s from 0.1 to 1000",
    "--accel": "an acceleration in m/s² from 0.1 to 100",
    "--turn-rate": "a turn rate in degrees per second from 1 to 360",
    "--time": "original or now",
    "--seed": "a whole number from 0 to 18446744073709551615",
    "--replay": "an NMEA or binary log, a gpsd test log or a mockgps recording",
    "--settle": "seconds from 0 to 60",
    "--move-to": "LAT,LON in decimal degrees",
  ]

  /// Options that take no value.
  static let flags: Set<String> = ["--loop", "--once", "--wait-for-client", "--drop-invalid"]

  /// The options in the order the help shows them.
  static let allOptions = [
    "--route", "--scenario", "--replay", "--speed", "--accel", "--turn-rate", "--loop", "--once",
    "--time", "--wait-for-client", "--settle", "--move-to", "--drop-invalid", "--seed",
  ]

  /// Options that mean nothing for a replay: the log is the receiver.
  static let notForReplay = [
    "--position", "--route", "--scenario", "--profile", "--almanac", "--constellations",
    "--rate", "--start-time", "--output-delay", "--rtk-convergence", "--antenna-offset",
  ]

  static let speedRange: ClosedRange<Double> = 0.1...1000
  static let accelerationRange: ClosedRange<Double> = 0.1...100
  static let turnRateRange: ClosedRange<Double> = 1...360
  static let settleRange: ClosedRange<Double> = 0...60

  /// Sets a flag.
  mutating func set(flag: String) {
    switch flag {
    case "--loop": loop = true
    case "--once": once = true
    case "--wait-for-client": waitsForClient = true
    default: dropsInvalid = true
    }
  }

  /// Sets an option with a value; `invalid` makes the error naming the option and value.
  mutating func set(
    _ option: String, to value: String, invalid: (String) -> UsageError
  ) throws(UsageError) {
    let expected = Self.valueOptions[option] ?? ""
    func number(in range: ClosedRange<Double>) throws(UsageError) -> Double {
      guard let number = RunOptions.decimal(value), range.contains(number) else {
        throw invalid("expected \(expected)")
      }
      return number
    }
    switch option {
    case "--route", "--scenario", "--replay":
      guard !value.isEmpty else { throw invalid("expected \(expected)") }
      switch option {
      case "--route": script = .route(path: value)
      case "--scenario": script = .scenario(path: value)
      default: script = .replay(path: value)
      }
    case "--settle": settleSeconds = try number(in: Self.settleRange)
    case "--move-to":
      let parts = value.split(separator: ",", omittingEmptySubsequences: false)
      let numbers = parts.compactMap { RunOptions.decimal(String($0), signed: true) }
      guard parts.count == 2, numbers.count == 2 else { throw invalid("expected \(expected)") }
      do {
        moveTo = try GeodeticPosition(latitude: numbers[0], longitude: numbers[1])
      } catch {
        throw invalid(error.description)
      }
    case "--speed": speedMetersPerSecond = try number(in: Self.speedRange)
    case "--accel": accelerationMetersPerSecondSquared = try number(in: Self.accelerationRange)
    case "--turn-rate": turnRateDegreesPerSecond = try number(in: Self.turnRateRange)
    case "--time":
      guard let base = TimeBase(rawValue: value) else { throw invalid("expected \(expected)") }
      timeBase = base
    case "--seed":
      guard let seed = NumberSpelling.unsignedInteger(value, as: UInt64.self) else {
        throw invalid("expected \(expected)")
      }
      self.seed = seed
    default:
      throw UsageError.unknownOption(option)
    }
  }

  /// Checks the options that only make sense together, given the options that were seen.
  func validate(seen: Set<String>) throws(UsageError) {
    let needs: [(option: String, needs: [String])] = [
      ("--speed", ["--route"]), ("--loop", ["--route", "--replay"]),
      ("--once", ["--route", "--replay"]),
      ("--accel", ["--route", "--scenario"]), ("--turn-rate", ["--route", "--scenario"]),
      ("--time", ["--route", "--scenario", "--replay"]), ("--wait-for-client", ["--replay"]),
      ("--settle", ["--wait-for-client"]), ("--move-to", ["--replay"]),
      ("--drop-invalid", ["--replay"]),
    ]
    for rule in needs where seen.contains(rule.option) && seen.isDisjoint(with: rule.needs) {
      let needed = rule.needs.map { "'\($0)'" }.joined(separator: " or ")
      throw UsageError(message: "option '\(rule.option)' needs \(needed)")
    }
    let exclusive: [(String, String)] =
      [
        ("--route", "--scenario"), ("--position", "--route"), ("--position", "--scenario"),
        ("--loop", "--once"), ("--time", "--start-time"),
      ] + Self.notForReplay.map { ("--replay", $0) }
    for (first, second) in exclusive where seen.contains(first) && seen.contains(second) {
      throw UsageError(message: "options '\(first)' and '\(second)' exclude each other")
    }
  }
}
