import Foundation
import InputFiles
import MockGPS
import MockGPSTestSupport
import RouteFiles
import Servers
import Simulation
import TestFixtures
import Testing

@testable import mockgps

/// `--config` files: their shape, each device read by `run`'s parser, and every error worded
/// after the file, the device and the key.
@Suite struct DeviceConfigTests {
  /// The devices of `text`, read as the file `fleet.json` in `/rig`.
  static func config(_ text: String) throws(InputFileError) -> DeviceConfig {
    let file = try DeviceConfigFile.parse(
      bytes: Array(text.utf8), name: "fleet.json", flags: DeviceConfig.flagKeys,
      fileKeys: DeviceConfig.fileKeys, baseDirectory: "/rig", refusal: DeviceConfig.refusal)
    return try DeviceConfig.make(file, name: "fleet.json")
  }

  /// The lines of the error `text` gives.
  static func errors(_ text: String) -> [String] {
    do {
      _ = try config(text)
      return []
    } catch {
      return error.description.split(separator: "\n").map(String.init)
    }
  }

  @Test func eachDeviceGetsTheOptionsOfRunFromItsKeys() throws {
    let config = try Self.config(
      """
      {"devices": [
        {"link": "/tmp/gps0", "position": [51.5, -0.25, 20], "rate": 10, "baud": 115200},
        {"link": "/tmp/gps1", "constellations": ["gps", "galileo"], "route": "legs/a.gpx", "loop": true,
         "speed": 12.5, "time-scale": 60},
        {"link": "/tmp/gps2", "scenario": "/abs/s.json", "once": false, "profile": "ublox-m8"}
      ]}
      """)
    #expect(
      config.devices.map(\.label) == [
        "devices[0] (link /tmp/gps0)", "devices[1] (link /tmp/gps1)", "devices[2] (link /tmp/gps2)",
      ])
    let first = config.devices[0].options
    #expect(
      first
        == (try RunOptions.parse([
          "--link", "/tmp/gps0", "--position", "51.5,-0.25,20", "--rate", "10", "--baud", "115200",
        ])))
    #expect(first.positionHasAltitude)
    let second = config.devices[1].options
    #expect(
      second
        == (try RunOptions.parse([
          "--link", "/tmp/gps1", "--constellations", "gps,galileo", "--route", "/rig/legs/a.gpx",
          "--loop",
          "--speed", "12.5", "--time-scale", "60",
        ])))
    #expect(
      config.devices[2].options
        == (try RunOptions.parse([
          "--link", "/tmp/gps2", "--scenario", "/abs/s.json", "--profile", "ublox-m8",
        ])))
    #expect(config.summary == "config of 3 devices: /tmp/gps0, /tmp/gps1, /tmp/gps2")
  }

  @Test func badValuesAreWordedAfterTheFileTheDeviceAndTheKey() {
    #expect(
      Self.errors(
        """
        {"devices": [
          {"link": "/tmp/gps0"},
          {"link": "/tmp/gps1"}, {"link": "/tmp/gps2"},
          {"link": "/tmp/gps3",
           "rate": 50}
        ]}
        """) == [
          "fleet.json:5: devices[3] (link /tmp/gps3): rate: expected a rate in Hz from 0.1 to 20, got 50"
        ])
    #expect(
      Self.errors(#"{"devices": [{"position": [91, 0]}]}"#) == [
        "fleet.json:1: devices[0]: position: latitude 91.0 is outside -90...90, got [91, 0]"
      ]
        || Self.errors(#"{"devices": [{"position": [91, 0]}]}"#).first?.hasPrefix(
          "fleet.json:1: devices[0]: position: ") == true
    )
    #expect(
      Self.errors(#"{"devices": [{"link": "/tmp/a", "position": [1]}]}"#) == [
        "fleet.json:1: devices[0] (link /tmp/a): position: expected LAT,LON[,ALT] in decimal "
          + "degrees and meters, got [1]"
      ])
  }

  @Test func everyErrorOfTheFileIsReportedInLineOrder() {
    #expect(
      Self.errors(
        """
        {"devices": [
          {"link": "/tmp/gps0", "rate": 50},
          {"link": "/tmp/gps0"},
          {"link": "/tmp/gps3", "verbose": true, "loop": 1},
          {"link": "/tmp/gps4", "colour": "red", "rate": null},
          7,
          {"link": "/tmp/gps6", "config": "other.json", "help": true},
          {"link": "/tmp/gps7", "position": [1, [2]], "link": "/tmp/x"}
        ], "extra": 1}
        """) == [
          "fleet.json:2: devices[0] (link /tmp/gps0): rate: expected a rate in Hz from 0.1 to 20, got 50",
          "fleet.json:3: devices[1] (link /tmp/gps0): link: the same link as devices[0]",
          "fleet.json:4: devices[2] (link /tmp/gps3): verbose: the log level is the process's: give --verbose on the command line",
          "fleet.json:4: devices[2] (link /tmp/gps3): loop: expected true or false, got 1",
          "fleet.json:5: devices[3] (link /tmp/gps4): colour: unknown key (expected one of "
            + DeviceConfig.acceptedKeys.joined(separator: ", ") + ")",
          "fleet.json:5: devices[3] (link /tmp/gps4): rate: expected a string, a number or an array, got null",
          "fleet.json:6: devices[4]: expected an object, got 7",
          "fleet.json:7: devices[5] (link /tmp/gps6): config: a device cannot name another config file",
          "fleet.json:7: devices[5] (link /tmp/gps6): help: not an option of a device",
          "fleet.json:8: devices[6] (link /tmp/gps7): position: expected an array of numbers or strings, got [1, [2]]",
          "fleet.json:8: devices[6] (link /tmp/gps7): key 'link' given more than once",
          "fleet.json:9: extra: unknown key (expected devices)",
        ])
  }

  @Test func onOneLineTheDevicesKeepTheirOrderAndTheFirstErrorGivesTheStatus() throws {
    // Errors on one line were ordered by kind: devices[1]'s bad value (65) before devices[0]'s
    // missing route (66), which the status then did not follow.
    let folder = NSTemporaryDirectory() + "config-one-line-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/fleet.json"
    let text =
      #"{"devices": [{"link": "/tmp/gps0", "route": "nope.csv"}, "#
      + #"{"link": "/tmp/gps1", "speed": 5000}]}"#
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    do {
      _ = try DeviceConfig.load(path: path)
      Issue.record("accepted")
    } catch {
      let lines = error.text.split(separator: "\n").map(String.init)
      #expect(lines.count == 2)
      #expect(lines.first?.hasPrefix("\(path):1: devices[0] (link /tmp/gps0): route:") == true)
      #expect(lines.last?.hasPrefix("\(path):1: devices[1] (link /tmp/gps1): speed:") == true)
      #expect(error.code == ExitCode.noInput)
    }
  }

  @Test func aValueHoldingANULIsRefusedNotCutThere() {
    // The link "/tmp/a\u0000b" was made at /tmp/a: arguments end at a NUL.
    #expect(
      Self.errors(
        #"{"devices": [{"link": "/tmp/a\u0000b"}, {"link": "/tmp/c", "position": ["1\u0000", 2]}]}"#
      ) == [
        #"fleet.json:1: devices[0] (link /tmp/a\u{0}b): link: expected text without a NUL character, got "/tmp/a\u{0}b""#,
        #"fleet.json:1: devices[1] (link /tmp/c): position: expected text without a NUL character, got ["1\u{0}", 2]"#,
      ])
  }

  @Test func everyBadValueOfADeviceIsReported() {
    let errors = Self.errors(
      """
      {"devices": [
        {"link": "/tmp/gps0", "rate": 50,
         "baud": "fast",
         "profile": "nope", "panel": 8080, "panel-files": "/srv",
         "shard": "1/2"}
      ]}
      """)
    #expect(errors.count == 6, "\(errors)")
    for (line, key) in [
      (2, "rate"), (3, "baud"), (4, "profile"), (4, "panel"), (4, "panel-files"), (5, "shard"),
    ] {
      #expect(
        errors.contains {
          $0.hasPrefix("fleet.json:\(line): devices[0] (link /tmp/gps0): \(key): ")
        },
        "\(key): \(errors)")
    }
    #expect(
      errors.contains {
        $0.hasSuffix(
          "panel: the panel is the process's: give --panel with --config on the command line")
      })
  }

  @Test func linksAreComparedAsRunOpensThem() {
    #expect(
      Self.errors(#"{"devices": [{"link": "/tmp/d/a"}, {"link": "/tmp//d/./a"}]}"#) == [
        "fleet.json:1: devices[1] (link /tmp//d/./a): link: the same link as devices[0]"
      ])
    let relative = DeviceConfig.normalized("a")
    #expect(relative.hasPrefix("/") && relative.hasSuffix("/a") && !relative.contains("/./"))
    #expect(Self.errors(#"{"devices": [{"link": "a"}, {"link": "\#(relative)"}]}"#).count == 1)
    #expect(Self.errors(#"{"devices": [{"link": "/tmp/d/a"}, {"link": "/tmp/d/b"}]}"#) == [])
  }

  @Test func twoDevicesCannotShareAControlSocket() {
    #expect(
      Self.errors(
        """
        {"devices": [
          {"link": "/tmp/a", "control": "/tmp/c.sock"},
          {"link": "/tmp/b", "control": "/tmp//c.sock"}
        ]}
        """) == [
          "fleet.json:3: devices[1] (link /tmp/b): control: the same control socket as devices[0]: /tmp/c.sock"
        ])
    // The default socket of a link, given explicitly to another device.
    let implied = ControlSettings.defaultPath(forLink: "/tmp/a")
    #expect(
      Self.errors(
        #"{"devices": [{"link": "/tmp/a"}, {"link": "/tmp/b", "control": "\#(implied)"}]}"#) == [
          "fleet.json:1: devices[1] (link /tmp/b): control: the same control socket as devices[0]: \(implied)"
        ])
    // Devices without a socket never share one.
    #expect(
      Self.errors(
        """
        {"devices": [
          {"link": "/tmp/a", "no-control": true},
          {"link": "/tmp/b", "control": "\(implied)"}
        ]}
        """) == [])
  }

  @Test func twoDevicesCannotListenOnTheSameTCPAddress() {
    #expect(
      Self.errors(
        """
        {"devices": [
          {"link": "/tmp/a", "tcp": "2947"},
          {"link": "/tmp/b", "tcp": "2947"}
        ]}
        """) == [
          "fleet.json:3: devices[1] (link /tmp/b): tcp: the same TCP address as devices[0]: 127.0.0.1:2947"
        ])
    // Another host or port, or port 0 (the system picks a free one), does not conflict.
    #expect(
      Self.errors(
        """
        {"devices": [
          {"link": "/tmp/a", "tcp": "2947"},
          {"link": "/tmp/b", "tcp": "2948"},
          {"link": "/tmp/c", "tcp": "127.0.0.2:2947"},
          {"link": "/tmp/d", "tcp": "0"},
          {"link": "/tmp/e", "tcp": "0"}
        ]}
        """) == [])
  }

  @Test func combinationsRunRefusesAreWordedWithKeys() {
    #expect(
      Self.errors(#"{"devices": [{"link": "/tmp/a", "route": "r.gpx", "scenario": "s.json"}]}"#)
        .first?.hasPrefix("fleet.json:1: devices[0] (link /tmp/a): ") == true)
    let message = Self.errors(
      #"{"devices": [{"link": "/tmp/a", "route": "r.gpx", "scenario": "s.json"}]}"#
    ).joined()
    #expect(!message.contains("'--"), "\(message)")
  }

  @Test func aBadValueDoesNotHideTheCombinationsOfItsDevice() {
    #expect(
      Self.errors(
        """
        {"devices": [
          {"link": "/tmp/a", "rate": 50,
           "speed": 12}
        ]}
        """) == [
          "fleet.json:2: devices[0] (link /tmp/a): rate: expected a rate in Hz from 0.1 to 20, got 50",
          "fleet.json:2: devices[0] (link /tmp/a): option 'speed' needs 'route'",
        ])
    // So do an unknown key and a malformed value.
    #expect(
      Self.errors(#"{"devices": [{"link": "/tmp/a", "colour": "red", "loop": 1, "speed": 12}]}"#)
        .last == "fleet.json:1: devices[0] (link /tmp/a): option 'speed' needs 'route'")
    // A combination naming the key whose value was refused may hold once it is right.
    #expect(
      Self.errors(#"{"devices": [{"link": "/tmp/a", "route": "", "speed": 12}]}"#).count == 1)
  }

  @Test func keysTheSourceMakesPointlessAreErrorsSayingWhy() {
    let errors = Self.errors(
      """
      {"devices": [
        {"link": "/tmp/a", "replay": "a.log", "seed": 3},
        {"link": "/tmp/b", "passthrough": "/dev/ttyUSB0", "seed": 3,
         "time-scale": 2,
         "start-time": "2024-07-01T12:00:00Z"}
      ]}
      """)
    #expect(errors.count == 4, "\(errors)")
    for (index, (line, device, key, with)) in [
      (2, "devices[0] (link /tmp/a)", "seed", "'replay'"),
      (3, "devices[1] (link /tmp/b)", "seed", "'passthrough' without 'scenario'"),
      (4, "devices[1] (link /tmp/b)", "time-scale", "'passthrough'"),
      (5, "devices[1] (link /tmp/b)", "start-time", "'passthrough' without 'route' or 'scenario'"),
    ].enumerated() {
      #expect(
        errors.dropFirst(index).first?.hasPrefix(
          "fleet.json:\(line): \(device): \(key): not used with \(with): ") == true,
        "\(errors)")
    }
    // Where they change something, they are taken.
    #expect(
      Self.errors(
        """
        {"devices": [
          {"link": "/tmp/a", "passthrough": "/dev/ttyUSB0", "scenario": "s.json", "seed": 3,
           "start-time": "2024-07-01T12:00:00Z"},
          {"link": "/tmp/b", "passthrough": "/dev/ttyUSB1", "route": "r.gpx",
           "start-time": "2024-07-01T12:00:00Z"},
          {"link": "/tmp/c", "replay": "a.log", "gpsd-socket": "/run/gpsd.sock",
           "time-scale": 2},
          {"link": "/tmp/d", "scenario": "s.json", "seed": 3, "time-scale": 2}
        ]}
        """) == [])
  }

  @Test func theShapeOfTheFileIsChecked() {
    #expect(
      Self.errors("[1, 2]") == [
        #"fleet.json:1: (top level): expected an object {"devices": [...]}, got an array"#
      ])
    #expect(
      Self.errors("{}") == [
        "fleet.json:1: (top level): missing key 'devices' (an array of device objects)"
      ])
    #expect(
      Self.errors(#"{"devices": {}}"#) == [
        "fleet.json:1: devices: expected an array of device objects, got an object"
      ])
    #expect(
      Self.errors(#"{"devices": []}"#) == [
        "fleet.json:1: devices: expected an array of device objects, got []"
      ])
    #expect(
      Self.errors("{\"devices\": [\n  {\"link\": 3,}\n]}") == [
        "fleet.json:2:14: invalid JSON: expected a key in double quotes, got '}'"
      ])
  }

  @Test func aFlagSetToFalseIsLeftOut() throws {
    let config = try Self.config(#"{"devices": [{"link": "/tmp/a", "loop": false}]}"#)
    #expect(!config.devices[0].options.playback.loop)
  }

  @Test func configExcludesTheOptionsOfADevice() throws {
    #expect(
      throws: UsageError(
        message:
          "options '--config' and '--rate' exclude each other (give 'rate' to each device in the file)"
      )
    ) { try RunOptions.parse(["--config", "f.json", "--rate", "5"]) }
    let options = try RunOptions.parse(["--config", "f.json", "--quiet"])
    #expect(options.configPath == "f.json")
    #expect(options.logLevel == .error)
  }

  @Test func errorsOfADeviceAreLabelledOnEveryMockgpsLine() {
    #expect(
      ManyDevicesRun.labelled("mockgps: bad\nSee 'mockgps --help'.\n", "devices[1] (link /a)")
        == "mockgps: devices[1] (link /a): bad\nSee 'mockgps --help'.\n")
    #expect(
      ManyDevicesRun.labelled("r.gpx: No such file or directory\n", "devices[0]")
        == "mockgps: devices[0]: r.gpx: No such file or directory\n")
  }
}

/// `run --config` reads each device's files once: the check keeps what it read for the run.
@Suite struct DeviceConfigInputsTests {
  @Test func theRouteAndAlmanacCheckedAreTheOnesRunWithoutReadingThemAgain() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "mockgps-config-inputs-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let route = folder.appendingPathComponent("leg.gpx")
    try FileManager.default.copyItem(
      at: Fixtures.routesDirectory.appendingPathComponent("cerknicko-jezero.gpx"), to: route)
    let almanac = folder.appendingPathComponent("yuma.txt")
    try FileManager.default.copyItem(
      at: Fixtures.almanacDirectory.appendingPathComponent("almanac.yuma.week0149.405504.txt"),
      to: almanac)
    let config = folder.appendingPathComponent("fleet.json")
    try Data(
      """
      {"devices": [{"link": "/tmp/gps-inputs0", "route": "leg.gpx", "almanac": "yuma.txt"},
                   {"link": "/tmp/gps-inputs1"}]}
      """.utf8
    ).write(to: config)
    let devices = try DeviceConfig.load(path: config.path).devices
    let checked = try #require(devices[0].inputs)
    guard case .route(let loaded, _)? = checked.source else {
      Issue.record("no route kept: \(String(describing: checked.source))")
      return
    }
    #expect(loaded.points.count > 100)
    #expect(checked.almanac?.count == 31)
    // Gone from the disk: the run takes what the check read.
    try FileManager.default.removeItem(at: route)
    try FileManager.default.removeItem(at: almanac)
    let inputs = try RunCommand.readInputs(devices[0].options, checked: checked).get()
    #expect(inputs.almanac?.count == 31)
    guard case .route(let run, _)? = inputs.source else {
      Issue.record("no route to run")
      return
    }
    #expect(run.points.count == loaded.points.count)
    // A device without files has nothing to keep but is checked all the same.
    #expect(devices[1].inputs != nil)
    #expect(devices[1].inputs?.source == nil)
  }
}
