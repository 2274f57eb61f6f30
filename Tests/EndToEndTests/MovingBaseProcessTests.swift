import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing
import UBX

/// A vehicle's two antennas as two F9Ps of one `--config` driving one route: a moving base
/// (`"moving-base": true`) and a rover 1.2 m ahead and 0.5 m right of it (`"antenna-offset"`),
/// RTKLIB's `str2str` carrying the base's RTCM (4072.0, MSM7, 1230) to the rover as the
/// vehicle's cable would. The rover's NAV-RELPOSNED, read back by pyubx2, is fixed, moving,
/// with a valid heading, 1.3 m long and along the vehicle's course less the right offset's
/// angle: what a dual-antenna heading autopilot reads.
@Suite(.blocking, .serialized) struct MovingBaseProcessTests {
  static let str2str = findExecutable("str2str")

  @Test(.enabled(if: str2str != nil || GpsdSession.required), .timeLimit(.minutes(10)))
  func theRoverGivesTheVehiclesHeadingFromTheTwoAntennas() throws {
    let str2str = try #require(
      Self.str2str, "str2str is not installed (scripts/test installs rtklib)")
    let directory = try ScratchDirectory("moving-base")
    defer { directory.remove() }
    // 3 km due east.
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="mockgps tests" xmlns="http://www.topografix.com/GPX/1/1">
    <trk><trkseg><trkpt lat="48.0" lon="2.0"/><trkpt lat="48.0" lon="2.04"/></trkseg></trk>
    </gpx>
    """.write(toFile: directory.path + "/east.gpx", atomically: true, encoding: .utf8)
    let port = try GpsdSession.freePort()
    let (baseLink, roverLink) = (directory.path + "/ttyBASE", directory.path + "/ttyROVER")
    let isFixedRelative = { (frame: UBXFrame) in
      frame.messageType == .navRELPOSNED && frame.payload.count == 64
        && frame.payload[60] >> 3 & 3 == 2
    }
    let rig = try Str2strRig.run(
      str2str: str2str,
      base: """
        {"link": "\(baseLink)", "profile": "ublox-f9p", "baud": 115200,
         "route": "east.gpx", "moving-base": true}
        """,
      rover: """
        {"link": "\(roverLink)", "profile": "ublox-f9p", "baud": 115200,
         "route": "east.gpx", "antenna-offset": "1.2,0.5", "rtk-convergence": "2,4",
         "tcp": "127.0.0.1:\(port)"}
        """, port: port, in: directory, roverLink: roverLink
    ) { frames in frames.filter(isFixedRelative).count >= 3 }
    let fixed = rig.frames.filter(isFixedRelative)
    try #require(fixed.count >= 3, "GGA qualities \(rig.qualities)")
    // The rover's position stays standalone: GGA quality 1.
    #expect(rig.qualities.allSatisfy { $0 == "1" }, "\(rig.qualities)")
    let decoded = try PythonTool.json(
      "decode_ubx.py",
      input: Data(
        (fixed + rig.frames.filter { $0.messageType == .navPVT }.suffix(3)).flatMap(\.bytes)))
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let messages = try #require(decoded["messages"] as? [[String: Any]])
    let course = try #require(messages.last?["headMot"] as? Double)
    #expect(abs(course - 90) < 0.1, "the vehicle drives east: \(course)")
    for relative in messages.filter({ $0["identity"] as? String == "NAV-RELPOSNED" }) {
      #expect(relative["isMoving"] as? Int == 1 && relative["relPosHeadingValid"] as? Int == 1)
      #expect(relative["carrSoln"] as? Int == 2 && relative["relPosValid"] as? Int == 1)
      // 1.2 m ahead and 0.5 m right: 1.3 m, 22.62° right of the course.
      let length = relative["relPosLength"] as? Double ?? .nan
      #expect(abs(length - 130) < 0.05, "length \(length) cm")
      let heading = relative["relPosHeading"] as? Double ?? .nan
      let expected = course + 22.619_865
      #expect(abs(heading - expected) < 0.05, "heading \(heading), expected \(expected)")
      let north = relative["relPosN"] as? Double ?? .nan
      let east = relative["relPosE"] as? Double ?? .nan
      #expect(abs(north - -50) < 0.1 && abs(east - 120) < 0.1, "N \(north) E \(east) cm")
    }
  }
}
