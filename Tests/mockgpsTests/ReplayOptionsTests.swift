import Geodesy
import MockGPS
import Replay
import Testing

@testable import mockgps

/// `mockgps run --replay FILE` and the options that go with it.
@Suite struct ReplayOptionsTests {
  @Test func everyReplayOptionIsParsed() throws {
    let options = try RunOptions.parse([
      "--replay", "drive.log", "--time", "now", "--loop", "--wait-for-client", "--settle", "0.5",
      "--move-to", "-33.8568,151.2153", "--drop-invalid", "--baud", "0",
      "--time-scale", "1000000", "--link", "/tmp/ttyR",
    ])
    #expect(options.playback.script == .replay(path: "drive.log"))
    #expect(options.playback.isReplay)
    let playback = options.playback.replayPlayback
    #expect(playback.options.time == .now)
    #expect(playback.options.looping)
    #expect(playback.options.dropInvalid)
    #expect(playback.options.moveTo?.latitude == -33.8568)
    #expect(playback.options.moveTo?.longitude == 151.2153)
    #expect(playback.waitsForClient && playback.settleSeconds == 0.5)
    #expect(options.configuration.timeScale == 1_000_000)
    #expect(options.configuration.pacing.baud == 0 && options.baudIsExplicit)
    #expect(try options.playback.source() == .replay(path: "drive.log", playback))
  }

  @Test func theDefaultsPlayTheLogOnceAsRecordedFromTheStart() throws {
    let options = try RunOptions.parse(["--replay", "drive.log", "--once"])
    let playback = options.playback.replayPlayback
    #expect(playback == ReplayPlayback())
    #expect(playback.settleSeconds == 1.4)
    #expect(options.playback.once)
    #expect(!options.baudIsExplicit)
  }

  @Test(arguments: PlaybackOptions.notForReplay)
  func aReplayExcludesWhatOnlyASimulatedReceiverHas(option: String) {
    let value =
      [
        "--position": "1,2", "--route": "a.gpx", "--scenario": "s.json", "--profile": "mtk",
        "--almanac": "a.alm", "--constellations": "gps", "--rate": "5",
        "--start-time": "2024-01-01T00:00:00Z", "--output-delay": "120",
        "--rtk-convergence": "5,15", "--antenna-offset": "1,0",
      ][option] ?? ""
    #expect(throws: UsageError(message: "options '--replay' and '\(option)' exclude each other")) {
      try RunOptions.parse(["--replay", "drive.log", option, value])
    }
  }

  @Test(arguments: [
    (["--wait-for-client"], "option '--wait-for-client' needs '--replay'"),
    (["--drop-invalid"], "option '--drop-invalid' needs '--replay'"),
    (["--move-to", "1,2"], "option '--move-to' needs '--replay'"),
    (["--replay", "a.log", "--settle", "2"], "option '--settle' needs '--wait-for-client'"),
    (
      ["--replay", "a.log", "--wait-for-client", "--settle", "61"],
      "invalid value '61' for '--settle': expected seconds from 0 to 60"
    ),
    (
      ["--replay", "a.log", "--move-to", "91,0"],
      "invalid value '91,0' for '--move-to': latitude 91.0 is outside -90...90"
    ),
    (
      ["--replay", "a.log", "--move-to", "1,2,3"],
      "invalid value '1,2,3' for '--move-to': expected LAT,LON in decimal degrees"
    ),
    (
      ["--time-scale", "2000"],
      "invalid value '2000' for '--time-scale': expected a factor from 0.01 to 1000 "
        + "(to 1000000 with --replay)"
    ),
    (
      ["--replay", "a.log", "--time-scale", "2000000"],
      "invalid value '2000000' for '--time-scale': expected a factor from 0.01 to 1000 "
        + "(to 1000000 with --replay)"
    ),
  ])
  func replayUsageErrorsNameTheOptionAndWhatIsAccepted(arguments: [String], message: String) {
    #expect(throws: UsageError(message: message)) { try RunOptions.parse(arguments) }
  }

  @Test func theLogsSerialBaudPacesItUnlessBaudIsGiven() {
    var header = LogHeader()
    #expect(PlaybackOptions.replayPacing(header).0.baud == 9600)
    header.serial = LogHeader.Serial(baud: 4800)
    #expect(PlaybackOptions.replayPacing(header).0.baud == 4800)
    #expect(PlaybackOptions.replayPacing(header).warning == nil)
    header.serial = LogHeader.Serial(baud: 14_400)
    #expect(PlaybackOptions.replayPacing(header).0.baud == 9600)
    #expect(PlaybackOptions.replayPacing(header).warning?.contains("14400") == true)
  }
}
