import Geodesy
import MockGPS
import Testing
import Udev

@testable import mockgps

/// `mockgps run --passthrough DEVICE` and the options that go with it.
@Suite struct PassthroughOptionsTests {
  static func settings(_ arguments: [String]) throws -> PassthroughSettings? {
    try RunOptions.parse(arguments).configuration.passthrough
  }

  @Test func everyPassthroughOptionIsParsed() throws {
    let options = try RunOptions.parse([
      "--passthrough", "/dev/ttyACM0", "--passthrough-baud", "38400", "--override", "offset",
      "--offset", "-12.5,300", "--link", "/tmp/ttyP",
    ])
    let settings = try #require(options.configuration.passthrough)
    #expect(settings.target == .path("/dev/ttyACM0"))
    #expect(settings.baud == 38400)
    #expect(settings.override == .offset)
    #expect(settings.offset == PassthroughSettings.Offset(northMeters: -12.5, eastMeters: 300))
    #expect(!settings.replacesAltitude)
    #expect(options.configuration.linkPath == "/tmp/ttyP")
  }

  @Test func withoutPassthroughThereAreNoSettings() throws {
    #expect(try Self.settings([]) == nil)
    #expect(try Self.settings(["--position", "1,2"]) == nil)
  }

  @Test func theBaudIsFoundByDefaultAndWithAuto() throws {
    #expect(try Self.settings(["--passthrough", "/dev/ttyUSB0"])?.baud == nil)
    #expect(
      try Self.settings(["--passthrough", "/dev/ttyUSB0", "--passthrough-baud", "auto"])?.baud
        == nil)
    #expect(
      try Self.settings(["--passthrough", "/dev/ttyUSB0", "--passthrough-baud=115200"])?.baud
        == 115_200)
  }

  @Test(arguments: [
    ([String](), PassthroughSettings.OverrideMode.off),
    (["--position", "48.8584,2.2945"], .replace),
    (["--route", "drive.gpx"], .route),
    (["--scenario", "s.json"], .route),
    (["--offset", "100,-50"], .offset),
  ])
  func theModeFollowsFromTheOtherOptions(
    arguments: [String], mode: PassthroughSettings.OverrideMode
  ) throws {
    #expect(try Self.settings(["--passthrough", "/dev/ttyACM0"] + arguments)?.override == mode)
  }

  @Test func replaceTakesThePositionAndItsAltitudeWhenGiven() throws {
    let withAltitude = try RunOptions.parse([
      "--passthrough", "/dev/ttyACM0", "--position", "48.8584,2.2945,35",
    ])
    #expect(withAltitude.configuration.passthrough?.replacesAltitude == true)
    #expect(withAltitude.configuration.fixedPosition.latitude == 48.8584)
    #expect(withAltitude.configuration.fixedPosition.altitudeMeters == 35)
    let without = try Self.settings([
      "--passthrough", "/dev/ttyACM0", "--position", "48.8584,2.2945",
    ])
    #expect(without?.replacesAltitude == false)
    let offsetTo = try Self.settings([
      "--passthrough", "/dev/ttyACM0", "--override", "offset", "--position", "1,2,3",
    ])
    #expect(offsetTo?.override == .offset && offsetTo?.replacesAltitude == false)
    #expect(offsetTo?.offset == nil)
  }

  @Test func freezeAndOffNeedNothingMore() throws {
    for mode in ["off", "freeze"] {
      #expect(
        try Self.settings(["--passthrough", "/dev/ttyACM0", "--override", mode])?.override.rawValue
          == mode)
    }
  }

  @Test(arguments: [
    (["--override", "replace"], "option '--override' needs '--passthrough'"),
    (["--offset", "1,2"], "option '--offset' needs '--passthrough'"),
    (["--passthrough-baud", "9600"], "option '--passthrough-baud' needs '--passthrough'"),
    (
      ["--passthrough", "/dev/ttyACM0", "--override", "replace"],
      "invalid value 'replace' for '--override': replace needs '--position'"
    ),
    (
      ["--passthrough", "/dev/ttyACM0", "--override", "route"],
      "invalid value 'route' for '--override': route needs '--route' or '--scenario'"
    ),
    (
      ["--passthrough", "/dev/ttyACM0", "--override", "offset"],
      "invalid value 'offset' for '--override': offset needs '--position' or '--offset'"
    ),
    (
      [
        "--passthrough", "/dev/ttyACM0", "--override", "replace", "--position", "1,2",
        "--offset", "3,4",
      ],
      "options '--position' and '--offset' exclude each other"
    ),
    (
      ["--passthrough", "/dev/ttyACM0", "--override", "freeze", "--offset", "3,4"],
      "option '--offset' needs '--override offset', not 'freeze'"
    ),
    (
      ["--passthrough", "/dev/ttyACM0", "--override", "off", "--position", "1,2"],
      "option '--position' needs '--override offset or replace', not 'off'"
    ),
    (
      ["--passthrough", "/dev/ttyACM0", "--override", "replace", "--route", "r.gpx"],
      "option '--route' needs '--override route', not 'replace'"
    ),
    (
      ["--passthrough", "/dev/ttyACM0", "--replay", "a.log"],
      "options '--passthrough' and '--replay' exclude each other"
    ),
    (
      ["--passthrough", "/dev/ttyACM0", "--baud", "9600"],
      "options '--passthrough' and '--baud' exclude each other"
    ),
    (
      ["--passthrough", "/dev/ttyACM0", "--profile", "mtk"],
      "options '--passthrough' and '--profile' exclude each other"
    ),
  ])
  func combinationsThatMeanNothingAreRefused(arguments: [String], message: String) {
    #expect(throws: UsageError(message: message)) { try RunOptions.parse(arguments) }
  }

  @Test(arguments: [
    ("--override", "move", "expected one of off, replace, offset, route, freeze"),
    ("--offset", "1", "expected NORTH_M,EAST_M in meters, signed decimals"),
    ("--offset", "1,2,3", "expected NORTH_M,EAST_M in meters, signed decimals"),
    ("--offset", "north,2", "expected NORTH_M,EAST_M in meters, signed decimals"),
    ("--offset", "0x10,2", "expected NORTH_M,EAST_M in meters, signed decimals"),
    (
      "--passthrough-baud", "0",
      "expected " + (PassthroughOptions.valueOptions["--passthrough-baud"] ?? "")
    ),
    (
      "--passthrough-baud", "9601",
      "expected " + (PassthroughOptions.valueOptions["--passthrough-baud"] ?? "")
    ),
    (
      "--passthrough-baud", "fast",
      "expected " + (PassthroughOptions.valueOptions["--passthrough-baud"] ?? "")
    ),
  ])
  func badValuesNameTheOptionAndWhatIsAccepted(option: String, value: String, expected: String) {
    let error = UsageError.invalidValue(value, for: option, expected)
    #expect(throws: error) {
      try RunOptions.parse(["--passthrough", "/dev/ttyACM0", option, value])
    }
    #expect(error.report.hasSuffix("\nSee 'mockgps --help'.\n"))
  }

  @Test func anEmptyDeviceIsRefused() {
    #expect(throws: UsageError.self) { try RunOptions.parse(["--passthrough", ""]) }
  }

  @Test func theStartLineAndTheLogSayWhatIsPassedThrough() throws {
    let options = try RunOptions.parse([
      "--passthrough", "/dev/ttyACM0", "--passthrough-baud", "9600", "--position", "1,2",
    ])
    let settings = try #require(options.configuration.passthrough)
    #expect(settings.summary == "passing through /dev/ttyACM0 at 9600 baud, override replace")
    #expect(RunCommand.receiver(options.configuration) == "passing through /dev/ttyACM0")
    let auto = try #require(try Self.settings(["--passthrough", "/dev/ttyACM0"]))
    #expect(auto.summary == "passing through /dev/ttyACM0 at auto baud, override off")
  }
}
