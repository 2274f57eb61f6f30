import MockGPS
import MockGPSTestSupport
import Receiver
import TestFixtures
import Testing
import UBX

/// A ZED-F9P's MON-COMMS counts UART1's bytes as the device carried them, on the manual clock:
/// every byte a client wrote, the noise among them as skipped, every byte sent.
@Suite(.blocking, .timeLimit(.minutes(10))) struct UbloxLineCountersTests {
  /// UART1's txBytes, rxBytes and skipped in a MON-COMMS payload: its block is the second,
  /// 40 bytes after the 8-byte header, the three at offsets 4, 12 and 36.
  static func uart1Counters(_ payload: [UInt8]) -> [UInt32?] {
    [4, 12, 36].map { offset in
      var reader = UBXPayloadReader(Array(payload.dropFirst(8 + 40 + offset)))
      return reader.u4()
    }
  }

  @Test func noiseAndAPollAreCountedAsReceivedAndSkipped() throws {
    let harness = try ConfiguredEpoch.harness(.ubloxF9P)
    defer { harness.stop() }
    _ = try harness.step()
    let sent = harness.emulator.statistics.bytesSent
    #expect(sent > 0)
    let noise = [UInt8](repeating: 0x41, count: 300)
    try harness.send(bytes: noise + UBXFrame(.monCOMMS).bytes, expectingReplies: 1)
    let bytes = try harness.step()
    let start = try #require(
      bytes.indices.first { bytes[$0...].starts(with: [0xB5, 0x62, 0x0A, 0x36]) })
    let frame = try UBXFrame(parsing: Array(bytes[start...].prefix(6 + 8 + 5 * 40 + 2)))
    #expect(Self.uart1Counters(frame.payload) == [UInt32(sent), 308, 300])
  }
}

extension UbloxLineCountersTests {
  /// The MON-COMMS frames in bytes a client read.
  static func commsFrames(_ bytes: [UInt8]) throws -> [UBXFrame] {
    var frames: [UBXFrame] = []
    var index = bytes.startIndex
    while let start = bytes[index...].indices.first(where: {
      bytes[$0...].starts(with: [0xB5, 0x62, 0x0A, 0x36])
    }) {
      frames.append(try UBXFrame(parsing: Array(bytes[start...].prefix(6 + 8 + 5 * 40 + 2))))
      index = start + 1
    }
    return frames
  }

  /// The periodic MON-COMMS (CFG-MSGOUT) of each epoch counts every byte sent before it, with
  /// no client command between them to refresh the counters.
  @Test func thePeriodicMONCOMMSCountsTheBytesOfTheEpochsBefore() throws {
    let harness = try ConfiguredEpoch.harness(.ubloxF9P)
    defer { harness.stop() }
    _ = try harness.step()
    let key: UInt32 = 0x2091_0350  // CFG-MSGOUT-UBX_MON_COMMS_UART1
    var payload: [UInt8] = [0, 1, 0, 0]
    payload += (0..<4).map { UInt8(truncatingIfNeeded: key >> (8 * $0)) } + [1]
    try harness.send(bytes: UBXFrame(.cfgVALSET, payload: payload).bytes, expectingReplies: 1)
    _ = try harness.step()
    var sentBefore: [Int] = []
    var reported: [UInt32?] = []
    for _ in 0..<3 {
      sentBefore.append(harness.emulator.statistics.bytesSent)
      let frames = try Self.commsFrames(try harness.step())
      try #require(frames.count == 1, "one MON-COMMS an epoch")
      reported.append(Self.uart1Counters(frames[0].payload)[0])
    }
    #expect(reported == sentBefore.map { UInt32($0) }, "txBytes \(reported), sent \(sentBefore)")
  }
}
