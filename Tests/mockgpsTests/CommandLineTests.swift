import DeviceRuntime
import Geodesy
import InputFiles
import MockGPS
import Receiver
import Simulation
import Synchronization
import Testing

@testable import mockgps

@Suite struct CommandLineTests {
  struct ErrorCase: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    let message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let errors: [ErrorCase] = [
    ErrorCase(
      arguments: ["--bogus"],
      message: "unknown option '--bogus' (expected one of --link, --position, --route, "
        + "--scenario, --replay, --speed, --accel, --turn-rate, --loop, --once, --time, "
        + "--wait-for-client, --settle, --move-to, --drop-invalid, --seed, --passthrough, "
        + "--passthrough-baud, --override, --offset, --control, --control-group, --no-control, "
        + "--profile, "
        + "--almanac, --constellations, --rate, --baud, --baud-mismatch, --output-delay, --base, --moving-base, --antenna-offset, --rtk-convergence, --state-dir, --group, --mode, --time-scale, --start-time, --tcp, --udp, --gpsd-socket, --panel, --panel-files, --config, --shard, --verbose, --quiet, --help)"
    ),
    ErrorCase(
      arguments: ["--output-delay", "30±40"],
      message: "invalid value '30±40' for '--output-delay': the jitter cannot exceed the delay: "
        + "no epoch leaves before its instant"),
    ErrorCase(
      arguments: ["--output-delay", "990+-10"],
      message: "invalid value '990+-10' for '--output-delay': the delay and its jitter must stay "
        + "under 1000 ms"),
    ErrorCase(
      arguments: ["--output-delay", "0.5"],
      message: "invalid value '0.5' for '--output-delay': expected MS or MS±JITTER in whole "
        + "milliseconds, jitter at most the delay, the two under 1000"),
    ErrorCase(
      arguments: ["--replay", "a.log", "--output-delay", "10"],
      message: "options '--replay' and '--output-delay' exclude each other"),
    ErrorCase(
      arguments: ["--rtk-convergence", "5"],
      message: "invalid value '5' for '--rtk-convergence': expected FLOAT,FIXED: mean seconds to "
        + "RTK float, then to RTK fixed, each from 0 to 3600"),
    ErrorCase(
      arguments: ["--rtk-convergence", "5,3601"],
      message: "invalid value '5,3601' for '--rtk-convergence': expected FLOAT,FIXED: mean "
        + "seconds to RTK float, then to RTK fixed, each from 0 to 3600"),
    ErrorCase(
      arguments: ["--moving-base"],
      message: "option '--moving-base' goes with '--profile ublox-f9p' (a chip that sends RTCM "
        + "4072)"),
    ErrorCase(
      arguments: ["--profile", "ublox-f9p", "--base", "1,2", "--moving-base"],
      message: "options '--moving-base' and '--base' exclude each other (a moving base has no "
        + "time mode)"),
    ErrorCase(
      arguments: ["--replay", "a.log", "--moving-base"],
      message: "options '--moving-base' and '--replay' exclude each other (only a simulated "
        + "chip is a moving base)"),
    ErrorCase(
      arguments: ["--profile", "ublox-f9p", "--base", "1,2", "--antenna-offset", "1,0"],
      message: "options '--base' and '--antenna-offset' exclude each other (a reference station "
        + "stands at its position)"),
    ErrorCase(
      arguments: ["--antenna-offset", "1,2,3,4"],
      message: "invalid value '1,2,3,4' for '--antenna-offset': expected FORWARD,RIGHT[,UP] in "
        + "meters, each from -100 to 100"),
    ErrorCase(
      arguments: ["--antenna-offset", "0,-100.5"],
      message: "invalid value '0,-100.5' for '--antenna-offset': expected FORWARD,RIGHT[,UP] in "
        + "meters, each from -100 to 100"),
    ErrorCase(
      arguments: ["--passthrough", "/dev/ttyACM0", "--antenna-offset", "1,0"],
      message: "options '--passthrough' and '--antenna-offset' exclude each other"),
    ErrorCase(
      arguments: ["fly"],
      message: "unknown command 'fly' (expected run, record, check, ctl, devices or profiles)"),
    ErrorCase(
      arguments: ["check"], message: "missing file for 'check' (expected a route or scenario file)"),
    ErrorCase(arguments: ["check", "a", "b"], message: "unexpected argument 'b' for 'check'"),
    ErrorCase(
      arguments: ["--route", "a.gpx", "--scenario", "s.json"],
      message: "options '--route' and '--scenario' exclude each other"),
    ErrorCase(
      arguments: ["--position", "1,2", "--route", "a.gpx"],
      message: "options '--position' and '--route' exclude each other"),
    ErrorCase(
      arguments: ["--route", "a.gpx", "--loop", "--once"],
      message: "options '--loop' and '--once' exclude each other"),
    ErrorCase(
      arguments: ["--route", "a.gpx", "--time", "now", "--start-time", "2024-01-01T00:00:00Z"],
      message: "options '--time' and '--start-time' exclude each other"),
    ErrorCase(arguments: ["--speed", "10"], message: "option '--speed' needs '--route'"),
    ErrorCase(arguments: ["--once"], message: "option '--once' needs '--route' or '--replay'"),
    ErrorCase(
      arguments: ["--accel", "2"], message: "option '--accel' needs '--route' or '--scenario'"),
    ErrorCase(
      arguments: ["--time", "now"],
      message: "option '--time' needs '--route' or '--scenario' or '--replay'"),
    ErrorCase(
      arguments: ["--profile", "garmin"],
      message: "invalid value 'garmin' for '--profile': expected one of "
        + ReceiverProfile.all.map(\.name).joined(separator: ", ")),
    ErrorCase(
      arguments: ["--constellations", "gps,qzss"],
      message: "invalid value 'gps,qzss' for '--constellations': "
        + "expected a comma-separated list of gps, glonass, galileo, beidou, sbas"),
    ErrorCase(
      arguments: ["--constellations", "gps,,galileo"],
      message: "invalid value 'gps,,galileo' for '--constellations': "
        + "expected a comma-separated list of gps, glonass, galileo, beidou, sbas"),
    ErrorCase(
      arguments: ["--constellations", "GPS"],
      message: "invalid value 'GPS' for '--constellations': "
        + "expected a comma-separated list of gps, glonass, galileo, beidou, sbas"),
    ErrorCase(
      arguments: ["--profile", "mtk", "--constellations", "gps,galileo"],
      message: "invalid value 'gps,galileo' for '--constellations': "
        + "profile 'mtk' cannot track galileo: it tracks gps only (and sbas)"),
    ErrorCase(
      arguments: ["--constellations", "beidou,gps,glonass,galileo", "--profile", "ublox-m8"],
      message: "invalid value 'beidou,gps,glonass,galileo' for '--constellations': "
        + "profile 'ublox-m8' cannot track 4 systems at once: "
        + "it tracks at most 3 at once of gps, glonass, galileo, beidou (and sbas)"),
    ErrorCase(
      arguments: ["--profile", "sirf", "--constellations", "beidou,galileo,gps"],
      message: "invalid value 'beidou,galileo,gps' for '--constellations': "
        + "profile 'sirf' cannot track galileo, beidou: it tracks any of gps, glonass together"),
    ErrorCase(
      arguments: ["--almanac", ""],
      message: "invalid value '' for '--almanac': expected a YUMA almanac file"),
    ErrorCase(arguments: ["profiles", "x"], message: "unexpected argument 'x' for 'profiles'"),
    ErrorCase(
      arguments: ["--route", "a.gpx", "--speed", "0"],
      message: "invalid value '0' for '--speed': expected a speed in m/s from 0.1 to 1000"),
    ErrorCase(
      arguments: ["--route", "a.gpx", "--speed", "1e4"],
      message: "invalid value '1e4' for '--speed': expected a speed in m/s from 0.1 to 1000"),
    ErrorCase(
      arguments: ["--route", "a.gpx", "--turn-rate", "0.5"],
      message: "invalid value '0.5' for '--turn-rate': "
        + "expected a turn rate in degrees per second from 1 to 360"),
    ErrorCase(
      arguments: ["--route", "a.gpx", "--time", "later"],
      message: "invalid value 'later' for '--time': expected original or now"),
    ErrorCase(
      arguments: ["--scenario", "s.json", "--seed", "18446744073709551616"],
      message: "invalid value '18446744073709551616' for '--seed': "
        + "expected a whole number from 0 to 18446744073709551615"),
    ErrorCase(
      arguments: ["--route", ""],
      message: "invalid value '' for '--route': expected a GPX, KML, CSV or GeoJSON file"),
    ErrorCase(
      arguments: ["--loop=yes", "--route", "a"], message: "option '--loop' takes no value"),
    ErrorCase(arguments: ["run", "extra"], message: "unexpected argument 'extra'"),
    ErrorCase(arguments: ["devices", "all"], message: "unexpected argument 'all' for 'devices'"),
    ErrorCase(
      arguments: ["--rate"],
      message: "missing value for '--rate' (expected a rate in Hz from 0.1 to 20)"),
    ErrorCase(
      arguments: ["--link", "--rate", "1"],
      message: "missing value for '--link' (expected a path for the device link)"),
    ErrorCase(
      arguments: ["--position", "95,0"],
      message: "invalid value '95,0' for '--position': latitude 95.0 is outside -90...90"),
    ErrorCase(
      arguments: ["--position", "0,-181"],
      message: "invalid value '0,-181' for '--position': longitude -181.0 is outside -180...180"),
    ErrorCase(
      arguments: ["--position", "51.5"],
      message:
        "invalid value '51.5' for '--position': expected LAT,LON[,ALT] in decimal degrees and meters"
    ),
    ErrorCase(
      arguments: ["--position", "51.5,abc"],
      message:
        "invalid value '51.5,abc' for '--position': expected LAT,LON[,ALT] in decimal degrees and meters"
    ),
    ErrorCase(
      arguments: ["--position=1,2,3,4"],
      message:
        "invalid value '1,2,3,4' for '--position': expected LAT,LON[,ALT] in decimal degrees and meters"
    ),
    ErrorCase(
      arguments: ["--rate", "25"],
      message: "invalid value '25' for '--rate': expected a rate in Hz from 0.1 to 20"),
    ErrorCase(
      arguments: ["--rate", "0.05"],
      message: "invalid value '0.05' for '--rate': expected a rate in Hz from 0.1 to 20"),
    ErrorCase(
      arguments: ["--rate", "fast"],
      message: "invalid value 'fast' for '--rate': expected a rate in Hz from 0.1 to 20"),
    ErrorCase(
      arguments: ["--baud", "9601"],
      message: "invalid value '9601' for '--baud': expected 0 (unpaced) or a standard baud: "
        + "1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"),
    ErrorCase(
      arguments: ["--mode", "999"],
      message: "invalid value '999' for '--mode': expected octal permissions from 0000 to 0777"),
    ErrorCase(
      arguments: ["--time-scale", "0"],
      message:
        "invalid value '0' for '--time-scale': expected a factor from 0.01 to 1000 (to 1000000 with --replay)"
    ),
    ErrorCase(
      arguments: ["--time-scale", "1001"],
      message:
        "invalid value '1001' for '--time-scale': expected a factor from 0.01 to 1000 (to 1000000 with --replay)"
    ),
    ErrorCase(
      arguments: ["--time-scale", "1e7"],
      message:
        "invalid value '1e7' for '--time-scale': expected a factor from 0.01 to 1000 (to 1000000 with --replay)"
    ),
    ErrorCase(
      arguments: ["--time-scale", "-2"],
      message:
        "invalid value '-2' for '--time-scale': expected a factor from 0.01 to 1000 (to 1000000 with --replay)"
    ),
    ErrorCase(
      arguments: ["--start-time", "now"],
      message: "invalid value 'now' for '--start-time': "
        + "expected a UTC time YYYY-MM-DDTHH:MM:SS[.fraction]Z"),
    ErrorCase(
      arguments: ["--start-time", "2026-11-29T14:39:54"],
      message: "invalid value '2026-11-29T14:39:54' for '--start-time': "
        + "expected a UTC time YYYY-MM-DDTHH:MM:SS[.fraction]Z"),
    ErrorCase(
      arguments: ["--start-time=2026-02-30T00:00:00Z"],
      message: "invalid value '2026-02-30T00:00:00Z' for '--start-time': "
        + "day 30 is outside 1...28 in 2026-02"),
    ErrorCase(
      arguments: ["--start-time", "2026-11-29T14:39:54+01:00"],
      message: "invalid value '2026-11-29T14:39:54+01:00' for '--start-time': "
        + "offset '+01:00' is not UTC (expected Z or +00:00)"),
    ErrorCase(
      arguments: ["--rate", "1", "--rate", "2"], message: "option '--rate' given more than once"),
    ErrorCase(arguments: ["--verbose=yes"], message: "option '--verbose' takes no value"),
    ErrorCase(
      arguments: ["-v", "-q"], message: "options '--verbose' and '--quiet' exclude each other"),
    ErrorCase(
      arguments: ["-v", "--quiet"], message: "options '--verbose' and '--quiet' exclude each other"),
    ErrorCase(
      arguments: ["--verbose", "-q"],
      message: "options '--verbose' and '--quiet' exclude each other"),
    ErrorCase(
      arguments: ["--quiet", "--verbose"],
      message: "options '--verbose' and '--quiet' exclude each other"),
    ErrorCase(arguments: ["-v", "-v"], message: "option '--verbose' given more than once"),
    ErrorCase(arguments: ["-v", "--verbose"], message: "option '--verbose' given more than once"),
    ErrorCase(arguments: ["-q", "--quiet"], message: "option '--quiet' given more than once"),
    ErrorCase(
      arguments: ["--state-dir", ""],
      message: "invalid value '' for '--state-dir': expected a directory for the chip's saved "
        + "settings"),
    ErrorCase(
      arguments: ["--replay", "a.nmea", "--state-dir", "/var/lib/mockgps"],
      message: "options '--state-dir' and '--replay' exclude each other "
        + "(only a simulated chip keeps settings)"),
    ErrorCase(
      arguments: ["--state-dir", "/var/lib/mockgps", "--passthrough", "/dev/ttyUSB0"],
      message: "options '--state-dir' and '--passthrough' exclude each other "
        + "(only a simulated chip keeps settings)"),
  ]

  @Test(arguments: errors) func usageErrorsNameTheOptionTheValueAndWhatIsAccepted(_ c: ErrorCase) {
    do {
      let command = try Command.parse(c.arguments)
      Issue.record("accepted: \(command)")
    } catch {
      #expect(error.message == c.message)
      #expect(error.report == "mockgps: \(c.message)\nSee 'mockgps --help'.\n")
    }
  }

  /// A value too long to quote whole is cut: a million-digit seed is no megabyte of message.
  @Test func aHugeValueIsQuotedCut() {
    let digits = String(repeating: "9", count: 1_000_000)
    let nines = String(repeating: "9", count: 200)
    #expect(throws: UsageError.self) { try Command.parse(["--seed", digits]) }
    do {
      _ = try Command.parse(["--seed", digits])
    } catch {
      #expect(
        error.message
          == "invalid value '\(nines)…' (1000000 characters) for '--seed': "
          + "expected a whole number from 0 to 18446744073709551615")
    }
    do {
      _ = try Command.parse(["--" + digits])
    } catch {
      #expect(
        error.message.hasPrefix("unknown option '--\(nines.dropLast(2))…' (1000002 characters)"))
    }
  }

  static let rate = "expected a rate in Hz from 0.1 to 20"
  static let position = "expected LAT,LON[,ALT] in decimal degrees and meters"
  static let baud =
    "expected 0 (unpaced) or a standard baud: "
    + "1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"
  static let mode = "expected octal permissions from 0000 to 0777"

  /// Spellings Swift's number parsers accept but `NumberSpelling` (the control socket's JSON
  /// grammar) does not.
  static let notPlainDecimal: [ErrorCase] = [
    ("--rate", "0x14", rate), ("--rate", "05", rate), ("--rate", "inf", rate),
    ("--rate", "nan", rate), ("--rate", "+5", rate), ("--rate", "-1", rate),
    ("--rate", ".5", rate), ("--rate", "5.", rate), ("--rate", "1_0", rate),
    ("--rate", " 5", rate), ("--rate", "٥", rate),
    ("--position", "0x1p5,0", position), ("--position", "1e1x,0", position),
    ("--position", "+51.5,0", position), ("--position", "51.5,-0.1,+46", position),
    ("--position", "nan,0", position), ("--position", "51.5,infinity", position),
    ("--position", "51.5,--1", position), ("--position", "51.5,-", position),
    ("--baud", "+9600", baud), ("--baud", "-0", baud), ("--baud", "0x2580", baud),
    ("--baud", "9600.5", baud),
    ("--mode", "+644", mode), ("--mode", "-0", mode), ("--mode", "0o644", mode),
  ].map { option, value, expected in
    ErrorCase(
      arguments: [option, value], message: "invalid value '\(value)' for '\(option)': \(expected)")
  }

  @Test(arguments: notPlainDecimal) func numbersArePlainDecimal(_ c: ErrorCase) {
    do {
      let command = try Command.parse(c.arguments)
      Issue.record("accepted: \(command)")
    } catch {
      #expect(error.message == c.message)
    }
  }

  /// The command line takes what the control socket takes: an exponent included.
  @Test func numbersWithAnExponentAreAcceptedAsOnTheSocket() throws {
    let options = try RunOptions.parse(["--rate", "1e1", "--position", "5.15e1,-1e-1"])
    #expect(options.configuration.cadence == (try CadencePlan(rateHz: 10)))
    #expect(options.configuration.fixedPosition.latitude == 51.5)
    #expect(options.configuration.fixedPosition.longitude == -0.1)
  }

  @Test func aProfileTakesTheSystemsItsChipTracks() throws {
    let m8 = try RunOptions.parse(
      ["--profile", "ublox-m8", "--constellations", "gps,galileo,beidou"])
    #expect(m8.configuration.sky.constellations == [.gps, .galileo, .beidou])
    let f9p = try RunOptions.parse(
      ["--constellations", "gps,glonass,galileo,beidou", "--profile", "ublox-f9p"])
    #expect(f9p.configuration.sky.constellations?.count == 4)
    for profile in ReceiverProfile.all {
      #expect(throws: Never.self) { try profile.checkTracking(profile.defaultConstellations) }
    }
  }

  /// `--output-delay` in whole milliseconds, `±` or `+-` before the jitter; the start line
  /// says it. Without it the profile's (none) holds.
  @Test func outputDelayTakesMillisecondsAndAJitter() throws {
    let plain = try RunOptions.parse(["--output-delay", "120"]).configuration
    #expect(plain.effectiveOutputDelay == (try OutputDelay(nominalNanoseconds: 120_000_000)))
    let jittered = try RunOptions.parse(["--output-delay", "120+-15"]).configuration
    #expect(
      jittered.outputDelay
        == (try OutputDelay(nominalNanoseconds: 120_000_000, jitterNanoseconds: 15_000_000)))
    #expect(
      try RunOptions.parse(["--output-delay", "120±15"]).configuration.outputDelay
        == jittered.outputDelay)
    #expect(RunCommand.receiver(jittered).contains("output delay 120±15 ms"))
    let unset = try RunOptions.parse([]).configuration
    #expect(unset.effectiveOutputDelay == .none)
    #expect(!RunCommand.receiver(unset).contains("output delay"))
  }

  /// `--rtk-convergence` sets the rover's two mean times; the seed stays the sky's.
  @Test func rtkConvergenceTakesTwoMeanTimes() throws {
    let options = try RunOptions.parse(["--rtk-convergence", "2.5,30", "--profile", "ublox-f9p"])
    #expect(options.configuration.rtkConvergence.floatSeconds == 2.5)
    #expect(options.configuration.rtkConvergence.fixedSeconds == 30)
    #expect(try RunOptions.parse([]).configuration.rtkConvergence == RTKConvergence())
  }

  /// `--moving-base` and `--antenna-offset` make a vehicle's two receivers.
  @Test func aMovingBaseAndAnAntennaOffset() throws {
    let base = try RunOptions.parse(["--profile", "ublox-f9p", "--moving-base"])
    #expect(base.configuration.isMovingBase && base.configuration.antennaOffset == nil)
    let rover = try RunOptions.parse(["--antenna-offset", "1.25,-0.5", "--profile", "ublox-f9p"])
    #expect(!rover.configuration.isMovingBase)
    #expect(
      rover.configuration.antennaOffset == AntennaOffset(forwardMeters: 1.25, rightMeters: -0.5))
    #expect(
      try RunOptions.parse(["--antenna-offset", "0,0,-2"]).configuration.antennaOffset?.upMeters
        == -2)
  }

  @Test func negativeValuesAreAcceptedWhereTheyMakeSense() throws {
    let options = try RunOptions.parse(["--position", "-33.5,-151,-12.25"])
    #expect(options.configuration.fixedPosition.latitude == -33.5)
    #expect(options.configuration.fixedPosition.longitude == -151)
    #expect(options.configuration.fixedPosition.altitudeMeters == -12.25)
    #expect(try RunOptions.parse(["--rate", "0.5"]).configuration.cadence.rateHz == 0.5)
    #expect(try RunOptions.parse(["--rate", "20"]).configuration.cadence.rateHz == 20)
    #expect(try RunOptions.parse(["--baud", "4800"]).configuration.pacing.baud == 4800)
    #expect(try RunOptions.parse(["--mode", "644"]).configuration.mode == 0o644)
  }

  @Test func noArgumentsRunTheDefaultReceiver() throws {
    guard case .run(let options) = try Command.parse([]) else {
      Issue.record("expected run")
      return
    }
    let configuration = options.configuration
    #expect(configuration.linkPath == "/dev/ttyMOCKGPS")
    #expect(configuration.fixedPosition.latitude == 51.477_928)
    #expect(configuration.cadence.rateHz == 1)
    #expect(configuration.pacing.baud == 9600)
    #expect(configuration.groupName == "dialout")
    #expect(configuration.mode == 0o660)
    #expect(configuration.timeScale == 1)
    #expect(configuration.startTime == nil)
  }

  @Test func everyOptionIsParsed() throws {
    let command = try Command.parse([
      "run", "--link", "/tmp/ttyX", "--position", "-33.856784,151.215297,4", "--rate=10",
      "--baud", "0", "--group", "tty", "--mode", "0666", "--time-scale", "2.5",
      "--start-time", "2026-11-29T14:39:54.25+00:00", "-v",
    ])
    guard case .run(let options) = command else {
      Issue.record("expected run")
      return
    }
    #expect(options.configuration.linkPath == "/tmp/ttyX")
    #expect(options.configuration.fixedPosition.longitude == 151.215297)
    #expect(options.configuration.fixedPosition.altitudeMeters == 4)
    #expect(options.configuration.cadence.rateHz == 10)
    #expect(options.configuration.pacing.baud == 0)
    #expect(options.configuration.groupName == "tty")
    #expect(options.groupIsExplicit)
    #expect(options.configuration.mode == 0o666)
    #expect(options.configuration.timeScale == 2.5)
    #expect(
      options.configuration.startTime
        == UTCInstant(
          year: 2026, month: 11, day: 29, hour: 14, minute: 39, second: 54,
          nanosecond: 250_000_000))
    #expect(options.logLevel == .debug)
  }

  @Test func everyPlaybackOptionIsParsed() throws {
    let options = try RunOptions.parse([
      "--route", "drive.gpx", "--speed", "22.5", "--accel=1.5", "--turn-rate", "45", "--loop",
      "--time", "now",
    ])
    #expect(options.playback.script == .route(path: "drive.gpx"))
    #expect(options.playback.speedMetersPerSecond == 22.5)
    #expect(options.playback.accelerationMetersPerSecondSquared == 1.5)
    #expect(options.playback.turnRateDegreesPerSecond == 45)
    #expect(options.playback.loop && !options.playback.once)
    #expect(options.playback.timeBase == .now)
    let scenario = try RunOptions.parse([
      "--scenario", "s.json", "--seed", "18446744073709551615", "--time", "original",
    ])
    #expect(scenario.playback.script == .scenario(path: "s.json"))
    #expect(scenario.playback.seed == .max)
    #expect(scenario.playback.timeBase == .original)
    #expect(try RunOptions.parse(["--route", "r.csv", "--once"]).playback.once)
    #expect(try Command.parse(["check", "r.gpx"]) == .check(path: "r.gpx"))
    #expect(try Command.parse(["check", "--help"]) == .help(topic: .check))
    #expect(try Command.parse(["help", "check"]) == .help(topic: .check))
  }

  @Test func helpIsAskedForInEveryUsualWay() throws {
    #expect(try Command.parse(["--help"]) == .help(topic: .main))
    #expect(try Command.parse(["-h"]) == .help(topic: .main))
    #expect(try Command.parse(["help", "run"]) == .help(topic: .run))
    #expect(try Command.parse(["run", "--help"]) == .help(topic: .run))
    #expect(try Command.parse(["--rate", "5", "-h"]) == .help(topic: .run))
    #expect(try Command.parse(["--version"]) == .version)
    #expect(try Command.parse(["devices"]) == .devices)
    #expect(try Command.parse(["devices", "--help"]) == .help(topic: .devices))
  }

  @Test func runHelpDescribesEveryOptionWithItsDefault() {
    for option in RunOptions.allOptions {
      #expect(Help.run.contains(option), "\(option) missing from help")
    }
    for defaultValue in [
      "(default: /dev/ttyMOCKGPS)", "(default: 1)", "(default: the profile's, 9600 for generic;",
      "(default: generic)", "(default: the profile's)", "(default: dialout)",
      "(default: 0660)", "(default: 51.477928,-0.001545,46", "for a log (default: 1)",
      "(default: now)",
    ] {
      #expect(Help.run.contains(defaultValue), "\(defaultValue) missing from help")
    }
    for line in (Help.run + Help.main).split(separator: "\n") {
      #expect(line.count <= 100, "help line too long: \(line)")
    }
  }
}

@Suite struct LogLevelTests {
  /// The lines a log at the level of `arguments` writes for one message of every level.
  static func lines(for arguments: [String]) throws -> [String] {
    let options = try RunOptions.parse(arguments)
    let lines = Mutex<[String]>([])
    let log = Log(level: options.logLevel) { line in lines.withLock { $0.append(line) } }
    log.error("e")
    log.warning("w")
    log.info("i")
    log.debug("d")
    return lines.withLock { $0 }
  }

  @Test func quietLogsOnlyErrors() throws {
    #expect(try Self.lines(for: ["--quiet"]) == ["mockgps: error: e"])
  }

  @Test func theDefaultLogsAllButDebugAndVerboseLogsEverything() throws {
    #expect(try Self.lines(for: []) == ["mockgps: error: e", "mockgps: warning: w", "mockgps: i"])
    #expect(
      try Self.lines(for: ["-v"]) == [
        "mockgps: error: e", "mockgps: warning: w", "mockgps: i", "mockgps: debug: d",
      ])
  }

  @Test func theQuietLevelWritesNothing() {
    let count = Mutex(0)
    let log = Log(level: .quiet) { _ in count.withLock { $0 += 1 } }
    log.error("e")
    log.warning("w")
    #expect(count.withLock { $0 } == 0)
  }
}

@Suite struct HelpTextTests {
  @Test func runHelpIsExactlyThis() {
    let expected = """
      OVERVIEW: Emulate one serial GPS receiver until SIGINT, SIGTERM or SIGHUP.

      Opens a pseudo-terminal, publishes its slave as a symbolic link, and sends at every epoch
      what the profile's chip sends (NMEA 0183 in its dialect, UBX when a client turns it on),
      paced at the baud like a real UART, and answers the commands the chip answers. The
      satellites move along their orbits: GGA, GSA, GSV and GST follow them.

      With --passthrough a real receiver on a serial port is the receiver: its bytes go to the
      pseudo-terminal and the client's bytes to it (a baud change is followed), its position
      replaced as --override says; its time, satellites, DOPs and fix quality stay its own. When
      it is unplugged the link stays, silent, until it is back.

      USAGE: mockgps run [--link PATH] [--position LAT,LON[,ALT] | --route FILE | --scenario FILE]
                         [--speed M/S] [--accel M/S2] [--turn-rate DEG/S] [--loop | --once]
                         [--time original|now] [--seed N] [--profile NAME]
                         [--almanac FILE] [--constellations LIST] [--rate HZ] [--baud N]
                         [--baud-mismatch garble|clean] [--output-delay MS[±JITTER]]
                         [--base LAT,LON[,ALT] | --moving-base] [--antenna-offset FORWARD,RIGHT[,UP]]
                         [--rtk-convergence FLOAT,FIXED]
                         [--state-dir DIR] [--group NAME] [--mode OCTAL] [--time-scale X]
                         [--start-time ISO8601]
                         [--tcp [HOST:]PORT] [--udp HOST:PORT] [--gpsd-socket PATH]
                         [--panel [HOST:]PORT] [--panel-files DIR] [--verbose | --quiet]
             mockgps run --replay FILE [--time original|now] [--loop | --once]
                         [--wait-for-client] [--settle SECONDS] [--move-to LAT,LON]
                         [--drop-invalid] [--baud N] [--time-scale X]
                         [--tcp [HOST:]PORT] [--udp HOST:PORT] [--link PATH]
             mockgps run --passthrough DEVICE [--passthrough-baud N|auto] [--override MODE]
                         [--position LAT,LON[,ALT] | --offset NORTH_M,EAST_M | --route FILE
                         | --scenario FILE] [--tcp [HOST:]PORT] [--udp HOST:PORT]
                         [--link PATH]
             mockgps run --config FILE [--shard K/N] [--panel [HOST:]PORT]
                         [--panel-files DIR] [--verbose | --quiet]

      OPTIONS:
        --link PATH             Device link to create (default: /dev/ttyMOCKGPS).
        --position LAT,LON[,ALT]
                                Fixed position in decimal degrees, altitude in meters above mean
                                sea level (default: 51.477928,-0.001545,46, the Royal Observatory,
                                Greenwich).
        --route FILE            Follow a route or play a track from a GPX, KML, CSV or GeoJSON
                                file. A track with a time at every point plays on its own
                                timeline; a route without times is driven at --speed.
        --scenario FILE         Play a scenario: a JSON timeline of motion and faults (see the
                                README); 'mockgps check FILE' validates it.
        --replay FILE           Replay a log as the receiver: raw NMEA, a gpsd test log, a binary
                                capture (UBX, SiRF...) or a 'mockgps record' recording. Its
                                bytes go out as recorded, at the log's own times, paced at the
                                baud; while a client has the device open nothing is dropped (the
                                replay waits for the client to read); what clients write is
                                logged, never answered.
        --speed M/S             Cruising speed on a route, 0.1 to 1000; given for a timed track,
                                its times are ignored (default: 13.9, 50 km/h).
        --accel M/S2            Largest acceleration and braking, 0.1 to 100 (default: 2).
        --turn-rate DEG/S       Fastest change of course, 1 to 360; the vehicle slows for
                                corners (default: 30).
        --loop                  Start the route or log again after its end (a route through a
                                closing leg back to its first point); time never goes back,
                                but a log's own times do under --time original.
        --once                  Exit with status 0 when the route ends (default: stay at its last
                                point), or when the clients have read the whole log (waiting up
                                to 10 s for them).
        --time original|now     A track, scenario or log plays at its own times (original, the
                                default) or moved to start now; a log's time and date fields are
                                then rewritten.
        --wait-for-client       Start the log's timeline when the first client opens the device,
                                after --settle.
        --settle SECONDS        Wait from the first client's open to the log's first byte, 0 to
                                60 (default: 1.4, as gpsfake: gpsd flushes the line at first).
        --move-to LAT,LON       Move a replayed track so that it starts here, keeping its shape
                                and motion.
        --drop-invalid          Leave out the log's broken packets (bad checksum, truncated,
                                garbage) instead of sending them as recorded.
        --seed N                Seed of the signal-to-noise noise, of a scenario's random faults
                                and of the RTK convergence (default: the scenario's, else 0).
        --passthrough DEVICE    Pass a real receiver through: a serial device (8N1, raw), or
                                auto for the single known GNSS receiver 'mockgps devices' lists,
                                auto:VID:PID or auto:SERIAL for one of several.
        --passthrough-baud N|auto
                                Its baud, one of those of --baud but 0, or auto: try the common
                                bauds until GNSS data arrives (default: auto).
        --override MODE         What the real position becomes: off (every byte as sent),
                                replace (--position), offset (the track moved so that its first
                                fix is at --position, or by --offset), route (position, speed and
                                course from --route or --scenario), freeze (the last real fix)
                                (default: replace with --position, route with --route or
                                --scenario, offset with --offset, else off).
        --offset NORTH_M,EAST_M
                                Move the real track this many meters north and east (signed),
                                keeping its motion.
        --control PATH          Control socket of the JSON-lines protocol 'mockgps ctl' speaks
                                (default: $XDG_RUNTIME_DIR/mockgps/LINK.sock, for root
                                /run/mockgps/LINK.sock, else /tmp/mockgps-UID/LINK.sock, LINK
                                the link's path escaped as systemd-escape does). Mode 0600.
        --control-group NAME    Open the control socket to this group (mode 0660).
        --no-control            No control socket.
        --profile NAME          Receiver to emulate, one of those 'mockgps profiles' lists
                                (default: generic).
        --almanac FILE          GPS satellites from a YUMA almanac (default: the nominal
                                GPS, GLONASS, Galileo and BeiDou constellations built in).
        --constellations LIST   Systems tracked, comma-separated: gps, glonass, galileo, beidou,
                                sbas (default: the profile's). Satellites below 5 degrees of
                                elevation are not used, SBAS ones never; sbas also sets the
                                chip's SBAS setting (CFG-SBAS, PMTK313). The chip's channels
                                limit the rest.
        --rate HZ               Epochs per second, 0.1 to 20 (default: 1). Epochs start on whole
                                UTC seconds.
        --baud N                Line speed the bytes are paced at, 8N1: 1200, 2400, 4800, 9600,
                                19200, 38400, 57600, 115200, 230400, 460800 or 921600; 0 writes
                                unpaced (default: the profile's, 9600 for generic; for a log,
                                its '# Serial:' speed, else 9600).
        --baud-mismatch MODE    What a client whose terminal is at another speed than the chip
                                reads: garble (default), what a UART at its speed makes of the
                                8N1 bytes at the chip's (fewer bytes when slower, more garbage
                                when faster; what it writes reaches the chip garbled too), or
                                clean: the bytes as sent, whatever its speed.
        --output-delay MS[±JITTER]
                                Send each epoch's first byte MS milliseconds after the instant it
                                describes, give or take JITTER (uniform, seeded: '120±15' or
                                '120+-15'), as a chip that computes its solution first; time
                                users calibrate it as an offset (default: the profile's, 0).
        --base LAT,LON[,ALT]    Be a reference station there (with --profile ublox-f9p): time mode
                                at that fixed antenna position (ALT above the geoid), sending
                                RTCM 3 1005, the MSM4 of GPS, GLONASS, Galileo and BeiDou (1074,
                                1084, 1094, 1124) and 1230 on the port every epoch.
        --moving-base           Be a moving base (with --profile ublox-f9p): send RTCM 3 4072.0
                                (the antenna's position and velocity, in the emulator's own
                                layout: u-blox publishes none), the MSM7 of GPS, GLONASS, Galileo
                                and BeiDou and 1230 every epoch, for a rover on the same vehicle
                                that gives its vector from this antenna in NAV-RELPOSNED.
        --antenna-offset FORWARD,RIGHT[,UP]
                                Where the antenna sits on the vehicle the position, route or
                                scenario moves, meters along the course over ground, to its right
                                and up (each within ±100): two devices on one route with their
                                offsets are a vehicle's two antennas.
        --rtk-convergence FLOAT,FIXED
                                How fast a ublox-f9p fed RTCM 3 corrections converges: mean
                                seconds from the first corrections to RTK float, then from float
                                to RTK fixed, each drawn from half to one and a half times
                                (seeded) and longer on a long baseline (default: 5,15).
        --state-dir DIR         Keep the chip's flash and battery-backed RAM (what a u-blox
                                CFG-CFG or CFG-VALSET saves) in DIR between runs, in a file named
                                after the link (/dev/ttyMOCKGPS0: dev+ttyMOCKGPS0.state, mode
                                0600), read at start; DIR must be of this user or root and
                                writable by no group or other (default: kept for the run only).
        --group NAME            Group of the device node, as for a real serial port
                                (default: dialout).
        --mode OCTAL            Permissions of the device node (default: 0660).
        --time-scale X          Simulated time runs X times as fast as the wall clock, 0.01 to
                                1000, or to 1000000 for a log (default: 1).
        --start-time ISO8601    Simulated UTC time at the start, YYYY-MM-DDTHH:MM:SS[.fraction]Z
                                or with +00:00 for Z, no leap second (default: now).
        --tcp [HOST:]PORT       Also serve the stream to any number of TCP clients (gpsd:
                                tcp://127.0.0.1:PORT), on 127.0.0.1 unless a host is given (an
                                IPv4 or [IPv6] address, or localhost); port 0 picks a free one,
                                which the start line says. A client that has not read the last
                                epoch loses the next one whole; what clients write is dropped.
        --udp HOST:PORT         Also send the stream as UDP datagrams to HOST:PORT, one per
                                sentence or binary frame (gpsd: udp://HOST:PORT).
        --gpsd-socket PATH      Tell the gpsd listening on this control socket (gpsd -F PATH)
                                about the device, as gpsd's hotplug scripts do: '+LINK' once the
                                link exists, '-LINK' before it is removed. Without a gpsd there,
                                a warning and the run goes on; a gpsd started later is not told.
        --panel [HOST:]PORT     Serve a live panel in the browser (map, sky, status, and controls
                                through the control layer), on 127.0.0.1 unless a host is given;
                                port 0 picks a free one. Standard error says its URL with a
                                random token, which every request needs; with --config one panel
                                serves every device.
        --panel-files DIR       The folder the panel's users may load route files from (none by
                                default): they have no account on this machine, so the panel
                                opens no other file.
        --config FILE           Run many receivers in one process, from a JSON file
                                {"devices": [{"link": "/tmp/gps0", "rate": 10}, ...]}: each
                                device takes the options above without their dashes (a
                                position as [LAT, LON, ALT], flags as true); relative files are
                                read from the file's folder. No other option but --shard,
                                --panel, --panel-files, --verbose or --quiet goes with it;
                                'mockgps check FILE' validates it. Every error of every
                                device, its files' included, is reported before any device
                                opens, and the exit status is the first error's.
        --shard K/N             Run only the devices of --config at positions K, K+N, K+2N...
                                (from 1), so that N hosts given the same file run each device
                                once between them.
        -v, --verbose           Also log clients opening and closing the device and the commands
                                they write.
        -q, --quiet             Log only errors (on standard error; the start lines on
                                standard output stay: they name each device and port).
        -h, --help              Show this help.

      EXIT STATUS: 0 after a signal or, with --once, at the end of the route or log; 1 when the
      receiver cannot start (link, pseudo-terminal, a --passthrough device that is not a
      terminal); 64 for a usage error; 65 when the route, scenario or almanac is wrong, or the log
      holds nothing to replay, or the --state-dir file is not this chip's state; 66 when it is
      missing or cannot be read, when the --state-dir directory is missing or unsafe, when the
      --passthrough device does not exist, or when auto finds no single receiver.

      """
    #expect(Help.run == expected)
  }
}

extension EmulatorConfiguration {
  /// The position of a fixed source; traps for any other source.
  var fixedPosition: GeodeticPosition {
    guard case .fixed(let position) = source else { preconditionFailure("not a fixed source") }
    return position
  }
}
