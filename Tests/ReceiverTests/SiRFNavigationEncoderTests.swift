import Geodesy
import Receiver
import SiRF
import Simulation
import Testing

/// The SiRF binary epoch: the messages gpsd's SiRF driver decodes, with the lengths it checks
/// and the fields it reads (`driver_sirf.c`: MID 2 ECEF and mode, MID 4 channels).
@Suite struct SiRFNavigationEncoderTests {
  static let noon = UTCInstant(year: 2026, month: 11, day: 30, hour: 12)
  static let fix = Scene(motion: FixedPosition(EmulatorConfigurationDefaults.greenwich))
    .faultFreeFix(at: noon)

  static var binaryOutput: OutputSelection {
    var output = ReceiverProfile.sirf.defaultOutput
    output.nmeaProtocolEnabled = false
    output.sirfProtocolEnabled = true
    output.sirf = SiRFNavigationEncoder.defaultRates
    return output
  }

  @Test func anEpochHasTheMessagesGpsdReadsWithTheirLengths() {
    let frames = SiRFNavigationEncoder.frames(
      for: Self.fix, output: Self.binaryOutput, epochIndex: 0)
    #expect(frames.map(\.id) == [2, 4, 7, 9, 41])
    #expect(frames.map(\.payload.count) == [41, 188, 20, 9, 91])
    #expect(
      SiRFNavigationEncoder.frames(for: Self.fix, output: .init(nmea: [:]), epochIndex: 0).isEmpty)
  }

  @Test func measuredNavigationCarriesTheFix() throws {
    let frame = SiRFNavigationEncoder.solution(for: Self.fix).measuredNavigation
    var reader = SiRFPayloadReader(frame.payload, offset: 1)
    let (xField, yField, zField) = (reader.i4(), reader.i4(), reader.i4())
    let x = Double(try #require(xField))
    let y = Double(try #require(yField))
    let z = Double(try #require(zField))
    let expected = EarthCenteredPosition(
      latitude: Self.fix.position.latitude, longitude: Self.fix.position.longitude,
      heightAboveEllipsoidMeters: Self.fix.position.altitudeMeters + Self.fix.geoidSeparationMeters)
    #expect(abs(x - expected.x) <= 0.5 && abs(y - expected.y) <= 0.5 && abs(z - expected.z) <= 0.5)
    #expect(frame.payload[19] == 4)  // 3D from four satellites or more
    let gpsTime = GPSTime(Self.noon)
    var time = SiRFPayloadReader(frame.payload, offset: 22)
    #expect(time.u2().map(Int.init) == gpsTime.week % 1024)
    #expect(time.u4().map(Int64.init) == gpsTime.nanosecondsOfWeek / 10_000_000)
    let used = Int(frame.payload[28])
    #expect(used == min(12, Self.fix.satellitesUsed.count))
    #expect(Array(frame.payload[29..<(29 + used)]).allSatisfy { $0 > 0 })
  }

  @Test func withoutAFixTheModeIsNone() {
    var fix = Self.fix
    fix.mode = .noFix
    fix.dop = nil
    let solution = SiRFNavigationEncoder.solution(for: fix)
    #expect(solution.measuredNavigation.payload[19] == 0)
    #expect(solution.measuredNavigation.payload[28] == 0)
    #expect(solution.geodeticNavigation.payload[1...2] == [0, 1])
  }

  @Test func trackerChannelsHaveAzimuthElevationAndUse() {
    let tracker = SiRFNavigationEncoder.solution(for: Self.fix).measuredTracker
    let first = Self.fix.satellitesUsed[0]
    #expect(Int(tracker.payload[8]) == first.id)
    #expect(abs(Double(tracker.payload[9]) * 1.5 - first.azimuth) <= 1.5)
    #expect(abs(Double(tracker.payload[10]) / 2 - first.elevation) <= 0.5)
    #expect(tracker.payload[12] & 1 == 1)
  }
}
