import Foundation
import Simulation
import TestFixtures
import Testing
import UBX

@testable import Receiver

/// The rover's solution as an F9P writes it, read back by pynmeagps and pyubx2: GGA's quality,
/// age and station; NAV-PVT's and NAV-STATUS's `diffSoln` and `carrSoln` and the age band;
/// NAV-RELPOSNED's vector, accuracies and flags; accuracies of centimetres once fixed. Python
/// runs as a process, hence `.blocking`.
@Suite(.blocking) struct RTKSolutionOutputTests {
  /// The F9P's encoder with GGA and the rover's UBX messages on.
  static var encoder: ReceiverEncoder {
    var encoder = ReceiverEncoder(profile: .ubloxF9P)
    encoder.output = OutputSelection(
      nmea: ["GGA": 1],
      ubx: [.navPVT: 1, .navSTATUS: 1, .navHPPOSLLH: 1, .navRELPOSNED: 1])
    return encoder
  }

  /// The fix at `second` of a rover fed corrections each second up to `until` (exclusive).
  static func fix(at second: Double, until: Int = 40) -> Fix {
    RTKRoverTests.rover(until: until).solution(for: RTKRoverTests.fix(at: second))
  }

  static func decoded(at second: Double, until: Int = 40) throws -> (
    nmea: [String: Any], ubx: [[String: Any]]
  ) {
    let fix = fix(at: second, until: until)
    let text = encoder.sentences(for: fix, epochIndex: 0).map(\.line).joined()
    let nmea = try PythonTool.json("decode_nmea.py", input: Data(text.utf8))
    let epochs = try #require(nmea["epochs"] as? [[String: Any]])
    #expect(nmea["errors"] as? Int == 0, "\(nmea["errorLines"] ?? "")")
    let ubx = try UBXNavigationEncoderTests.decode(
      encoder.frames(for: fix, epochIndex: 0).flatMap(\.bytes))
    #expect((ubx["errors"] as? [Any])?.isEmpty == true, "\(ubx["errors"] ?? "")")
    return (try #require(epochs.first), try #require(ubx["messages"] as? [[String: Any]]))
  }

  static func message(_ identity: String, in messages: [[String: Any]]) throws -> [String: Any] {
    try #require(messages.first { $0["identity"] as? String == identity })
  }

  @Test func aFixedSolutionIsReportedAsFixedWithItsStationAgeAndBaseline() throws {
    let (gga, ubx) = try Self.decoded(at: 39.5)
    let line = Self.encoder.sentences(for: Self.fix(at: 39.5), epochIndex: 0).map(\.line)
    #expect(line.first?.contains(",M,0.5,0007*") == true, "\(line)")
    #expect(gga["quality"] as? Int == 4)
    #expect(gga["diffAge"] as? Double == 0.5)
    #expect(gga["diffStation"] as? Int == 7)
    let pvt = try Self.message("NAV-PVT", in: ubx)
    #expect(pvt["diffSoln"] as? Int == 1)
    #expect(pvt["carrSoln"] as? Int == 2)
    #expect(pvt["lastCorrectionAge"] as? Int == 1, "under 1 s")
    let hAcc = try #require(pvt["hAcc"] as? Double)
    #expect(hAcc > 0.003 && hAcc < 0.03, "\(hAcc) m")
    let status = try Self.message("NAV-STATUS", in: ubx)
    #expect(status["carrSoln"] as? Int == 2)
    #expect(status["carrSolnValid"] as? Int == 1)
    #expect(status["diffCorr"] as? Int == 1)
    let precise = try Self.message("NAV-HPPOSLLH", in: ubx)
    #expect(abs((precise["hAcc"] as? Double ?? 0) - hAcc) < 0.001)
    let relative = try Self.message("NAV-RELPOSNED", in: ubx)
    #expect(relative["refStationID"] as? Int == 7)
    #expect(relative["carrSoln"] as? Int == 2)
    #expect(relative["relPosValid"] as? Int == 1)
    #expect(relative["diffSoln"] as? Int == 1)
    #expect(relative["relPosHeadingValid"] as? Int == 0, "a static station vouches no heading")
    // 100 m south of the station (cm, with the 0.1 mm parts).
    let north = try #require(relative["relPosN"] as? Double)
    #expect(abs(north + 10_000) < 50, "\(north) cm")
    #expect(abs((relative["relPosLength"] as? Double ?? 0) - 10_000) < 50)
    #expect(abs((relative["relPosHeading"] as? Double ?? 0) - 180) < 0.1)
    #expect((relative["accN"] as? Double ?? 0) > 0)
  }

  @Test func theAgeBandFloatAndDGNSSAreReportedAsTheChipReportsThem() throws {
    // DGNSS at the first second: no carrier solution.
    let (dgnssGGA, dgnss) = try Self.decoded(at: 0, until: 1)
    #expect(dgnssGGA["quality"] as? Int == 2)
    #expect(try Self.message("NAV-PVT", in: dgnss)["carrSoln"] as? Int == 0)
    #expect(try Self.message("NAV-PVT", in: dgnss)["diffSoln"] as? Int == 1)
    // 39 s after the last corrections: float, aged into the 30–45 s band (8).
    let (floatGGA, float) = try Self.decoded(at: 78)
    #expect(floatGGA["quality"] as? Int == 5)
    #expect(floatGGA["diffAge"] as? Double == 39)
    let pvt = try Self.message("NAV-PVT", in: float)
    #expect(pvt["carrSoln"] as? Int == 1)
    #expect(pvt["lastCorrectionAge"] as? Int == 8)
    // Standalone after the timeout: no age, no station, nothing relative.
    let (standaloneGGA, standalone) = try Self.decoded(at: 100)
    #expect(standaloneGGA["quality"] as? Int == 1)
    #expect("\(standaloneGGA["diffAge"] ?? "")" == "")
    let relative = try Self.message("NAV-RELPOSNED", in: standalone)
    #expect(relative["relPosValid"] as? Int == 0)
    #expect(relative["refStationID"] as? Int == 0)
    #expect(try Self.message("NAV-PVT", in: standalone)["lastCorrectionAge"] as? Int == 0)
  }
}

/// A moving base rover's solution as the F9P writes it, read back by pynmeagps and pyubx2: the
/// position standalone (GGA quality 1 without age or station, NAV-PVT without `diffSoln`,
/// `carrSoln` or a correction age), NAV-RELPOSNED moving, its heading valid only once the
/// vector floats, and `refPosMiss` when the base's position lags its observations.
@Suite(.blocking) struct MovingBaseOutputTests {
  typealias Output = RTKSolutionOutputTests

  static func decoded(_ fix: Fix) throws -> (nmea: [String: Any], ubx: [[String: Any]]) {
    let text = Output.encoder.sentences(for: fix, epochIndex: 0).map(\.line).joined()
    let nmea = try PythonTool.json("decode_nmea.py", input: Data(text.utf8))
    let epochs = try #require(nmea["epochs"] as? [[String: Any]])
    let ubx = try UBXNavigationEncoderTests.decode(
      Output.encoder.frames(for: fix, epochIndex: 0).flatMap(\.bytes))
    #expect((ubx["errors"] as? [Any])?.isEmpty == true, "\(ubx["errors"] ?? "")")
    return (try #require(epochs.first), try #require(ubx["messages"] as? [[String: Any]]))
  }

  @Test(arguments: [(1, 0), (30, 2)])
  func thePositionStaysStandaloneAndTheVectorIsMoving(until: Int, carrier: Int) throws {
    let rover = RTKRoverMovingBaseTests.rover(positions: Array(0..<until), until: until)
    let fix = rover.solution(for: RTKRoverTests.fix(at: Double(until) - 0.5))
    let (gga, ubx) = try Self.decoded(fix)
    #expect(gga["quality"] as? Int == 1)
    #expect("\(gga["diffAge"] ?? "")" == "" && "\(gga["diffStation"] ?? "")" == "", "\(gga)")
    let pvt = try Output.message("NAV-PVT", in: ubx)
    #expect(pvt["diffSoln"] as? Int == 0 && pvt["carrSoln"] as? Int == 0)
    #expect(pvt["lastCorrectionAge"] as? Int == 0)
    let relative = try Output.message("NAV-RELPOSNED", in: ubx)
    #expect(relative["isMoving"] as? Int == 1 && relative["relPosValid"] as? Int == 1)
    #expect(relative["carrSoln"] as? Int == carrier)
    #expect(relative["relPosHeadingValid"] as? Int == (carrier == 0 ? 0 : 1))
    #expect(relative["refPosMiss"] as? Int == 0 && relative["refObsMiss"] as? Int == 0)
    #expect(abs((relative["relPosN"] as? Double ?? 0) - -200) < 1, "2 m south of the base")
  }

  @Test func aLaggingPositionIsMissed() throws {
    let rover = RTKRoverMovingBaseTests.rover(positions: [0], until: 10)
    let (_, ubx) = try Self.decoded(rover.solution(for: RTKRoverTests.fix(at: 9.5)))
    let relative = try Output.message("NAV-RELPOSNED", in: ubx)
    #expect(relative["refPosMiss"] as? Int == 1 && relative["refObsMiss"] as? Int == 0)
  }
}
