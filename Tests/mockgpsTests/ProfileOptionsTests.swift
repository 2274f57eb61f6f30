import MockGPS
import Receiver
import Simulation
import Testing

@testable import mockgps

/// `--profile`, `--almanac`, `--constellations`, `--seed` and `mockgps profiles`.
@Suite struct ProfileOptionsTests {
  @Test func theDefaultIsTheGenericProfileWithTheNominalSkyOfItsSystems() throws {
    let configuration = try RunOptions.parse([]).configuration
    #expect(configuration.profile == .generic)
    #expect(configuration.sky == SkySettings())
    #expect(
      configuration.sky.constellations(for: .generic)
        == ReceiverProfile.generic.defaultConstellations)
    #expect(configuration.geoid == .egm96)
  }

  @Test(arguments: ReceiverProfile.all.map(\.name))
  func everyProfileIsTakenByNameAndSetsItsOwnBaud(name: String) throws {
    let options = try RunOptions.parse(["--profile", name])
    let profile = try #require(ReceiverProfile.named(name))
    #expect(options.configuration.profile == profile)
    #expect(options.configuration.pacing.baud == profile.defaultBaud)
    let explicit = try RunOptions.parse(["--profile=\(name)", "--baud", "115200"])
    #expect(explicit.configuration.pacing.baud == 115_200)
  }

  @Test func constellationsAreASetInAnyOrderAndRepeatsAreHarmless() throws {
    let options = try RunOptions.parse(["--constellations", "galileo,gps,beidou,gps"])
    #expect(options.configuration.sky.constellations == [.gps, .galileo, .beidou])
    let all = try RunOptions.parse(["--constellations=gps,glonass,galileo,beidou,sbas"])
    #expect(all.configuration.sky.constellations == Set(Constellation.allCases))
    let f9p = try #require(ReceiverProfile.named("ublox-f9p"))
    #expect(all.configuration.sky.constellations(for: f9p) == Set(Constellation.allCases))
  }

  /// An NMEA 2.3 receiver cannot write Galileo or BeiDou satellites, so it does not track them:
  /// its fix and DOPs never count satellites its GSA and GSV cannot list.
  @Test func aReceiverTracksOnlyTheSystemsItsNMEACanWrite() throws {
    let all = try RunOptions.parse(["--constellations=gps,glonass,galileo,beidou,sbas"])
    #expect(all.configuration.sky.constellations(for: .generic) == [.gps, .glonass, .sbas])
    let mtk = try #require(ReceiverProfile.named("mtk"))
    let beidou = try RunOptions.parse(["--constellations", "beidou"])
    #expect(beidou.configuration.sky.constellations(for: mtk).isEmpty)
  }

  @Test func theSeedSeedsTheSkyWithOrWithoutAScenario() throws {
    #expect(try RunOptions.parse(["--seed", "42"]).configuration.sky.seed == 42)
    let scenario = try RunOptions.parse(["--scenario", "s.json", "--seed", "7"])
    #expect(scenario.configuration.sky.seed == 7)
    #expect(scenario.playback.seed == 7)
    #expect(try RunOptions.parse([]).configuration.sky.seed == nil)
  }

  @Test func theAlmanacPathIsKeptToBeReadBeforeTheDeviceOpens() throws {
    #expect(try RunOptions.parse(["--almanac", "week149.yuma"]).almanacPath == "week149.yuma")
    #expect(try RunOptions.parse([]).almanacPath == nil)
  }

  @Test func profilesIsASubcommandWithItsHelp() throws {
    #expect(try Command.parse(["profiles"]) == .profiles)
    #expect(try Command.parse(["profiles", "--help"]) == .help(topic: .profiles))
    #expect(try Command.parse(["help", "profiles"]) == .help(topic: .profiles))
  }

  @Test func profilesListsEveryProfileOnceAlignedAndMarksTheDefault() throws {
    let lines = ProfilesCommand.lines()
    #expect(lines.count == ReceiverProfile.all.count)
    let summaryColumn = (ReceiverProfile.all.map(\.name.count).max() ?? 0) + 2
    for (line, profile) in zip(lines, ReceiverProfile.all) {
      #expect(line.hasPrefix(profile.name + " "))
      #expect(String(line.dropFirst(summaryColumn)).hasPrefix(profile.summary))
    }
    #expect(lines.filter { $0.hasSuffix(" (default)") }.count == 1)
    #expect(lines.first { $0.hasSuffix(" (default)") }?.hasPrefix("generic ") == true)
  }

  @Test func aListOfTwoAlignsTheLongerName() {
    let short = ReceiverProfile.generic
    var long = ReceiverProfile.generic
    long.name = "much-longer"
    long.summary = "other"
    #expect(
      ProfilesCommand.lines([short, long], default: long) == [
        "generic      " + short.summary, "much-longer  other (default)",
      ])
  }
}
