import Foundation
import Receiver
import TestFixtures
import Testing
import UBX

/// The ZED-F9P's configuration table and VALGET answers against pyubx2, an independent source
/// (`Tests/Tools/configdb_oracle.py`, `Tests/Tools/decode_ubx.py`).
@Suite(.blocking) struct UbloxConfigurationDatabaseOracleTests {
  /// Every item of our table has pyubx2's key ID and type, and every pyubx2 item of the groups
  /// the ZED-F9P has is in our table, but for the other receivers' families the tool lists.
  @Test func theTableAgreesWithPyubx2() throws {
    let definitions = UBXConfigurationCatalogue.zedF9P.definitions
    let table = definitions.map { "\($0.key.description.dropFirst(2)) \($0.typeName) \($0.name)" }
    let report = try PythonTool.json(
      "configdb_oracle.py", input: Data(table.joined(separator: "\n").utf8))
    #expect(report["checked"] as? Int == definitions.count)
    #expect((report["unknown"] as? [String]) == [], "\(report["unknown"] ?? "")")
    #expect((report["typeMismatches"] as? [String]) == [], "\(report["typeMismatches"] ?? "")")
    #expect((report["missing"] as? [String]) == [], "\(report["missing"] ?? "")")
    #expect(report["groups"] as? Int == Set(definitions.map(\.key.group)).count)
  }

  /// pyubx2 decodes every page of a whole-database VALGET in each layer, and the answers to
  /// VALSET and VALDEL, without an error.
  @Test func pyubx2DecodesTheAnswers() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    var effects = handler.handle(
      .ubx(
        UbloxConfigurationFrames.valset(
          [("CFG-NAVSPG-USRDAT_FLAT", 0), ("CFG-TMODE-LAT", 1)], layers: 7)))
    let count = UBXConfigurationCatalogue.zedF9P.definitions.count
    for layer: UInt8 in [0, 7] {
      for position in stride(from: 0, to: count, by: 64) {
        effects += handler.handle(
          .ubx(
            UbloxConfigurationFrames.valget([0x0FFF_FFFF], layer: layer, position: UInt16(position))
          ))
      }
    }
    effects += handler.handle(.ubx(UbloxConfigurationFrames.valget([0x0FFF_FFFF], layer: 1)))
    effects += handler.handle(.ubx(UbloxConfigurationFrames.valdel([0x1003_FFFF], layers: 6)))
    let bytes = effects.flatMap { effect -> [UInt8] in
      guard case .reply(let bytes) = effect else { return [] }
      return bytes
    }
    let decoded = try UBXNavigationEncoderTests.decode(bytes)
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let identities = (decoded["messages"] as? [[String: Any]])?.compactMap {
      $0["identity"] as? String
    }
    let pages = 2 * ((count + 63) / 64) + 1
    #expect(identities?.filter { $0 == "CFG-VALGET" }.count == pages)
    #expect(identities?.filter { $0 == "ACK-ACK" }.count == pages + 2)
  }
}
