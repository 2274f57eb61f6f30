import Geodesy
import TestFixtures
import Testing
import UBX
import Wire

@testable import Passthrough

/// Streaming: packets leave the moment they complete, chunk boundaries do not matter, what is
/// not position-bearing passes byte for byte and in order, and the override's state outlives
/// a lost receiver.
@Suite(.blocking) struct PassthroughRewriterStreamingTests {
  typealias H = PassthroughHarness
  static let logs = [
    "ublox-zed-f9p-hp.log", "beidou-gb.log", "sirfstarv-nmea.log", "ac12_binary.log",
  ]

  /// Chunk sizes from a fixed linear congruential sequence: 1 to 600 bytes.
  static func randomSizes(count: Int) -> [Int] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % 600 + 1
    }
  }

  @Test(arguments: logs) func chunkBoundariesDoNotMatter(name: String) throws {
    let bytes = try H.log(name)
    let whole = H.forward(
      bytes, .replace(H.sydney, replacesAltitude: true), chunkSizes: [bytes.count])
    #expect(whole.statistics.sentencesRewritten + whole.statistics.framesRewritten > 0)
    for sizes in [[1], [7], [4096], Self.randomSizes(count: 500)] {
      let chunked = H.forward(bytes, .replace(H.sydney, replacesAltitude: true), chunkSizes: sizes)
      #expect(chunked.output == whole.output, "\(name) in chunks of \(sizes.prefix(3))")
      #expect(chunked.statistics == whole.statistics)
    }
  }

  @Test(arguments: logs) func whatIsNotPositionBearingPassesByteForByteInOrder(name: String) throws
  {
    let bytes = try H.log(name)
    let output = H.forward(bytes, .offsetBy(northMeters: 300, eastMeters: 300)).output
    let before = H.packets(bytes)
    let after = H.packets(output)
    #expect(after.count == before.count)
    var changed = 0
    for (input, output) in zip(before, after) {
      #expect(input.kind == output.kind)
      if H.mayChange(input) {
        if input.bytes != output.bytes { changed += 1 }
      } else {
        #expect(input.bytes == output.bytes, "\(name) line \(input.line)")
      }
    }
    #expect(changed > 0)
  }

  @Test func aSentenceLeavesAtItsLineFeedAndAFrameAtItsLastChecksumByte() throws {
    var rewriter = PassthroughRewriter(override: .replace(H.sydney, replacesAltitude: false))
    let sentence = Array(
      "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n".utf8)
    #expect(rewriter.forward(sentence.dropLast(), at: H.now).isEmpty)
    let out = rewriter.forward(sentence.suffix(1), at: H.now)
    #expect(out.count == sentence.count && out != sentence)
    let pvt = try #require(
      H.packets(try H.log("ublox-zed-f9p-hp.log")).first {
        $0.kind == .ubx && $0.bytes.dropFirst(3).first == 0x07
      })
    #expect(rewriter.forward(pvt.bytes.dropLast(), at: H.now).isEmpty)
    let frame = rewriter.forward(pvt.bytes.suffix(1), at: H.now)
    #expect(frame.count == pvt.bytes.count && frame != Array(pvt.bytes))
    #expect(rewriter.forward(Array("noise".utf8), at: H.now) == Array("noise".utf8))
  }

  @Test func malformedPositionSentencesPassUnchangedAndAreCounted() throws {
    let malformed = [
      "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48\r\n",  // bad checksum
      "$GPGGA,123519,48A7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*36\r\n",  // letter
      "$GPRMC,123519,A,4807.038,X,01131.000,E,022.4,084.4,230394,003.1,W*7C\r\n",  // hemisphere
      "$GPGGA,123519,4807.038,N,01131.0\u{0}0,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n",  // NUL
      "$GPGLL,4916.45,N,12311.12,W,225444,A$GPZDA,201530.00,04,07,2002,00,00*60\r\n",  // cut
    ]
    for text in malformed {
      let bytes = Array(text.utf8)
      let (output, statistics) = H.forward(bytes, .replace(H.sydney, replacesAltitude: false))
      #expect(output == bytes, "\(text)")
      #expect(statistics.unparsedPassed == 1, "\(text)")
      #expect(statistics.sentencesRewritten == 0)
    }
    var pvt = Array(
      try #require(
        H.packets(try H.log("ublox-zed-f9p-hp.log")).first {
          $0.kind == .ubx && $0.bytes.dropFirst(3).first == 0x07
        }
      ).bytes)
    pvt[pvt.count - 1] ^= 0xFF
    // A frame that fails is split again from its second byte (it may have swallowed sentences):
    // a candidate packet in its payload (here a DLE) is held until the bytes after it end it
    // (at worst 9 KiB later).
    let frameLength = pvt.count
    for _ in 0..<260 { pvt += Array("$GPZDA,201530.00,04,07,2002,00,00*60\r\n".utf8) }
    let (output, statistics) = H.forward(pvt, .replace(H.sydney, replacesAltitude: false))
    #expect(output.count > frameLength && pvt.starts(with: output))
    #expect(statistics.unparsedPassed == 1)
  }

  @Test func otherProtocolsPositionFramesPassAndAreCounted() throws {
    let bytes = try H.log("sirfstarv.log")
    let sirfPositions = H.packets(bytes).filter {
      $0.kind == .sirf && $0.problem == nil && [2, 41].contains($0.bytes[4])
    }
    let (output, statistics) = H.forward(bytes, .replace(H.sydney, replacesAltitude: false))
    #expect(!sirfPositions.isEmpty)
    #expect(statistics.unrewrittenPositionFrames == sirfPositions.count)
    #expect(output == bytes)
  }

  @Test func aGarbageFloodIsGivenBackInOrderWithABoundedHold() {
    var state: UInt64 = 42
    let flood = (0..<1_048_576).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    var rewriter = PassthroughRewriter(override: .replace(H.sydney, replacesAltitude: true))
    var output: [UInt8] = []
    var fed = 0
    var largestHold = 0
    while fed < flood.count {
      output += rewriter.forward(flood[fed..<min(flood.count, fed + 4096)], at: H.now)
      fed = min(flood.count, fed + 4096)
      largestHold = max(largestHold, fed - output.count)
    }
    #expect(largestHold <= 9216 + 4096)
    #expect(output == Array(flood.prefix(output.count)))
  }

  @Test func freezeHoldsItsFixAcrossALostReceiver() throws {
    let first = try H.log("beidou-gb.log")
    let second = try H.log("ublox-zed-f9p-nmea.log")
    var rewriter = PassthroughRewriter(override: .freeze)
    let before = rewriter.forward(first, at: H.now)
    rewriter.receiverLost()
    let after = rewriter.forward(second, at: H.now)
    let held = try #require(try H.decoded(before).messages.compactMap(H.position).first)
    let positions = try H.decoded(after).messages.compactMap(H.position)
    #expect(positions.count > 10)
    for position in positions { #expect(H.distance(position, held) < 2) }
    let real = try #require(rewriter.lastRealPosition)
    #expect(H.distance(real, held) > 1_000_000)
  }

  @Test func anOffsetKeepsItsOriginAcrossALostReceiver() throws {
    let bytes = try H.log("sirfstarv-nmea.log")
    let whole = H.forward(bytes, .offsetTo(H.sydney)).output
    let cut = try #require(bytes.indices.filter { bytes[$0] == 0x0A }.dropFirst(200).first) + 1
    var rewriter = PassthroughRewriter(override: .offsetTo(H.sydney))
    var output = rewriter.forward(bytes[..<cut], at: H.now)
    rewriter.receiverLost()
    output += rewriter.forward(bytes[cut...], at: H.now)
    #expect(output == whole)
  }

  @Test func freezingAtRunTimeHoldsTheLastRealPosition() throws {
    let bytes = try H.log("ublox-zed-f9p-hp.log")
    let half = bytes.count / 2
    var rewriter = PassthroughRewriter(override: .replace(H.sydney, replacesAltitude: false))
    _ = rewriter.forward(bytes[..<half], at: H.now)
    let last = try #require(rewriter.lastRealPosition)
    rewriter.override = .freeze
    let after = rewriter.forward(bytes[half...], at: H.now)
    let positions = try H.decoded(after).messages.compactMap(H.position)
    #expect(positions.count > 10)
    for position in positions { #expect(H.distance(position, last) < 0.05) }
  }

  /// The NMEA 0183 standard's RMB example: its waypoint moves with an offset track, stays
  /// when the receiver is put at one place, and is never taken for the receiver's position.
  @Test func aWaypointMovesWithAnOffsetButNotWithAReplacement() {
    let rmb = Array(
      "$GPRMB,A,0.66,L,003,004,4917.24,N,12309.57,W,001.3,052.5,000.5,V*20\r\n".utf8)
    var replacing = PassthroughRewriter(override: .replace(H.sydney, replacesAltitude: false))
    #expect(replacing.forward(rmb, at: H.now) == rmb)
    var offsetting = PassthroughRewriter(override: .offsetBy(northMeters: 5000, eastMeters: 0))
    let moved = String(decoding: offsetting.forward(rmb, at: H.now), as: UTF8.self)
    #expect(moved.hasPrefix("$GPRMB,A,0.66,L,003,004,4919.94,N,12309.57,W,"))
    #expect(offsetting.lastRealPosition == nil)
  }
}
