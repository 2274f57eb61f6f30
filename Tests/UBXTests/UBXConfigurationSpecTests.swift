import Testing
import UBX

/// The protocol rows and codecs of the CFG messages, on payloads written from the receiver
/// description's field tables.
@Suite struct UBXConfigurationSpecTests {
  static let ports = UBXConfigurationMessageSpec(
    .cfgPRT, layout: .instances(block: 20, maximumBlocks: 5), pollLengths: [0, 1],
    instances: 0...4, emptyPollInstance: 1, section: .ioPort)

  @Test func instancesSplitIntoBlocksNamedByTheirFirstByte() throws {
    let uart1 = [1] + [UInt8](repeating: 0, count: 19)
    let usb = [3] + [UInt8](repeating: 7, count: 19)
    let values = try Self.ports.values(of: uart1 + usb)
    #expect(values.map(\.0) == [1, 3])
    #expect(values.map(\.1) == [uart1, usb])
    #expect(throws: UBXConfigurationError.wrongLength(.cfgPRT, count: 21)) {
      try Self.ports.values(of: uart1 + [0])
    }
    #expect(throws: UBXConfigurationError.outOfRange(.cfgPRT, field: "instance", value: 6)) {
      try Self.ports.values(of: [6] + [UInt8](repeating: 0, count: 19))
    }
  }

  @Test func repeatedBlocksMustMatchTheirCount() throws {
    let gnss = UBXConfigurationMessageSpec(
      .cfgGNSS, layout: .repeated(header: 4, block: 8, countOffset: 3, maximumBlocks: 16),
      section: .navigation)
    #expect(try gnss.values(of: [0, 32, 32, 1, 0, 8, 16, 0, 1, 0, 1, 1]).count == 1)
    #expect(throws: UBXConfigurationError.wrongLength(.cfgGNSS, count: 12)) {
      try gnss.values(of: [0, 32, 32, 2, 0, 8, 16, 0, 1, 0, 1, 1])
    }
  }

  @Test func aRuleNamesTheFieldAndItsValue() {
    let rule = UBXFieldRule("lpMode", offset: 1, allowed: [0...1, 4...4])
    #expect(throws: Never.self) { try rule.check([8, 4], in: .cfgRXM) }
    let error = UBXConfigurationError.outOfRange(.cfgRXM, field: "lpMode", value: 2)
    #expect(throws: error) { try rule.check([8, 2], in: .cfgRXM) }
    #expect(error.description == "invalid lpMode '2' in CFG-RXM")
  }

  @Test func anOlderFormSetsTheFirstBytesAndTheFixedBytesStay() {
    let nmea = UBXConfigurationMessageSpec(
      .cfgNMEA, layout: .lengths([4, 12, 20]), section: .navigation, fixedBytes: [11: 1])
    let stored = [UInt8](repeating: 9, count: 20)
    let value = nmea.value(setting: [0, 0x23, 0, 0], over: stored)
    #expect(value.prefix(4) == [0, 0x23, 0, 0])
    #expect(value[4] == 9)
    #expect(value[11] == 1)
  }

  @Test func nav5AppliesOnlyTheMaskedGroups() throws {
    let current = [UInt8](repeating: 0, count: 36)
    var setting = [UInt8](repeating: 0xAA, count: 36)
    setting[0] = 0x10  // posMask: pDop and pAcc
    setting[1] = 0x00
    let merged = try UBXNavigationEngineSettings.merge(current, with: setting)
    #expect(merged[14...15] == [0xAA, 0xAA])
    #expect(merged[18...19] == [0xAA, 0xAA])
    #expect(merged[16...17] == [0, 0])
    #expect(merged[2] == 0)
    #expect(merged[0...1] == [0xFF, 0x05])
    setting[0] = 0x01
    setting[2] = 1
    #expect(throws: UBXConfigurationError.outOfRange(.cfgNAV5, field: "dynModel", value: 1)) {
      try UBXNavigationEngineSettings.merge(current, with: setting)
    }
  }

  @Test func gnssRefusesMoreMajorSystemsThanTheLimit() throws {
    let gps = UBXGNSSConfiguration.Block(
      gnssID: 0, reservedChannels: 8, maximumChannels: 16, flags: 0x0101_0001)
    let current = UBXGNSSConfiguration(hardwareChannels: 32, channelsInUse: 32, blocks: [gps])
    #expect(UBXGNSSConfiguration(payload: current.payload) == current)
    let three = UBXGNSSConfiguration(
      hardwareChannels: 0, channelsInUse: 32,
      blocks: [2, 3, 6].map {
        .init(gnssID: $0, reservedChannels: 4, maximumChannels: 8, flags: 0x0101_0001)
      })
    #expect(throws: UBXConfigurationError.self) {
      try current.applying(three, majorSystemLimit: 3)
    }
    #expect(try current.applying(three, majorSystemLimit: 4).blocks.count == 4)
    var tooMany = three
    tooMany.channelsInUse = 40
    #expect(
      throws: UBXConfigurationError.outOfRange(.cfgGNSS, field: "numTrkChUse", value: 40)
    ) { try current.applying(tooMany, majorSystemLimit: 4) }
  }

  @Test func storageAndResetCommandsReadTheirForms() throws {
    let thirteen: [UInt8] = [0, 0, 0, 0, 0x1F, 0x1F, 0, 0, 0, 0, 0, 0, 0x01]
    let save = try UBXStorageCommand(payload: thirteen)
    #expect(save.save.isSuperset(of: [.ioPort, .navigation, .antenna, .logging, .timing]))
    #expect(save.save.rawValue == 0x1F1F)
    #expect(save.devices == .batteryBackedRAM)
    #expect(try UBXStorageCommand(payload: Array(thirteen.prefix(12))).devices == .all)
    #expect(
      try UBXStorageCommand(payload: thirteen) == UBXStorageCommand(payload: save.frame.payload))
    #expect(throws: UBXConfigurationError.wrongLength(.cfgCFG, count: 11)) {
      try UBXStorageCommand(payload: Array(thirteen.prefix(11)))
    }
    let reset = try UBXResetCommand(payload: [0xFF, 0xFF, 0x02, 0x00])
    #expect(reset == UBXResetCommand(clearedData: 0xFFFF, mode: .gnssOnly))
    #expect(try UBXResetCommand(payload: [0, 0, 0x05, 0]).mode == nil)
  }

  @Test func datumRangesAreChecked() throws {
    var writer = UBXPayloadWriter()
    writer.unsigned((6_378_137.0).bitPattern, byteCount: 8)
    writer.unsigned((600.0).bitPattern, byteCount: 8)
    writer.zeros(28)
    #expect(throws: UBXConfigurationError.self) { try UBXDatum(setting: writer.bytes) }
    #expect(UBXDatum.wgs84.payload.count == 52)
    #expect(UBXDatum.wgs84.payload.prefix(7) == [0, 0, 0x57, 0x47, 0x53, 0x38, 0x34])
  }

  @Test func cfgMessagesHaveTheirNames() {
    #expect(UBXMessageType.cfgNAV5.description == "CFG-NAV5")
    #expect(UBXMessageType.cfgGNSS.name == "CFG-GNSS")
    #expect(UBXMessageType(messageClass: 0x06, id: 0x42).description == "CFG-0x42")
  }
}
