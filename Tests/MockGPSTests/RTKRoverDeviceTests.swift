import Geodesy
import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import TestFixtures
import Testing
import UBX

/// An F9P on the manual clock fed RTCM 3 through its device, as an NTRIP client or an autopilot
/// injects corrections: GGA's quality goes 1, 2 (DGNSS), 5 (float), 4 (fixed) as the
/// corrections flow, with their age and station, and 5 then 1 when they stop, after the
/// CFG-NAVSPG-CONSTR_DGNSSTO a client set; a chip restart forgets them.
@Suite(.blocking, .timeLimit(.minutes(10))) struct RTKRoverDeviceTests {
  static let stationID = 42

  /// One second of a station 100 m north of the emulator's default position
  /// (`CorrectionStream`).
  static func corrections(withPosition: Bool, time: UTCInstant) throws -> (
    bytes: [UInt8], count: Int
  ) {
    let home = EmulatorConfiguration.defaultPosition
    let place = GeodeticPosition(
      known: home.latitude + 0.0009, home.longitude, altitudeMeters: home.altitudeMeters)
    return try CorrectionStream.second(
      stationID: stationID, at: place, withPosition: withPosition, time: time)
  }

  /// An F9P at 115200 baud, where an epoch of NMEA with some 35 satellites fits in a second.
  static func configuration() throws -> EmulatorConfiguration {
    EmulatorConfiguration(pacing: try BytePacing(baud: 115_200), profile: .ubloxF9P)
  }

  /// The fields of the epoch's GGA: quality, age of corrections and station.
  static func gga(_ text: String) throws -> (quality: String, age: String, station: String) {
    let line = try #require(text.split(separator: "\r\n").first { $0.contains("GGA,") })
    let fields = line.split(separator: "*")[0].split(
      separator: ",", omittingEmptySubsequences: false)
    try #require(fields.count == 15, "\(line)")
    return (String(fields[6]), String(fields[13]), String(fields[14]))
  }

  /// Steps one epoch, first writing a second of corrections when `sending`; returns GGA's
  /// fields.
  static func second(
    _ harness: EmulatorHarness, sending: Bool, withPosition: Bool = false
  ) throws -> (quality: String, age: String, station: String) {
    if sending {
      // Observed at the epoch just sent, written a moment after it.
      let (bytes, count) = try corrections(
        withPosition: withPosition, time: harness.clock.now().rounded(toMultipleOf: 1_000_000_000))
      try harness.send(bytes: bytes, commands: count)
    }
    return try gga(harness.stepText())
  }

  @Test func correctionsTakeTheFixToDGNSSFloatAndFixedAndTheirLossBack() throws {
    let harness = try EmulatorHarness(configuration: Self.configuration())
    defer { harness.stop() }
    _ = try harness.step()
    #expect(try Self.second(harness, sending: false).quality == "1")
    // CFG-NAVSPG-CONSTR_DGNSSTO 8 s (RAM), acknowledged.
    let timeout = UBXFrame(.cfgVALSET, payload: [0, 1, 0, 0, 0xC4, 0x00, 0x11, 0x20, 8])
    try harness.send(bytes: timeout.bytes, expectingReplies: 1)
    var qualities: [String] = []
    for second in 0..<40 {
      let gga = try Self.second(harness, sending: true, withPosition: second % 10 == 0)
      qualities.append(gga.quality)
      if gga.quality != "1" {
        #expect(gga.station == "0042")
        #expect(Double(gga.age).map { $0 >= 0 && $0 < 1.5 } == true, "age \(gga.age)")
      }
    }
    // The defaults draw float within 2.5–7.5 s and fixed 7.5–22.5 s after it.
    let ranks = ["1": 0, "2": 1, "5": 2, "4": 3]
    let levels = qualities.map { ranks[$0] ?? -1 }
    #expect(levels.first == 1, "\(qualities)")
    #expect(levels == levels.sorted(), "\(qualities)")
    #expect(Set(qualities) == ["2", "5", "4"], "\(qualities)")
    #expect(qualities.suffix(10).allSatisfy { $0 == "4" }, "\(qualities)")
    // The corrections stop. The last ones observed the epoch before the last one stepped with
    // them, so the next epochs see them 2 s old (their MSM epoch time, not their arrival), then
    // a second older each: fixed while at most half the timeout (4 s) old, float up to the
    // whole of it (8 s), then standalone.
    let after = try (0..<12).map { _ in try Self.second(harness, sending: false) }
    #expect(after.map(\.quality) == ["4", "4", "4", "5", "5", "5", "5", "1", "1", "1", "1", "1"])
    let ages = after.prefix(7).compactMap { Double($0.age) }
    #expect(ages.count == 7 && ages[0] == 2, "\(ages)")
    #expect(zip(ages, ages.dropFirst()).allSatisfy { abs($1 - $0 - 1) < 1e-9 }, "\(ages)")
    #expect(after.last?.age == "" && after.last?.station == "")
  }

  @Test func aRestartForgetsTheCorrections() throws {
    let harness = try EmulatorHarness(configuration: Self.configuration())
    defer { harness.stop() }
    _ = try harness.step()
    for second in 0..<3 {
      #expect(try Self.second(harness, sending: true, withPosition: second == 0).quality == "2")
    }
    // CFG-RST: a hot start, navigation only (reset mode 2: the port keeps sending).
    let reset = UBXFrame(.cfgRST, payload: [0x00, 0x00, 0x02, 0x00])
    try harness.send(bytes: reset.bytes, expectingRestarts: 1)
    let after = try (0..<5).map { _ in try Self.second(harness, sending: false).quality }
    #expect(!after.contains("2"), "\(after)")
  }
}
