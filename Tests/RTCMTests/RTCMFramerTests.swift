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

  /// Found by the `rtcm` fuzz target: a false preamble whose frame is complete at once, with
  /// good frames inside it. Fed whole, its CRC was checked first; fed in chunks, the frame
  /// inside completed first. The frame that completes first in the stream now decides either way.
  static let nestedFrames = hexBytes(
    "d3010101010101010101010101010101010101010101fc010101010100000000000000000000000000000000"
      + "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
      + "000000000000000000000000000000000000000000000000000000000000000000050101010101017fd30013"
      + "3ed0070209c7d300614320075266d94000002400046780000000200000007fd154d31110d29413d566febcdc"
      + "de7dfa311281d1cdf7818cc6f365ad28ec45b82130e83eb8fefbf3018bb60de637969e21477e045bf20420c8"
      + "3a205f5cafddddddddd802755caa97d86d506fbec82447504747410d0ad3010101010100153ee0070209c7fb"
      + "f5c400010101010101010101010101810101010101016454637e0b2143d15c010199413a0001010125")

  static func hexBytes(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
      let next = text.index(index, offsetBy: 2)
      bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
      index = next
    }
    return bytes
  }

  @Test func eventsAndCountsDoNotDependOnTheChunks() {
    var whole = RTCMFramer()
    let expected = whole.append(Self.nestedFrames)
    whole.finish()
    var single = RTCMFramer()
    let events = Self.nestedFrames.flatMap { single.append([$0]) }
    single.finish()
    #expect(events == expected)
    #expect(single.counts == whole.counts)
    #expect(whole.counts.frames >= 1)
  }
}
