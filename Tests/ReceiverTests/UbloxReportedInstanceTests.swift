import Simulation
import Testing
import UBX

@testable import Receiver

/// A command reads the instances it needs through `reported(_:instance:)`, which works out one
/// alone; the whole `reportedConfiguration` costs every view of the keys on u-blox 9 (a
/// CFG-MSG took 8 ms so, and gpsctl's speed change was read after it gave up). Each instance
/// must be what the whole reports, fresh and after a client configured everything.
@Suite struct UbloxReportedInstanceTests {
  static let profiles = [UbloxCommandHandlerTests.m8, UbloxCommandHandlerTests.f9]

  /// Every instance the whole reports, those of every type it holds up to 300 beyond, and the
  /// CFG-MSG instance of every output message: each alone equals the whole's.
  static func expectEachInstanceAlone(_ handler: UbloxCommandHandler) {
    let whole = handler.reportedConfiguration
    var types = Set(whole.values.keys.map(\.type))
    types.formUnion(UbloxCommandHandler.legacyKeyInstances.map(\.type))
    var checked = 0
    for type in types {
      var instances = Set(whole.instances(of: type)).union(0..<8)
      if type == .cfgMSG {
        instances.formUnion(
          UbloxOutputMessages.idsByClass.flatMap { messageClass, ids in
            ids.map { UInt16(messageClass) << 8 | UInt16($0) }
          })
      }
      for instance in instances {
        #expect(
          handler.reported(type, instance: instance) == whole[type, instance],
          "\(type) instance \(instance)")
        checked += 1
      }
    }
    #expect(checked > 100)
  }

  @Test(arguments: profiles)
  func eachInstanceOfAFreshChipIsWhatTheWholeReports(_ profile: ReceiverProfile) {
    Self.expectEachInstanceAlone(UbloxCommandHandler(profile: profile))
  }

  @Test(arguments: profiles)
  func eachInstanceOfAFullyConfiguredChipIsWhatTheWholeReports(_ profile: ReceiverProfile) {
    var handler = UbloxConfigurationCostTests.configuredEverything(profile)
    if profile.commandSet == .ubloxF9 {
      // Keys whose legacy fields no legacy message above set: views must show them.
      let keys: [(String, UInt64)] = [
        ("CFG-RATE-TIMEREF", 2), ("CFG-SBAS-PRNSCANMASK", 0x0C), ("CFG-UART1-STOPBITS", 2),
        ("CFG-NAVSPG-DYNMODEL", 8), ("CFG-NMEA-PROTVER", 41),
      ]
      let answers = handler.handle(.ubx(UbloxConfigurationFrames.valset(keys)))
      #expect(answers.first == .reply(UBXAcknowledgement.acknowledge(.cfgVALSET).bytes))
    }
    Self.expectEachInstanceAlone(handler)
  }

  /// A random walk of the commands that change what the chip reports (the legacy settings,
  /// CFG-MSG, UART1's CFG-PRT, VALSET and VALDEL in every layer, CFG-CFG clear, save and
  /// load, CFG-RST): after each step, each instance alone equals the whole's. The keys and
  /// messages come from dictionaries, whose order changes from process to process: sorted, so
  /// that the seed gives one walk (a run once picked a key the F9P's table does not name).
  @Test(arguments: profiles)
  func eachInstanceAfterRandomCommandsIsWhatTheWholeReports(_ profile: ReceiverProfile) {
    typealias Cases = UbloxConfigurationTests
    typealias Frames = UbloxConfigurationFrames
    var handler = UbloxCommandHandler(profile: profile)
    var generator = FaultRandomNumberGenerator(seed: 26)
    let keys =
      UbloxCommandHandler.legacyKeyFields.values.flatMap { $0.map(\.key) }.sorted()
      + Array(UBXConfigurationKey.uart1MessageRates.values.map(\.rawValue).sorted().prefix(40))
    let sections = UBXConfigurationSections(rawValue: 0x1F1F)
    let outputs = UbloxOutputMessages.idsByClass.sorted { $0.key < $1.key }.flatMap {
      messageClass, ids in ids.map { (messageClass, $0) }
    }
    for _ in 0..<200 {
      let step = Int.random(in: 0..<8, using: &generator)
      let frame: UBXFrame
      switch step {
      case 0:
        let setting = Cases.cases[Int.random(in: 0..<Cases.cases.count, using: &generator)]
        frame = UBXFrame(setting.type, payload: setting.setting)
      case 1:
        let (messageClass, id) = outputs[Int.random(in: 0..<outputs.count, using: &generator)]
        let rates = (0..<6).map { _ in UInt8.random(in: 0...2, using: &generator) }
        frame = UBXFrame(.cfgMSG, payload: [messageClass, id] + rates)
      case 2:
        let baud = [9600, 38_400, 115_200][Int.random(in: 0..<3, using: &generator)]
        let out = UInt16.random(in: 0...3, using: &generator)
        frame = UBXFrame(
          .cfgPRT,
          payload: Cases.port(1, mode: UBXPortConfiguration.mode8N1, baud: baud, in: 7, out: out))
      case 3, 4:
        let key = keys[Int.random(in: 0..<keys.count, using: &generator)]
        let name = UbloxCommandHandler.catalogue.definition(of: UBXConfigurationKey(key))?.name
        let value = UInt64.random(in: 0...3, using: &generator)
        let layers = [1, 2, 4, 7][Int.random(in: 0..<4, using: &generator)]
        // Only the F9 takes VALSET; a key its table does not name is none to set.
        guard let name, profile.commandSet == .ubloxF9 else { continue }
        frame = Frames.valset([(name, value)], layers: UInt8(layers))
      case 5:
        let key = keys[Int.random(in: 0..<keys.count, using: &generator)]
        frame = Frames.valdel([key], layers: [2, 4, 6][Int.random(in: 0..<3, using: &generator)])
      case 6:
        let command = [
          UBXStorageCommand(save: sections), UBXStorageCommand(load: sections),
          UBXStorageCommand(clear: sections), UBXStorageCommand(clear: sections, load: sections),
        ][Int.random(in: 0..<4, using: &generator)]
        frame = command.frame
      default:
        let mode: UBXResetCommand.Mode = [.hardwareImmediately, .software, .gnssOnly][
          Int.random(in: 0..<3, using: &generator)]
        frame = UBXResetCommand(clearedData: 0xFFFF, mode: mode).frame
      }
      _ = handler.handle(.ubx(frame))
      Self.expectEachInstanceAlone(handler)
    }
  }
}
