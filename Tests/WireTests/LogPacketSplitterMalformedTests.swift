import TestFixtures
import Testing
import UBX
import Wire

/// The splitter on malformed logs: whatever the bytes and however they are chunked, the packets
/// joined are the input, the same packets come out, and each fault is a packet with a problem.
@Suite(.blocking) struct LogPacketSplitterMalformedTests {
  static let gga = WireTestSupport.sentence(
    "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
  static let rmc = WireTestSupport.sentence(
    "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
  static let chunkSizes = [1, 3, 7, Int.max]

  /// The packets of `input` split in chunks of every size of `chunkSizes`; checks that they join
  /// into `input` and are the same for every chunking.
  static func split(_ input: [UInt8]) -> [LogPacket] {
    var reference: [LogPacket]?
    for size in chunkSizes {
      var splitter = LogPacketSplitter()
      var packets: [LogPacket] = []
      var start = 0
      while start < input.count {
        let end = start + min(size, input.count - start)
        packets += splitter.packets(from: input[start..<end])
        start = end
      }
      packets += splitter.finish()
      #expect(packets.flatMap { Array($0.bytes) } == input, "chunks of \(size)")
      if let reference {
        #expect(packets == reference, "chunks of \(size)")
      } else {
        reference = packets
      }
    }
    return reference ?? []
  }

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func aBadChecksumIsAnNMEAPacketWithThatProblem() {
    var bad = Self.bytes(Self.gga)
    bad[bad.count - 3] = bad[bad.count - 3] == UInt8(ascii: "0") ? 0x31 : 0x30
    let packets = Self.split(Self.bytes(Self.rmc) + bad + Self.bytes(Self.rmc))
    #expect(packets.map(\.kind) == [.nmea, .nmea, .nmea])
    #expect(packets.map(\.problem) == [nil, .badChecksum, nil])
    #expect(packets.map(\.line) == [1, 2, 3])
  }

  @Test func aSentenceCutByTheNextDollarIsTruncated() {
    let cut = Self.bytes(String(Self.gga.prefix(20)))
    let packets = Self.split(cut + Self.bytes(Self.rmc))
    #expect(packets.map(\.problem) == [.truncated, nil])
    #expect((packets.first?.bytes).map { Array($0) } == cut)
    #expect(packets.last?.kind == .nmea)
    #expect(packets.map(\.line) == [1, 1])
  }

  @Test func aSentenceCutByTheEndOfTheLogIsTruncated() {
    let cut = Self.bytes(String(Self.gga.prefix(30)))
    let packets = Self.split(Self.bytes(Self.rmc) + cut)
    #expect(packets.map(\.problem) == [nil, .truncated])
    #expect((packets.last?.bytes).map { Array($0) } == cut)
    #expect(packets.last?.line == 2)
  }

  @Test func aNULInsideASentenceIsAProblemAndTheNextSentenceIsFound() {
    var sentence = Self.bytes(Self.gga)
    sentence.insert(0, at: 12)
    let packets = Self.split(sentence + Self.bytes(Self.rmc))
    #expect(packets.contains { $0.problem != nil })
    #expect(!packets.contains { $0.isValid && $0.bytes.contains(0) })
    #expect((packets.last?.bytes).map { Array($0) } == Self.bytes(Self.rmc))
    #expect(packets.last?.isValid == true)
  }

  /// ublox-zed-f9p_hpg1.11.log: binary bytes holding a `#`, a control byte, then (on the same
  /// line) the first RMC. As for gpsd's lexer, the `#` starts no comment: the RMC is found (a
  /// comment had swallowed it, and `--time now` sent it with its 2019 time and date).
  @Test func aHashInBinaryDataStartsNoCommentAndTheSentenceAfterIsFound() {
    let binary: [UInt8] = [0x97, UInt8(ascii: "#"), 0x07, 0x04, 0x08, 0x00, UInt8(ascii: "D")]
    let packets = Self.split(binary + Self.bytes(Self.rmc) + Self.bytes(Self.gga))
    #expect(!packets.contains { $0.kind == .comment })
    #expect(
      packets.filter(\.isValid).map { Array($0.bytes) } == [
        Self.bytes(Self.rmc), Self.bytes(Self.gga),
      ])
    // Nor bytes that are no UTF-8 (a lone continuation byte, found by helper-97).
    let notUTF8: [UInt8] = [0x97, UInt8(ascii: "#"), 0x85]
    #expect(
      Self.split(notUTF8 + Self.bytes(Self.rmc)).filter(\.isValid).map { Array($0.bytes) }
        == [Self.bytes(Self.rmc)])
    // A remark with a tab or UTF-8 (gpsd's corpus has both) stays a comment.
    let comment = Self.bytes("#\tBD talker ID, Вадим\n")
    #expect(Self.split(comment).map(\.kind) == [.comment])
    // A line of `#` before a control byte is one run of garbage, each byte read once (read
    // again from each `#`, 4,000 of them took 7 s), and the sentence after it is found.
    let hashes = [UInt8](repeating: UInt8(ascii: "#"), count: 4000) + [0x01]
    let afterHashes = Self.split(hashes + hashes + Self.bytes(Self.rmc))
    #expect(afterHashes.dropLast().allSatisfy { $0.kind == .garbage })
    #expect(afterHashes.dropLast().flatMap { Array($0.bytes) } == hashes + hashes)
    #expect((afterHashes.last?.bytes).map { Array($0) } == Self.bytes(Self.rmc))
  }

  @Test func lineEndsOfAnyKindEndSentencesAndCountLinesByLF() {
    let body = String(Self.gga.dropLast())  // "\r\n" is one Character
    for (ending, lines) in [
      ("\r\n", [1, 2]), ("\n", [1, 2]), ("\r", [1, 1]), ("\r\r\n", [1, 2]),
    ] {
      let input = Self.bytes(body + ending + body + ending)
      let packets = Self.split(input)
      let sentences = packets.filter { $0.kind == .nmea }
      #expect(sentences.count == 2, "ending \(ending.debugDescription)")
      #expect(sentences.allSatisfy { $0.problem == nil }, "ending \(ending.debugDescription)")
      #expect(sentences.map(\.line) == lines, "ending \(ending.debugDescription)")
    }
  }

  @Test func garbageBetweenUBXFramesIsGarbageAndTheFramesAreFound() {
    let first = UBXFrame(messageClass: 0x01, id: 0x07, payload: Array(repeating: 7, count: 92))
    let second = UBXFrame(messageClass: 0x01, id: 0x35, payload: [1, 2, 3, 4, 5, 6, 7, 8])
    let noise: [UInt8] = [0x00, 0xFF, 0xB5, 0x13, 0x62, 0x42, 0x99]
    let packets = Self.split(first.bytes + noise + second.bytes)
    #expect(
      packets.filter { $0.kind == .ubx }.map { Array($0.bytes) } == [first.bytes, second.bytes])
    #expect(packets.filter { $0.kind == .garbage }.flatMap { Array($0.bytes) } == noise)
    #expect(packets.filter { $0.kind == .garbage }.allSatisfy { $0.problem == .garbage })
  }

  @Test func aUBXHeaderClaiming65535BytesDoesNotHideTheFramesAfterIt() {
    let header: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0xFF, 0xFF]
    let frames = (0..<5).map {
      UBXFrame(messageClass: 0x01, id: 0x07, payload: Array(repeating: UInt8($0), count: 92)).bytes
    }
    let packets = Self.split(header + frames.joined())
    #expect(packets.filter { $0.kind == .ubx }.map { Array($0.bytes) } == frames)
    #expect(packets.filter { !$0.isValid }.flatMap { Array($0.bytes) } == header)
  }

  /// The splitter keeps the storage of its frame, grown to the longest frame met, for the next
  /// one: a packet's bytes are a copy of their own size, or a passthrough holding an epoch of
  /// short packets would hold a long frame's storage for each (a flood grew the process by
  /// what flowed).
  @Test func aShortPacketAfterALongOneHoldsOnlyItsOwnBytes() {
    let long = Self.bytes("#" + String(repeating: "x", count: 3000) + "\r\n")
    let packets = Self.split(long + Self.bytes(Self.gga + Self.rmc))
    #expect(packets.map(\.kind) == [.comment, .nmea, .nmea])
    for packet in packets.dropFirst() {
      #expect(packet.bytes.capacity < 2 * packet.bytes.count, "\(packet.bytes.capacity)")
    }
  }

  @Test func randomBytesSplitIntoTheSameBytes() {
    var generator = SplitMix64(seed: 0x6D6F_636B_6770_73)
    for round in 0..<40 {
      let count = Int(generator.next() % 3000)
      // Mostly printable with sync bytes and line ends mixed in, so that frames start often.
      let alphabet: [UInt8] =
        Array(Self.bytes("$!#*,0123456789ABCDEFGPRMC\r\n")) + [
          0xB5, 0x62, 0xA0, 0xA2, 0xB0, 0xB3, 0x10, 0x03, 0xD3, 0x00, 0xFF,
        ]
      var input = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
      if round % 4 == 0 {
        input = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      }
      let packets = Self.split(input)
      #expect(packets.allSatisfy { !$0.bytes.isEmpty && $0.line >= 1 })
      #expect(packets.allSatisfy { $0.kind != .garbage || $0.problem != nil })
    }
  }
}
