import Testing

@testable import RTCM

/// u-blox's 4072.0 as the emulator writes it: decoded to what was sent, at its resolutions;
/// another sub-type stays unsupported; values past the fields refused.
@Suite struct MovingBaseReferenceTests {
  static let sent = MovingBaseReference(
    stationID: 4095, gpsMillisecondsOfWeek: 604_799_999, x: 4_201_234.567_89,
    y: 168_123.456_78, z: -4_780_456.789_01, velocityX: -12.3456, velocityY: 0.0004,
    velocityZ: 16_000)

  @Test func aFrameDecodesToThePositionAndVelocitySent() throws {
    let frame = try RTCMMessage.movingBaseReference(Self.sent).frame()
    #expect(frame.messageNumber == 4072)
    #expect(frame.payload.count == 32)
    guard case .movingBaseReference(let received) = try RTCMMessage(frame: frame) else {
      Issue.record("not decoded as 4072.0")
      return
    }
    #expect(received.stationID == 4095 && received.gpsMillisecondsOfWeek == 604_799_999)
    for (a, b) in [
      (received.x, Self.sent.x), (received.y, Self.sent.y), (received.z, Self.sent.z),
    ] {
      #expect(abs(a - b) <= 0.000_05, "\(a) for \(b)")
    }
    for (a, b) in [
      (received.velocityX, Self.sent.velocityX), (received.velocityY, Self.sent.velocityY),
      (received.velocityZ, Self.sent.velocityZ),
    ] {
      #expect(abs(a - b) <= 0.000_5, "\(a) for \(b)")
    }
    #expect(RTCMMessage.movingBaseReference(received).stationID == 4095)
  }

  @Test func anotherSubTypeIsUnsupported() throws {
    var payload = try Self.sent.payload()
    payload[1] |= 0x01  // sub-type 1 (4072.1)
    let message = try RTCMMessage(frame: RTCMFrame(payload: payload))
    #expect(message == .unsupported(number: 4072, payload: payload))
  }

  @Test func aShortPayloadAndAnEpochPastTheWeekAreErrors() throws {
    let payload = try Self.sent.payload()
    #expect(throws: RTCMError.self) { _ = try MovingBaseReference(payload: Array(payload[0..<20])) }
    var late = Self.sent
    late.gpsMillisecondsOfWeek = 604_800_000
    #expect(throws: RTCMError.valueOutOfRange(name: "epoch time", value: 604_800_000)) {
      _ = try late.payload()
    }
    var fast = Self.sent
    fast.velocityY = 20_000
    #expect(throws: RTCMError.valueOutOfRange(name: "velocity Y", value: 20_000)) {
      _ = try fast.payload()
    }
  }
}
