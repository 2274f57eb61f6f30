import Geodesy
import RTCM
import Simulation
import Testing
import UBX

@testable import Receiver

/// RTCM 4072.0 as a moving base sends it: out of time mode only, with the antenna where it
/// truly is (a fault that moves the reported position does not move the baseline's end).
@Suite struct MovingBaseOutputEncoderTests {
  /// 4072.0 (CFG-MSG F5 FE) every epoch.
  static let output = OutputSelection(
    nmea: [:], ubx: [UBXMessageType(messageClass: 0xF5, id: 0xFE): 1])

  static func references(_ fix: Fix) throws -> [MovingBaseReference] {
    var encoder = RTCMOutputEncoder()
    encoder.stationID = 12
    return try encoder.frames(
      for: fix, output: output, epochIndex: 0, measurements: nil, signals: [:]
    ).map { bytes in
      guard
        case .movingBaseReference(let reference) = try RTCMMessage(
          frame: RTCMFrame(parsing: bytes))
      else { throw RTCMError.unsupportedMessage(0) }
      return reference
    }
  }

  @Test func theTrueAntennaIsSentOutOfTimeModeOnly() throws {
    var fix = RTKRoverTests.fix(at: 1)
    let truth = EarthCenteredPosition(
      GeodeticPosition(known: 48.85, 2.35, altitudeMeters: 50.2))
    fix.faultFreeAntenna = truth
    let sent = try #require(try Self.references(fix).first)
    #expect(sent.stationID == 12)
    #expect(sent.gpsMillisecondsOfWeek == CorrectionInput.epochTime(of: fix.time, system: .gps))
    #expect(abs(sent.x - truth.x) < 1e-4 && abs(sent.y - truth.y) < 1e-4)
    #expect(abs(sent.z - truth.z) < 1e-4)
    // In time mode (a survey-in or a fixed station) the chip sends no 4072.
    fix.base = BaseStationReport(
      surveySeconds: 0, mean: truth, meanAccuracyMeters: 1, observations: 0, isValid: false,
      isActive: false, reference: truth)
    #expect(try Self.references(fix).isEmpty)
    // Nor without a fix.
    var lost = RTKRoverTests.fix(at: 1)
    lost.mode = .noFix
    #expect(try Self.references(lost).isEmpty)
  }
}

/// A moving base's source gives its fixes the antenna without the solution's faults: a jump
/// moves the reported position, not the antenna its 4072.0 sends.
@Suite struct MovingBaseAntennaTests {
  @Test func aJumpMovesThePositionNotTheAntenna() throws {
    let place = GeodeticPosition(known: 48.85, 2.35, altitudeMeters: 50)
    let scene = Scene(
      motion: FixedPosition(place),
      faults: [FixFault(.jump(northMeters: 30, eastMeters: 0))])
    var encoder = ReceiverEncoder(profile: .ubloxF9P)
    encoder.output = MovingBaseOutputEncoderTests.output
    let source = SceneSource(scene: scene, encoder: encoder)
    let fix = source.fix(at: RTKRoverTests.time(0))
    let antenna = try #require(fix.faultFreeAntenna)
    let truth = EarthCenteredPosition(place)
    #expect(abs(antenna.x - truth.x) < 1e-6 && abs(antenna.z - truth.z) < 1e-6)
    #expect(fix.position.latitude > place.latitude + 0.0002, "the jump shows in the fix")
    // Without 4072.0 on, nothing is added.
    #expect(SceneSource(scene: scene).fix(at: RTKRoverTests.time(0)).faultFreeAntenna == nil)
  }
}
