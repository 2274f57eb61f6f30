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
}
