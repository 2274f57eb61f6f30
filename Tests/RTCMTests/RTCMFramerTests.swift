import Testing

@testable import RTCM

/// The stream framer: the same frames whatever the chunks, garbage between frames counted,
/// frames whose CRC fails dropped and classified, resynchronisation on the byte after a false
/// preamble.
@Suite struct RTCMFramerTests {
  static let station = RTCMFrameTests.standardExample
  static let biases = RTCMFrame(payload: (try? GLONASSBiases(stationID: 7).payload()) ?? []).bytes
  static let stream = station + Array("$GPGGA,junk\r\n".utf8) + biases + [0xD3] + station

  static func frames(_ events: [RTCMFramer.Event]) -> [RTCMFrame] {
    events.compactMap {
      if case .frame(let frame) = $0 { return frame }
      return nil
    }
  }

  @Test func wholeByteByByteAndChunkedGiveTheSameFrames() {
    var whole = RTCMFramer()
    let expected = Self.frames(whole.append(Self.stream))
    #expect(expected.map(\.messageNumber) == [1005, 1230, 1005])
    var single = RTCMFramer()
    #expect(Self.frames(Self.stream.flatMap { single.append([$0]) }) == expected)
    var generator = SystemRandomNumberGenerator()
    var chunked = RTCMFramer()
    var events: [RTCMFramer.Event] = []
    var index = 0
    while index < Self.stream.count {
      let size = Int.random(in: 1...40, using: &generator)
      events += chunked.append(Self.stream[index..<min(Self.stream.count, index + size)])
      index += size
    }
    #expect(Self.frames(events) == expected)
    for framer in [whole, single, chunked] {
      // The NMEA line and the lone preamble before the last frame (its header is not a frame's).
      #expect(framer.counts.discardedBytes == 13 + 1)
      #expect(framer.counts.frames == 3)
      #expect(framer.counts.badChecksums == 0)
    }
  }

  @Test func aCorruptedFrameIsABadCRCAndTheNextOneIsFound() {
    var corrupted = Self.station
    corrupted[12] ^= 0x10
    var framer = RTCMFramer()
    let events = framer.append(corrupted + Self.biases)
    #expect(events.first == .checksumFailed(messageNumber: 1005))
    #expect(Self.frames(events).map(\.messageNumber) == [1230])
    #expect(framer.counts.badChecksums == 1)
    #expect(framer.counts.truncated == 0)
    #expect(framer.counts.discardedBytes == Self.station.count)
  }

  /// A frame cut after 10 bytes swallows the start of the next one; scanning again from its
  /// second byte finds that next frame, so the cut one counts as truncated.
  @Test func aFrameCutShortIsTruncatedAndTheFollowingFrameSurvives() {
    var framer = RTCMFramer()
    let events = framer.append(Array(Self.station.prefix(10)) + Self.station + Self.biases)
    #expect(Self.frames(events).map(\.messageNumber) == [1005, 1230])
    #expect(framer.counts.truncated == 1)
    #expect(framer.counts.badChecksums == 0)
    #expect(framer.counts.discardedBytes == 10)
  }

  @Test func theStreamEndingInsideAFrameCountsItAsTruncated() {
    var framer = RTCMFramer()
    #expect(framer.append(Self.station.prefix(20)).isEmpty)
    framer.finish()
    #expect(framer.counts.truncated == 1)
    #expect(framer.counts.discardedBytes == 20)
  }

  /// The longest announced frame is held until it completes, no longer.
  @Test func aFalsePreambleAnnouncingAFullFrameIsDroppedWhenItsCRCFails() {
    var framer = RTCMFramer()
    let noise = [0xD3, 0x03, 0xFF] + [UInt8](repeating: 0x55, count: 1026)
    let events = framer.append(noise + Self.station)
    #expect(Self.frames(events).map(\.messageNumber) == [1005])
    #expect(framer.counts.badChecksums == 1)
    #expect(framer.counts.discardedBytes == noise.count)
  }
}
