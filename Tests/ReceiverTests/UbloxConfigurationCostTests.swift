import Testing
import UBX

@testable import Receiver

/// Issue 20's cost clause: the configuration state of a device stays under 64 KiB, so that 100
/// devices fit the many-devices benchmark's 40 MB. Measured after a client configured
/// everything it can and saved it to both non-volatile layers.
@Suite struct UbloxConfigurationCostTests {
  typealias Cases = UbloxConfigurationTests
  typealias Frames = UbloxConfigurationFrames

  /// The bytes of a configuration on the heap: its dictionary's buckets (key and array
  /// reference per bucket of its capacity) and each value's array (a 32-byte header and its
  /// capacity).
  static func heapBytes(_ configuration: UbloxConfiguration?) -> Int {
    guard let values = configuration?.values else { return 0 }
    let bucket = MemoryLayout<UbloxConfiguration.Slot>.stride + MemoryLayout<[UInt8]>.stride
    return values.capacity * bucket + values.values.reduce(0) { $0 + 32 + $1.capacity }
  }

  /// Everything the handler keeps of its configuration: the value itself, the current,
  /// default, battery-backed and flash configurations, and the database's three layers.
  static func configurationBytes(_ handler: UbloxCommandHandler) -> Int {
    let state = handler.configurationState
    let database = handler.configurationDatabase
    return MemoryLayout<UbloxCommandHandler>.size + heapBytes(state.current)
      + heapBytes(state.defaults) + heapBytes(state.batteryBacked) + heapBytes(state.flash)
      + database.ram.heapBytes + database.batteryBacked.heapBytes + database.flash.heapBytes
  }

  /// Sets every stored CFG message, every output message's rate on every port, the
  /// autopilot's VALSETs on u-blox 9 to RAM, BBR and flash, then saves to every layer.
  static func configuredEverything(_ profile: ReceiverProfile) -> UbloxCommandHandler {
    var handler = UbloxCommandHandler(profile: profile)
    for setting in Cases.cases {
      _ = handler.handle(.ubx(UBXFrame(setting.type, payload: setting.setting)))
    }
    for (messageClass, ids) in UbloxOutputMessages.idsByClass {
      for id in ids {
        let payload = [messageClass, id, 1, 0, 1, 1, 1, 1]
        _ = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: payload)))
      }
    }
    if profile.commandSet == .ubloxF9 {
      for values in UbloxConfigurationDatabaseTests.autopilotValsets {
        _ = handler.handle(.ubx(Frames.valset(values, layers: 7)))
      }
    }
    _ = handler.handle(.ubx(UBXStorageCommand(save: UbloxNonVolatileStateTests.everySection).frame))
    return handler
  }

  @Test(arguments: [UbloxCommandHandlerTests.m8, UbloxCommandHandlerTests.f9])
  func aFullyConfiguredAndSavedChipKeepsUnder64KiB(_ profile: ReceiverProfile) {
    let handler = Self.configuredEverything(profile)
    #expect(handler.configurationState.flash != nil)
    let bytes = Self.configurationBytes(handler)
    let stateFile = handler.nonVolatileState.text.utf8.count
    print("\(profile.name): configuration \(bytes) bytes, state file \(stateFile) bytes")
    #expect(bytes < 64 * 1024)
    #expect(stateFile < 64 * 1024)
  }

  /// The worst the database can hold: every item of the catalogue in BBR and flash (with a
  /// value other than its default, so that RAM would hold it too), still under 64 KiB with
  /// the rest.
  @Test func everyDatabaseItemInEveryLayerStaysUnder64KiB() {
    var handler = Self.configuredEverything(UbloxCommandHandlerTests.f9)
    let items = UbloxConfigurationDatabase.catalogue.definitions.map { definition in
      UBXConfigurationItem(key: definition.key, value: definition.defaultValue == 0 ? 1 : 0)
    }
    handler.configurationDatabase.store(items, in: [.batteryBacked, .flash])
    for item in items { handler.configurationDatabase.setRAM(item) }
    let bytes = Self.configurationBytes(handler)
    print("ublox-f9 with every item in every layer: \(bytes) bytes")
    #expect(handler.configurationDatabase.flash.count == items.count)
    #expect(bytes < 64 * 1024)
  }
}
