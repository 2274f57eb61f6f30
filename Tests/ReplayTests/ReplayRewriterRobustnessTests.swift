import Geodesy
import NMEA
import Replay
import TestFixtures
import Testing
import UBX
import Wire

@Suite(.blocking) struct ReplayRewriterRobustnessTests {
  static func rewriters() -> [ReplayRewriter] {
    [
      ReplayRewriter(timeShiftNanoseconds: ReplayRewriterTimeTests.shift),
      ReplayRewriter(moveTo: GeodeticPosition(known: -33.9, 151.2)),
      ReplayRewriter(
        moveTo: GeodeticPosition(known: 71.2, -156.8),
        timeShiftNanoseconds: -ReplayRewriterTimeTests.shift),
    ]
  }

  @Test func packetsOfOtherKindsAndWithProblemsComeOutByteIdentical() {
    let packets = [
      LogPacket(kind: .comment, bytes: Array("# Date: 2019-04-12 $GPGGA,1\n".utf8), line: 1),
      LogPacket(kind: .garbage, bytes: [0, 0, 0x24, 0x47, 0xFF, 0x0A], line: 2, problem: .garbage),
      LogPacket(
        kind: .sirf, bytes: [0xA0, 0xA2, 0x00, 0x01, 0x02, 0x00, 0x02, 0xB0, 0xB3], line: 3),
      LogPacket(
        kind: .nmea,
        bytes: Array("$GPGGA,093802,5213.1439,N,02100.6511,E,1,08,1.0,,,,,,*00\r\n".utf8),
        line: 4, problem: .badChecksum),
      // A bad checksum the splitter did not mark is found here too.
      ReplayRewriterTestLogs.sentence(
        "$GPRMC,093802,A,5213.1439,N,02100.6511,E,0.0,0.0,160305,,,A*00\r\n"),
      // AIS, and sentences with nothing to rewrite.
      ReplayRewriterTestLogs.sentence("!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26\r\n"),
      ReplayRewriterTestLogs.sentence(
        "$GPGSV,3,1,12,01,05,040,,02,17,260,,04,56,076,,07,,,*49\r\n"),
      ReplayRewriterTestLogs.sentence("$GPVTG,0.0,T,,M,0.0,N,0.0,K,A*0D\r\n"),
      // UBX: a bad checksum, a message with no time or position, a cut-off one.
      LogPacket(kind: .ubx, bytes: [0xB5, 0x62, 0x01, 0x20, 0x00, 0x00, 0x00, 0x00], line: 5),
      LogPacket(kind: .ubx, bytes: UBXFrame(messageClass: 0x0A, id: 0x04).bytes, line: 6),
      LogPacket(
        kind: .ubx, bytes: UBXFrame(messageClass: 0x01, id: 0x07, payload: [1, 2]).bytes, line: 7),
    ]
    for var rewriter in Self.rewriters() {
      for packet in packets {
        #expect(rewriter.rewrite(packet) == packet)
      }
    }
  }

  /// Each of these has a correct checksum and one malformed time, date or position field; a
  /// rewriter that moves both times and positions leaves them as recorded.
  static let malformed = [
    "$GPGGA,12a519,4404.1165,N,12118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*",
    "$GPGGA,250000,4404.1165,N,12118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*",
    "$GPGGA,126100.00,4404.1165,N,12118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*",
    "$GPGGA,-23519,4404.1165,N,12118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*",
    "$GPGGA,123519.1234567890,4404.1165,N,12118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*",
    "$GPGGA,123519,9104.1165,N,12118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*",
    "$GPGGA,123519,4464.1165,N,12118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*",
    "$GPGGA,123519,4404.1165,X,12118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*",
    "$GPGGA,123519,4404.1165,N,,W,1,08,1.0,1215.1,M,-21.0,M,,*",
    "$GPGGA,123519,4404.1165,N,18118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*",
    "$GPGGA,123519,4404.1165,N,12118.8705,*",
    "$GPGGA,123519,44.,N,12118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*",
    "$GPRMC,123519,A,4404.1165,N,12118.8705,W,0.0,0.0,320199,,,A*",
    "$GPRMC,123519,A,4404.1165,N,12118.8705,W,0.0,0.0,2902,,,A*",
    "$GPRMC,123519,A,4404.1165,N,12118.8705,W,0.0,0.0,290221,,,A*",
    "$GPZDA,123519.00,31,04,2008,00,00*",
    "$GPZDA,123519.00,1a,04,2008,00,00*",
    "$PGRMF,290,604800,160305,093802,13,5213.1439,N,02100.6511,E,A,2,0,226,2,1*",
    "$PGRMF,x,293895,160305,093802,13,5213.1439,N,02100.6511,E,A,2,0,226,2,1*",
  ]

  @Test(arguments: malformed)
  func aMalformedFieldLeavesTheSentenceAsRecorded(_ text: String) {
    let packet = ReplayRewriterTestLogs.sentence(Self.withChecksum(text))
    var rewriter = Self.rewriters()[2]
    #expect(rewriter.rewrite(packet) == packet)
  }

  /// Corpus sentences with bytes of their fields replaced at random (checksum made right):
  /// the rewriter never traps, and what it changes is a sentence with a correct checksum and as
  /// many fields.
  @Test func randomlyMangledSentencesNeverCrashIt() throws {
    let sentences = try ReplayRewriterTestLogs.packets(of: "ublox-zed-f9p-nmea.log").prefix(300)
      .map { String(decoding: $0.bytes, as: UTF8.self) }
      .filter { $0.contains("*") }
    var generator = SplitMix(seed: 9)
    let alphabet = Array("0123456789.,-NSEWAV *x".utf8)
    var changed = 0
    for var rewriter in Self.rewriters() {
      for round in 0..<4000 {
        let line = sentences[round % sentences.count]
        var body = Array(line.utf8.dropFirst().prefix { $0 != UInt8(ascii: "*") })
        for _ in 0...(generator.next() % 3) {
          body[Int(generator.next() % UInt64(body.count))] =
            alphabet[Int(generator.next() % UInt64(alphabet.count))]
        }
        let text = Self.withChecksum("$" + String(decoding: body, as: UTF8.self) + "*")
        let packet = ReplayRewriterTestLogs.sentence(text)
        let output = rewriter.rewrite(packet)
        guard output != packet else { continue }
        changed += 1
        let written = String(decoding: output.bytes, as: UTF8.self)
        #expect(written == Self.withChecksum(String(written.prefix { $0 != "*" }) + "*"))
        #expect(
          written.split(separator: ",", omittingEmptySubsequences: false).count
            == text.split(separator: ",", omittingEmptySubsequences: false).count)
      }
    }
    #expect(changed > 500)
  }

  /// `text` ending in `*` with its checksum and CR LF appended.
  static func withChecksum(_ text: String) -> String {
    let body = text.utf8.dropFirst().prefix { $0 != UInt8(ascii: "*") }
    return "$" + String(decoding: body, as: UTF8.self) + "*" + Checksum.hex(Checksum.of(body))
      + "\r\n"
  }
}

/// A small seeded generator (SplitMix64), so a failure can be replayed.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
