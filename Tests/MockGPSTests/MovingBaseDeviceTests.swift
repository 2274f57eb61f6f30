import Foundation
import Geodesy
import MockGPS
import MockGPSTestSupport
import RTCM
import Receiver
import Simulation
import TestFixtures
import Testing
import UBX

/// Two F9Ps on one vehicle, on the manual clock: a moving base (`--moving-base`) at the
/// route's point and a rover 1.5 m ahead of it (`--antenna-offset 1.5,0`), the base's RTCM
/// (4072.0, MSM7, 1230) written into the rover each epoch as a vehicle's cable carries it. The
/// rover's NAV-RELPOSNED gives the two antennas' vector, 1.5 m long, along the course the
/// vehicle had at the base's epoch (through a corner too), fixed once converged, with
/// `isMoving` and a valid heading; its own position stays standalone.
@Suite(.blocking, .timeLimit(.minutes(10))) struct MovingBaseDeviceTests {
  /// 223 m east, then 222 m north.
  static let route = Route(points: [
    RoutePoint(position: GeodeticPosition(known: 48.0, 2.0, altitudeMeters: 50)),
    RoutePoint(position: GeodeticPosition(known: 48.0, 2.003, altitudeMeters: 50)),
    RoutePoint(position: GeodeticPosition(known: 48.002, 2.003, altitudeMeters: 50)),
  ])

  static func configuration(movingBase: Bool) throws -> EmulatorConfiguration {
    var configuration = EmulatorConfiguration(
      source: .route(route, RoutePlayback()), pacing: try BytePacing(baud: 921_600),
      profile: .ubloxF9P)
    configuration.isMovingBase = movingBase
    if !movingBase {
      configuration.antennaOffset = AntennaOffset(forwardMeters: 1.5, rightMeters: 0)
      configuration.rtkConvergence = RTKConvergence(floatSeconds: 2, fixedSeconds: 4)
    }
    return configuration
  }

  struct Epoch {
    /// NAV-PVT's heading of motion, degrees, and its carrSoln.
    var course: Double
    var positionCarrierSolution: UInt8
    /// NAV-RELPOSNED: N, E, D and length in cm with their 0.1 mm parts, heading, flags.
    var north, east, down, length, heading: Double
    var flags: UInt32
  }

  static func int32(_ bytes: [UInt8], _ offset: Int) -> Int32 {
    Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) })
  }

  /// The rover's NAV-PVT and NAV-RELPOSNED of one epoch's bytes.
  static func epoch(_ bytes: [UInt8]) throws -> Epoch? {
    var demultiplexer = InputDemultiplexer()
    let frames = demultiplexer.append(bytes[...]).compactMap { message -> UBXFrame? in
      if case .ubx(let frame) = message { return frame }
      return nil
    }
    guard let pvt = frames.first(where: { $0.messageType == .navPVT })?.payload,
      let relative = frames.first(where: { $0.messageType == .navRELPOSNED })?.payload
    else { return nil }
    try #require(pvt.count == 92 && relative.count == 64)
    let centimetres = { (offset: Int, fine: Int) in
      Double(int32(relative, offset)) + Double(Int8(bitPattern: relative[fine])) / 100
    }
    return Epoch(
      course: Double(int32(pvt, 64)) / 1e5, positionCarrierSolution: pvt[21] >> 6,
      north: centimetres(8, 32), east: centimetres(12, 33), down: centimetres(16, 34),
      length: centimetres(20, 35), heading: Double(int32(relative, 24)) / 1e5,
      flags: UInt32(bitPattern: int32(relative, 60)))
  }

  /// Degrees between two headings.
  static func angle(_ a: Double, _ b: Double) -> Double {
    let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
    return min(difference, 360 - difference)
  }

  @Test func aRoverOnTheVehicleGivesTheTwoAntennasVectorThroughACorner() throws {
    let base = try EmulatorHarness(configuration: Self.configuration(movingBase: true))
    defer { base.stop() }
    let rover = try EmulatorHarness(configuration: Self.configuration(movingBase: false))
    defer { rover.stop() }
    // NAV-PVT and NAV-RELPOSNED on the rover's UART1.
    let enable = UBXValueSet.frame([
      UBXConfigurationItem(key: UBXConfigurationKey(0x2091_0007), value: 1),
      UBXConfigurationItem(key: UBXConfigurationKey(0x2091_008E), value: 1),
    ])
    try rover.send(bytes: enable.bytes, expectingReplies: 1)
    var epochs: [Epoch] = []
    var sentNumbers: Set<Int> = []
    var lastRTCM: [UInt8] = []
    for _ in 0..<44 {
      var demultiplexer = InputDemultiplexer()
      let frames = demultiplexer.append(try base.step()[...]).compactMap {
        message -> RTCMFrame? in
        if case .rtcm(.frame(let frame)) = message { return frame }
        return nil
      }
      sentNumbers.formUnion(frames.compactMap(\.messageNumber))
      lastRTCM = frames.flatMap(\.bytes)
      // The base's epoch reaches the rover after the rover's own epoch of the same instant, as
      // over a cable: the rover's next epoch pairs it with where its antenna was then.
      if let epoch = try Self.epoch(rover.step()) { epochs.append(epoch) }
      if !frames.isEmpty {
        try rover.send(bytes: frames.flatMap(\.bytes), commands: frames.count)
      }
    }
    #expect(sentNumbers == [4072, 1077, 1087, 1097, 1127, 1230], "\(sentNumbers.sorted())")
    // pyrtcm reads the base's epoch without an error (4072's contents are u-blox's secret to it).
    let decoded = try PythonTool.json("decode_rtcm.py", input: Data(lastRTCM))
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let identities = (decoded["messages"] as? [[String: Any]] ?? []).map {
      $0["identity"] as? String ?? ""
    }
    #expect(identities == ["4072", "1077", "1087", "1097", "1127", "1230"], "\(identities)")
    try #require(epochs.count >= 40, "\(epochs.count) epochs with NAV-RELPOSNED")
    let fixed = epochs.filter { $0.flags >> 3 & 3 == 2 }
    #expect(fixed.count >= 25, "\(epochs.map { $0.flags >> 3 & 3 })")
    // The position stays standalone.
    #expect(epochs.allSatisfy { $0.positionCarrierSolution == 0 })
    // Before the vector floats (DGNSS): moving, valid, but no heading yet.
    let differential = epochs.filter { $0.flags & 0x04 != 0 && $0.flags >> 3 & 3 == 0 }
    #expect(!differential.isEmpty)
    #expect(differential.allSatisfy { $0.flags & 0x1E0 == 0x20 }, "\(differential.map(\.flags))")
    var turned = false
    for (index, epoch) in epochs.enumerated() where epoch.flags >> 3 & 3 != 0 {
      // gnssFixOK, diffSoln, relPosValid, isMoving, relPosHeadingValid; neither the base's
      // position nor its observations missed.
      #expect(epoch.flags & 0x1E7 == 0x127, "flags \(String(epoch.flags, radix: 16))")
      #expect(abs(epoch.length - 150) < 0.05, "length \(epoch.length) cm")
      let horizontal = (epoch.north * epoch.north + epoch.east * epoch.east).squareRoot()
      #expect(abs(horizontal - 150) < 0.05 && abs(epoch.down) < 0.05)
      // Along the course of the base's epoch: the one before this one.
      let course = index > 0 ? epochs[index - 1].course : .nan
      #expect(
        Self.angle(course, epoch.heading) < 0.01, "heading \(epoch.heading), course \(course)")
      if Self.angle(epoch.heading, 0) < 1 { turned = true }
    }
    // From east to north, the vector turned with the vehicle.
    #expect(epochs.contains { Self.angle($0.heading, 90) < 1 && $0.flags >> 3 & 3 == 2 })
    #expect(turned)
  }
}
