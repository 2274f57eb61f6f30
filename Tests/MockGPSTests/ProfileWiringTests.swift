import DeviceRuntime
import Foundation
import Geodesy
import MockGPSTestSupport
import Receiver
import Simulation
import Synchronization
import TestFixtures
import Testing
import UBX

@testable import DeviceTerminal
@testable import MockGPS

/// The configuration builds every profile's receiver under the orbital sky and EGM96, and the
/// emulator sends its power-up sentences and counts what clients write that it cannot read.
@Suite(.blocking) struct ProfileConfigurationTests {
  static let start = UTCInstant(year: 2026, month: 11, day: 30, hour: 12, minute: 0, second: 0)

  @Test(arguments: ReceiverProfile.all.map(\.name))
  func everyProfileGetsTheOrbitalSkyEGM96AndItsPowerUpOutput(name: String) throws {
    let profile = try #require(ReceiverProfile.named(name))
    for baud in [4800, profile.defaultBaud] {
      let configuration = EmulatorConfiguration(
        cadence: try CadencePlan(rateHz: 5), pacing: try BytePacing(baud: baud), profile: profile)
      let source = try configuration.makeEpochSource(simulatedStart: Self.start)
      #expect(source.scene.sky is OrbitalSky)
      #expect(source.scene.geoid is EGM96Geoid)
      #expect(source.encoder.profile == profile)
      #expect(source.encoder.output == profile.defaultOutput(baud: baud))
      #expect(source.encoder.nmea.constellations == profile.defaultConstellations)
      #expect(source.epochPeriodNanoseconds == 200_000_000)
    }
  }

  @Test func theConfiguredSystemsReplaceTheProfilesAndTheSkyIsTheOneTheSettingsMake() throws {
    let systems: Set<Constellation> = [.gps, .galileo]
    let f9p = try #require(ReceiverProfile.named("ublox-f9p"))
    let configuration = EmulatorConfiguration(
      profile: f9p, sky: SkySettings(constellations: systems, seed: 3))
    let source = try configuration.makeEpochSource(simulatedStart: Self.start)
    #expect(source.encoder.nmea.constellations == systems)
    let expected = OrbitalSky.nominal(
      constellations: systems, seed: 3, channelLimit: f9p.channelLimit)
    let position = EmulatorConfiguration.defaultPosition
    for minutes in [0, 30, 90] {
      let time = Self.start.adding(nanoseconds: Int64(minutes) * 60_000_000_000)
      #expect(
        source.scene.sky.satellites(at: time, from: position)
          == expected.satellites(at: time, from: position))
    }
  }

  @Test func aScenarioPlaysUnderTheSameSkySeededByItsOwnSeed() throws {
    let scenario = Scenario(
      startTime: Self.start, startPosition: EmulatorConfiguration.defaultPosition, seed: 11)
    let configuration = EmulatorConfiguration(source: .scenario(scenario, startsNow: false))
    let source = try configuration.makeEpochSource(simulatedStart: Self.start)
    #expect(source.scene.geoid is EGM96Geoid)
    let expected = OrbitalSky.nominal(
      constellations: ReceiverProfile.generic.defaultConstellations, seed: 11,
      channelLimit: ReceiverProfile.generic.channelLimit)
    let position = EmulatorConfiguration.defaultPosition
    #expect(
      source.scene.sky.satellites(at: Self.start, from: position)
        == expected.satellites(at: Self.start, from: position))
  }

  /// At 10 Hz the MT3301 sends GSV once a second: the start warning counts that epoch, not
  /// the small one that happens to come first (it said 195 bytes where 500 were sent).
  @Test func theBudgetWarningCountsTheEpochWithGSV() throws {
    let harness = try EmulatorHarness(
      configuration: EmulatorConfiguration(
        cadence: try CadencePlan(rateHz: 10), pacing: try BytePacing(baud: 38_400), profile: .mtk),
      holdsClient: false, device: .memory)
    defer { harness.stop() }
    let warning = try #require(harness.emulator.budgetWarning)
    let bytes = try #require(Int(warning.prefix { $0 != " " }))
    // 38400 baud carries 384 bytes in the 100 ms period: only the GSV epoch is larger.
    #expect(bytes > 384, "\(warning)")
  }

  /// The budget is the sky's at the emulator's clock: three hours later fewer satellites are in
  /// view, and the GSV epoch fits 38400 baud (made at the wall clock's time, the warning came
  /// and went with the hour CI ran at).
  @Test func theBudgetIsTheSkysAtTheEmulatorsClock() throws {
    let threeHoursLater = UTCInstant(
      nanosecondsSinceEpoch: 1_767_225_600_500_000_000 + 3 * 3_600_000_000_000)
    let harness = try EmulatorHarness(
      configuration: EmulatorConfiguration(
        cadence: try CadencePlan(rateHz: 10), pacing: try BytePacing(baud: 38_400), profile: .mtk),
      start: threeHoursLater, holdsClient: false)
    defer { harness.stop() }
    #expect(harness.emulator.budgetWarning == nil)
  }

  @Test func aConstantGeoidIsReportedAsItIs() throws {
    let configuration = EmulatorConfiguration(geoid: .constant(12.5))
    let source = try configuration.makeEpochSource(simulatedStart: Self.start)
    #expect(source.scene.geoid == nil)
    #expect(source.epoch(at: Self.start).fix?.geoidSeparationMeters == 12.5)
  }
}

@Suite(.blocking, .serialized) struct ProfileDeviceTests {
  /// The first client that opens the device reads the chip's power-up sentences, then the
  /// epochs; after every client has left, one that returns reads the epochs only (closing the
  /// port resets nothing: the chip does not power up again).
  @Test(arguments: ReceiverProfile.all.map(\.name))
  func theFirstClientReadsThePowerUpSentencesFirst(name: String) throws {
    let profile = try #require(ReceiverProfile.named(name))
    let running = try RunningEmulator(rateHz: 1, baud: 0, profile: profile)
    defer { running.stop() }
    let expected = profile.powerUpSentences
    for opening in 0..<2 {
      let banner = opening == 0 ? expected : []
      let lines = try DeviceReader(path: running.linkPath)
        .readLines(banner.count + 1, timeoutSeconds: 3).map(\.text)
      #expect(Array(lines.prefix(banner.count)) == banner)
      // Then an epoch: an NMEA sentence, not a (second) banner.
      let next = try #require(lines.dropFirst(banner.count).first)
      #expect(next.hasPrefix("$") && !expected.contains(next))
      #expect(running.wait { !running.emulator.device.hasClients })
    }
  }

  @Test func bytesAClientWritesThatAreNoMessageAreCountedAndLogged() throws {
    let running = try RunningEmulator(rateHz: 1, baud: 0)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    try reader.write("garbage without dollar\r\n")
    // A UBX frame with a wrong checksum is dropped too.
    _ = try reader.descriptor.write([0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x00, 0x00][...])
    try reader.write("$PMTK000*32\r\n")
    #expect(running.wait { running.emulator.statistics.commandsReceived >= 1 })
    let statistics = running.emulator.statistics
    #expect(statistics.clientBytesDiscarded >= 24)
    #expect(statistics.commandsReceived == 1)
    #expect(running.log.contains("dropped"))
  }
}

@Suite(.blocking) struct LoggingCommandHandlerTests {
  /// What `--verbose` says a client's command did, as the gpsd tests read it.
  @Test func effectsAreSummarisedOnOneLine() throws {
    let binary = OutputSelection(nmea: ["GGA": 1], ubx: [.navPVT: 1], nmeaProtocolEnabled: false)
    #expect(
      LoggingCommandHandler.summary(.setOutput(binary)) == "output NMEA off, UBX on (1 types)")
    let silentNMEA = OutputSelection(nmea: ["GGA": 0, "RMC": 0], ubx: [.navPVT: 1, .monVER: 5])
    #expect(
      LoggingCommandHandler.summary(.setOutput(silentNMEA)) == "output NMEA off, UBX on (2 types)")
    let nmeaOnly = OutputSelection(nmeaEveryEpoch: ["GGA", "RMC", "GSV"])
    #expect(
      LoggingCommandHandler.summary(.setOutput(nmeaOnly)) == "output NMEA on (3 types), UBX off")
    #expect(LoggingCommandHandler.summary(.reply([1, 2, 3])) == "reply of 3 bytes")
    #expect(LoggingCommandHandler.summary(.setBaud(try BytePacing(baud: 38_400))) == "baud 38400")
  }

  @Test func everyMessageReachesTheChipAndIsLogged() {
    let lines = Mutex<[String]>([])
    var handler = LoggingCommandHandler(
      log: Log(level: .debug) { line in lines.withLock { $0.append(line) } })
    #expect(handler.handle(.nmea("$PMTK605*31")).isEmpty)
    #expect(lines.withLock { $0 }.contains { $0.contains("client sent") && $0.contains("PMTK605") })
  }
}
