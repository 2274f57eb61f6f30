import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// Every fenced block of the README is run by a test, or listed here as not runnable with the
/// reason: a new block fails `everyBlockIsCoveredOrExplained` until it is one or the other.
///
/// | README block (first line)                    | run by                                    |
/// |----------------------------------------------|-------------------------------------------|
/// | scripts/run, scripts/test                    | not runnable (they are the suite, a sudo) |
/// | scripts/install … dpkg -i                    | scripts/test-install                      |
/// | /etc/mockgps, systemctl (3 blocks + fleet)   | scripts/test-unit-sandbox (needs systemd) |
/// | quick start `mockgps run`                    | ReadmeRunExamples, ReadmeCommandLineTests |
/// | gpsd -N -n, gpspipe -w, cat                  | ReadmeReceiverExamplesTests               |
/// | the epoch shown                              | ReadmeReceiverExamplesTests               |
/// | routes and scenarios, check drive.gpx        | ReadmeRunExamples, ReadmeCheckExamples…   |
/// | tunnel.json                                  | ReadmeCheckExamplesTests                  |
/// | $ mockgps check drive.csv / tunnel.json      | ReadmeCheckExamplesTests                  |
/// | profiles (F9P, MediaTek and its figures)     | ReadmeRunExamples, ReadmeReceiverExamples…|
/// | replay, record, check drive.nmea             | ReadmeRunExamples, ReadmeCheckExamples…   |
/// | passthrough (not its `auto` lines: no USB)   | ReadmeRunExamples, PassthroughProcess…    |
/// | --tcp, --udp                                 | ReadmeRunExamples                         |
/// | time service (chrony)                        | TimeServiceTests                          |
/// | options synopsis, $ mockgps run --rate 40    | ReadmeCommandLineTests                    |
/// | fleet.json, check fleet.json, its errors     | ReadmeCommandLineTests, ReadmeCheckExa…   |
/// | --shard                                      | ShardTests, ConfigProcessTests            |
/// | rtk.json (base, rover, str2str), convbin     | BaseRoverProcessTests, RTKOracleTests     |
/// | heading.json (moving base, rover, str2str)   | MovingBaseProcessTests                    |
/// | Swift: Emulator, EmulatorHarness             | ReadmeSwiftExamplesTests (MockGPSTests)   |
/// | control socket, socat                        | ReadmeControlExamplesTests                |
/// | mockgps ctl                                  | ReadmeControlExamplesTests                |
/// | Python (five lines)                          | ReadmeControlExamplesTests                |
/// | pytest Tests/Rig                             | PythonRigTests                            |
/// | --gpsd-socket                                | GpsdHotplugTests                          |
/// | --panel, Selenium, pytest Tests/Panel        | ReadmeRunExamples, Panel…Tests            |
/// | Sources map                                  | ReadmeBlocksTests                         |
/// | scripts/fuzz                                 | ReadmeBlocksTests (the targets listed)    |
/// | benchmarks                                   | not runnable (minutes each, by hand)      |
@Suite struct ReadmeBlocksTests {
  /// What runs a block: tests (`Suite.function`), a script of `scripts/`, or why nothing does.
  enum Coverage {
    case tests([String])
    case script(String, also: [String] = [])
    case notRunnable(String)
  }

  /// A text that one block holds, and what covers that block.
  static let registry: [(marker: String, coverage: Coverage)] = [
    (
      "then lint and run every test (unit, PTY, gpsd)",
      .notRunnable("scripts/test runs this suite; scripts/run installs with sudo and builds")
    ),
    ("sudo dpkg -i .build/package/mockgps_*.deb", .script("test-install")),
    (
      "sudo tee /etc/mockgps/ttyMOCKGPS.conf",
      .script("test-unit-sandbox", also: ["needs a booted systemd for systemctl"])
    ),
    ("examples/network.conf", .script("test-unit-sandbox", also: ["systemctl"])),
    (
      "--rate 1 --baud 9600 --group dialout --mode 0660",
      .tests([
        "CommandLineProcessTests.theReadmeRunLinesStartWithoutSkippingEpochs",
        "ReadmeCommandLineTests.theQuickStartShowsTheStartLineOfTheDefaultReceiver",
      ])
    ),
    (
      "# TPV mode 3 at exactly the position given",
      .tests([
        "ReadmeReceiverExamplesTests.theQuickStartEpochIsWhatCatPrintsAndGpsdReadsThePosition"
      ])
    ),
    (
      "$GPZDA,151054.00",
      .tests([
        "ReadmeReceiverExamplesTests.theQuickStartEpochIsWhatCatPrintsAndGpsdReadsThePosition"
      ])
    ),
    (
      "mockgps run --scenario tunnel.json --seed 7",
      .tests([
        "CommandLineProcessTests.theReadmeRunLinesStartWithoutSkippingEpochs",
        "ReadmeCheckExamplesTests.checkOfATrackAndOfALogSaysWhatTheyHold",
      ])
    ),
    (
      #""comment": "into the tunnel""#,
      .tests(["ReadmeCheckExamplesTests.theScenarioShownIsTheFixture"])
    ),
    (
      "$ mockgps check tunnel.json",
      .tests(["ReadmeCheckExamplesTests.theCheckErrorsShownAreChecks"])
    ),
    (
      "mockgps run --profile mtk --rate 10",
      .tests([
        "CommandLineProcessTests.theReadmeRunLinesStartWithoutSkippingEpochs",
        "ReadmeReceiverExamplesTests.theBudgetWarningCountsTheBytesOfTheLargestEpoch",
      ])
    ),
    (
      "mockgps record /dev/ttyUSB0 --out drive.rec",
      .tests([
        "CommandLineProcessTests.theReadmeRunLinesStartWithoutSkippingEpochs",
        "ReadmeCheckExamplesTests.theRecordLineRecordsAsTheTextSays",
        "ReadmeCheckExamplesTests.checkOfATrackAndOfALogSaysWhatTheyHold",
      ])
    ),
    (
      // The `auto` lines need a USB receiver: PassthroughProcessTests runs `auto` without one.
      "mockgps run --passthrough auto --override freeze",
      .tests([
        "CommandLineProcessTests.theReadmeRunLinesStartWithoutSkippingEpochs",
        "PassthroughProcessTests.autoWithoutAReceiverExits66ListingWhatItFound",
      ])
    ),
    (
      "mockgps run --udp 127.0.0.1:10110",
      .tests(["CommandLineProcessTests.theReadmeRunLinesStartWithoutSkippingEpochs"])
    ),
    (
      "refclock SHM 0 refid NMEA",
      .tests(["TimeServiceTests.chronyMeasuresTheOutputDelayThroughGpsd"])
    ),
    (
      "mockgps ctl [--control PATH", .tests(["ReadmeCommandLineTests.theOptionsSynopsisIsTheHelps"])
    ),
    ("$ mockgps run --rate 40", .tests(["ReadmeCommandLineTests.theUsageErrorShownIsRuns"])),
    (
      #"{"link": "/tmp/gps2", "scenario": "fix-loss.json""#,
      .tests(["ReadmeCommandLineTests.theConfigOfManyReceiversChecksAsItsCommentSays"])
    ),
    (
      "mockgps run --config fleet.json  # one start line",
      .tests([
        "ReadmeCommandLineTests.theConfigOfManyReceiversChecksAsItsCommentSays",
        "ConfigProcessTests.threeDevicesFromAConfigEachSendTheirOwnPositionAndAllLinksGoOnSIGTERM",
      ])
    ),
    (
      "fleet.json:9: devices[4]", .tests(["ReadmeCheckExamplesTests.theConfigErrorsShownAreChecks"])
    ),
    (
      "cat > rtk.json <<'END'",
      .tests(["BaseRoverProcessTests.aRoverFedByABaseThroughStr2strReachesFixedWithTheBaseline"])
    ),
    (
      "cat > heading.json <<'END'",
      .tests(["MovingBaseProcessTests.theRoverGivesTheVehiclesHeadingFromTheTwoAntennas"])
    ),
    (
      "convbin -r ubx -o rover.obs -n rover.nav rover.ubx",
      .tests(["RTKOracleTests.rnx2rtkpFixesTheAmbiguitiesAndFindsTheRoverWithin2Centimetres"])
    ),
    (
      "mockgps run --config fleet.json --shard 1/3",
      .tests(["ShardTests.theShardsOfAFileRunEachDeviceOnceBetweenThem"])
    ),
    ("MOCKGPS_LINK=", .script("test-unit-sandbox", also: ["systemctl"])),
    ("mockgps ctl --link /dev/gps7 status", .script("test-unit-sandbox", also: ["systemctl"])),
    (
      #"linkPath: "/tmp/ttyTEST""#,
      .tests([
        "ReadmeSwiftExamplesTests.theEmulatorExampleRuns",
        "ReadmeBlocksTests.theSwiftExamplesAreThoseOfTheirTest",
      ])
    ),
    (
      "var tracker = MyNMEATracker()",
      .tests([
        "ReadmeSwiftExamplesTests.theTrackerFollowsTheReceiver",
        "ReadmeBlocksTests.theSwiftExamplesAreThoseOfTheirTest",
      ])
    ),
    (
      "UNIX-CONNECT:/tmp/a.sock",
      .tests(["ReadmeControlExamplesTests.theControlSocketBlockRunsAsPrinted"])
    ),
    (
      "mockgps ctl --control /tmp/a.sock fix none",
      .tests(["ReadmeControlExamplesTests.theCtlBlockRunsAsPrinted"])
    ),
    ("import json, socket", .tests(["ReadmeControlExamplesTests.thePythonBlockRunsAsPrinted"])),
    ("pytest -q Tests/Rig", .tests(["PythonRigTests.thePytestRigPassesAgainstTheRealGpsd"])),
    (
      "--gpsd-socket /run/gpsd.sock",
      .tests(["GpsdHotplugTests.gpsdPicksUpTheDeviceOnStartDropsItOnStopAndPicksItUpAgain"])
    ),
    (
      "mockgps run --route drive.gpx --panel 8080",
      .tests([
        "CommandLineProcessTests.theReadmeRunLinesStartWithoutSkippingEpochs",
        "PanelProcessTests.panelZeroPicksAPortAndPrintsTheURL",
      ])
    ),
    (
      "from selenium import webdriver",
      .tests(["PanelBrowserTests.thePanelWorksInHeadlessChromium"])
    ),
    ("pytest -q Tests/Panel", .tests(["PanelBrowserTests.thePanelWorksInHeadlessChromium"])),
    (
      "Sources/mockgps      the command line",
      .tests(["ReadmeBlocksTests.theSourcesMapNamesEveryModule"])
    ),
    ("scripts/fuzz --list", .tests(["ReadmeBlocksTests.theFuzzTargetsListedAreTheScripts"])),
    (
      "scripts/bench-cadence [SECONDS]",
      .notRunnable("minutes each; figures from a quiet machine, by hand")
    ),
  ]

  static let testSources: String = {
    let tests = Fixtures.repositoryRoot.appendingPathComponent("Tests")
    let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String }
    return (files ?? []).filter { $0.hasSuffix(".swift") }.compactMap {
      try? String(contentsOf: tests.appendingPathComponent($0), encoding: .utf8)
    }.joined(separator: "\n")
  }()

  @Test func everyBlockIsCoveredOrExplained() throws {
    #expect(ReadmeBlock.all.count >= 30)
    for block in ReadmeBlock.all {
      let entries = Self.registry.filter { entry in
        block.lines.contains { $0.contains(entry.marker) }
      }
      #expect(entries.count == 1, "\(block): \(entries.count) entries; add one to the registry")
    }
    for (marker, coverage) in Self.registry {
      let blocks = ReadmeBlock.all.filter { $0.lines.contains { $0.contains(marker) } }
      #expect(blocks.count == 1, "\(marker): in \(blocks.count) blocks")
      switch coverage {
      case .tests(let names):
        for name in names {
          let parts = name.split(separator: ".")
          #expect(
            Self.testSources.contains("struct \(parts[0])")
              || Self.testSources.contains("extension \(parts[0])"), "\(name)")
          #expect(Self.testSources.contains("func \(parts[1])("), "\(name)")
        }
      case .script(let script, _):
        let path = Fixtures.repositoryRoot.appendingPathComponent("scripts/" + script).path
        #expect(FileManager.default.isExecutableFile(atPath: path), "\(script)")
      case .notRunnable(let reason):
        #expect(!reason.isEmpty)
      }
    }
  }

  /// The map of Sources names each module's folder once, and every folder there is.
  @Test func theSourcesMapNamesEveryModule() throws {
    let block = try ReadmeBlock.containing("Sources/mockgps      the command line")
    let named = block.lines.compactMap { $0.firstMatch(of: /^Sources\/(\S+)/)?.1 }.map(String.init)
    let sources = Fixtures.repositoryRoot.appendingPathComponent("Sources").path
    let folders = try FileManager.default.contentsOfDirectory(atPath: sources).filter {
      !$0.hasPrefix("C") || $0 == "Control"
    }
    #expect(Set(named).count == named.count)
    #expect(Set(named).isSubset(of: Set(folders)), "\(Set(named).subtracting(folders))")
    let missing = Set(folders).subtracting(named)
    #expect(missing.isEmpty, "folders the map leaves out: \(missing.sorted())")
  }

  /// The targets the comment of `scripts/fuzz` lists are `scripts/fuzz --list`'s.
  @Test func theFuzzTargetsListedAreTheScripts() throws {
    let block = try ReadmeBlock.containing("scripts/fuzz --list")
    let comment = block.lines.prefix { !$0.hasPrefix("scripts/fuzz --list") }
      .compactMap { $0.split(separator: "#", maxSplits: 1).last }.joined(separator: " ")
    let listed = comment.replacing(/; all, 60 s each.*/, with: "").split(separator: ",")
      .map { $0.trimmingCharacters(in: .whitespaces) }
    let script = Fixtures.repositoryRoot.appendingPathComponent("scripts/fuzz").path
    let process = try TestProcess("/bin/bash", [script, "--list"])
    #expect(process.exitStatus(within: 10) == 0)
    let targets = process.standardOutput.split(separator: "\n").map(String.init)
    #expect(listed == targets)
  }

  /// The README's Swift blocks are the code of `Tests/MockGPSTests/ReadmeSwiftExamplesTests`
  /// between its `README:` markers, line for line but for the indentation, with imports it has.
  @Test(arguments: [
    ("Emulator", #"linkPath: "/tmp/ttyTEST""#), ("EmulatorHarness", "MyNMEATracker()"),
  ])
  func theSwiftExamplesAreThoseOfTheirTest(_ name: String, _ marker: String) throws {
    let block = try ReadmeBlock.containing(marker)
    #expect(block.language == "swift")
    let source = try String(
      contentsOf: Fixtures.repositoryRoot.appendingPathComponent(
        "Tests/MockGPSTests/ReadmeSwiftExamplesTests.swift"), encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(lines.firstIndex { $0.hasSuffix("// README: \(name)") })
    let end = try #require(lines[start...].firstIndex { $0.hasSuffix("// README end") })
    func code(_ lines: some Sequence<String>) -> [String] {
      lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter {
        !$0.isEmpty && !$0.hasPrefix("import ")
      }
    }
    #expect(code(block.lines) == code(lines[(start + 1)..<end]))
    let imports = Set(
      lines.filter { $0.hasPrefix("import ") }.map { $0.replacing(/\s*\/\/.*/, with: "") })
    for line in block.lines where line.hasPrefix("import ") {
      #expect(imports.contains(line.replacing(/\s*\/\/.*/, with: "")), "\(line)")
    }
  }
}
