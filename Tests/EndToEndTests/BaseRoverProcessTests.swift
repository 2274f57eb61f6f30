import Foundation
import Geodesy
import Glibc
import MockGPSTestSupport
import Receiver
import TestFixtures
import Testing
import UBX

/// A base and a rover in one `--config`, RTKLIB's `str2str` carrying the base's RTCM 3 from
/// one tty to the other as it would from a base's radio to a rover's: the rover reaches RTK
/// fixed and its NAV-RELPOSNED gives the configured baseline (read back by pyubx2 from the
/// rover's TCP output, since str2str also reads the tty it writes).
@Suite(.blocking, .serialized) struct BaseRoverProcessTests {
  static let str2str = findExecutable("str2str")
  static let base = GeodeticPosition(known: 48.85, 2.35, altitudeMeters: 60)
  /// 20 m north and 30 m east of the base, at its height.
  static let rover = GeodeticPosition(
    known: 48.85 + 20 / 111_200, 2.35 + 30 / (111_320 * 0.658_02), altitudeMeters: 60)

  @Test(.enabled(if: str2str != nil || GpsdSession.required), .timeLimit(.minutes(10)))
  func aRoverFedByABaseThroughStr2strReachesFixedWithTheBaseline() throws {
    let str2str = try #require(
      Self.str2str, "str2str is not installed (scripts/test installs rtklib)")
    let directory = try ScratchDirectory("base-rover")
    defer { directory.remove() }
    let port = try GpsdSession.freePort()
    let (baseLink, roverLink) = (directory.path + "/ttyBASE", directory.path + "/ttyROVER")
    let rig = try Str2strRig.run(
      str2str: str2str,
      base: """
        {"link": "\(baseLink)", "profile": "ublox-f9p", "baud": 115200,
         "base": "\(Self.base.latitude),\(Self.base.longitude),60"}
        """,
      rover: """
        {"link": "\(roverLink)", "profile": "ublox-f9p", "baud": 115200,
         "position": "\(Self.rover.latitude),\(Self.rover.longitude),60",
         "rtk-convergence": "2,4", "tcp": "127.0.0.1:\(port)"}
        """, port: port, in: directory, roverLink: roverLink
    ) { frames in frames.filter { Self.isFixed($0) }.count >= 3 }
    let (frames, qualities) = (rig.frames, rig.qualities)
    #expect(frames.filter { Self.isFixed($0) }.count >= 3, "GGA qualities \(qualities)")
    #expect(qualities.last == "4", "\(qualities)")
    let decoded = try PythonTool.json(
      "decode_ubx.py",
      input: Data(frames.filter { $0.messageType == .navRELPOSNED }.flatMap(\.bytes)))
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let relative = try #require((decoded["messages"] as? [[String: Any]])?.last)
    #expect(relative["carrSoln"] as? Int == 2)
    #expect(relative["refStationID"] as? Int == 0)
    // The baseline from the base's 1005 to the rover, in the rover's frame (cm).
    let frame = LocalTangentFrame(at: Self.rover)
    let fromRover = frame.eastNorthUp(of: EarthCenteredPosition(Self.base))
    let expected = [-fromRover.north, -fromRover.east, fromRover.up].map { $0 * 100 }
    let reported = ["relPosN", "relPosE", "relPosD"].map { relative[$0] as? Double ?? .nan }
    for (want, got) in zip(expected, reported) {
      #expect(abs(want - got) < 2, "baseline \(reported) cm, configured \(expected) cm")
    }
    #expect(abs((relative["relPosLength"] as? Double ?? 0) - 3606) < 5, "about 36 m")
  }

  /// True for a NAV-PVT with `carrSoln` fixed (flags bits 6–7 = 2).
  static func isFixed(_ frame: UBXFrame) -> Bool {
    frame.messageType == .navPVT && frame.payload.count == 92 && frame.payload[21] >> 6 == 2
  }
}
