import Foundation
import TestFixtures
import Testing
import UBX

@testable import Receiver

/// pyubx2, an independent reading of the receiver description, decodes every CFG poll reply
/// of the M8 handler, factory values and set ones, and rebuilds each from its fields to the
/// same bytes (`Tests/Tools/check_ubx_config.py`).
@Suite(.blocking) struct UbloxConfigurationOracleTests {
  typealias Cases = UbloxConfigurationTests

  /// Every poll the M8 answers: each message of the catalogue with each of its instances.
  static func everyPoll(_ catalogue: UbloxConfigurationCatalogue) -> [UBXFrame] {
    catalogue.entries.values.sorted { $0.spec.type.id < $1.spec.type.id }.flatMap {
      entry -> [UBXFrame] in
      let spec = entry.spec
      if spec.type == .cfgMSG {
        return [[0x01, 0x07], [0xF0, 0x00], [0xF0, 0x03]].map { UBXFrame(.cfgMSG, payload: $0) }
      }
      if spec.hasInstances { return spec.instances.map { UBXFrame(spec.type, payload: [$0]) } }
      return spec.pollLengths.contains(0) ? [UBXFrame(spec.type)] : []
    }
  }

  static func replies(_ effects: [ReceiverEffect]) -> [UInt8] {
    effects.flatMap { effect -> [UInt8] in
      guard case .reply(let bytes) = effect else { return [] }
      guard let frame = try? UBXFrame(parsing: bytes), frame.messageClass != 0x05 else {
        return []
      }
      return bytes
    }
  }

  static func messages(_ decoded: [String: Any]) -> [[String: Any]] {
    (decoded["messages"] as? [[String: Any]]) ?? []
  }

  @Test func pyubx2DecodesEveryFactoryAndSetReplyOfTheM8() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.m8)
    let polls = Self.everyPoll(handler.configurationState.catalogue)
    var bytes = polls.flatMap { Self.replies(handler.handle(.ubx($0))) }
    for row in Cases.cases {
      #expect(
        handler.handle(.ubx(UBXFrame(row.type, payload: row.setting))).first == Cases.ack(row.type))
    }
    _ = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x01, 0x07, 1, 2, 0, 3, 4, 0])))
    _ = handler.handle(.ubx(UbloxConfigurationStorageTests.dynamicModel(6)))
    bytes += polls.flatMap { Self.replies(handler.handle(.ubx($0))) }
    let decoded = try PythonTool.json("check_ubx_config.py", input: Data(bytes))
    // pyubx2 1.4 knows only CFG-PM2 version 2 (48 bytes, protocol 23.01); protocol 18 has
    // version 1 (44 bytes). Every other error is a finding.
    let errors = (decoded["errors"] as? [String]) ?? ["no error list"]
    let pm2 = "CFG-PM2: pyubx2 has 48 bytes, received 44"
    #expect(errors.filter { $0 != pm2 } == [])
    #expect(errors.contains(pm2))
    let messages = Self.messages(decoded)
    #expect(messages.count == 2 * polls.count)
    let set = Array(messages.suffix(polls.count))
    func field(_ identity: String, _ name: String, where filter: (String, Int)? = nil) -> [Int] {
      set.filter { $0["identity"] as? String == identity }.compactMap {
        let fields = $0["fields"] as? [String: Any]
        if let filter, fields?[filter.0] as? Int != filter.1 { return nil }
        return fields?[name] as? Int
      }
    }
    #expect(field("CFG-NAV5", "dynModel") == [6])
    #expect(field("CFG-RATE", "measRate") == [200])
    #expect(field("CFG-PRT", "inUBX", where: ("portID", 3)) == [1])
    #expect(field("CFG-PRT", "inNMEA", where: ("portID", 3)) == [0])
    #expect(field("CFG-MSG", "rateUSB", where: ("msgID", 7)) == [3])
    #expect(field("CFG-MSG", "rateUART1", where: ("msgID", 7)) == [2])
    #expect(field("CFG-TP5", "freqPeriod", where: ("tpIdx", 1)) == [1_000_000])
    #expect(field("CFG-SBAS", "maxSBAS") == [2])
    #expect(field("CFG-NMEA", "nmeaVersion") == [0x40])
    #expect(field("CFG-GNSS", "numConfigBlocks") == [7])
    #expect(field("CFG-NAVX5", "minSVs") == [4])
    #expect(field("CFG-RXM", "lpMode") == [1])
    #expect(field("CFG-INF", "enableError_02", where: ("protocolID", 1)) == [1])
    #expect(field("CFG-ANT", "svcs") == [0])
    #expect(field("CFG-PMS", "powerSetupValue") == [1])
    #expect(field("CFG-ODO", "profile") == [3])
    #expect(field("CFG-LOGFILTER", "minInterval") == [5])
    #expect(field("CFG-GEOFENCE", "numFences") == [1])
    #expect(field("CFG-USB", "powerConsumption") == [500])
    #expect(field("CFG-DAT", "datumNum") == [0])
    #expect(field("CFG-RINV", "dump") == [1])
  }
}
