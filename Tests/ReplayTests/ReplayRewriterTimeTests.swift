import Geodesy
import Replay
import TestFixtures
import Testing
import UBX
import Wire

@Suite(.blocking) struct ReplayRewriterTimeTests {
  /// 7 years, 40 days, 3 h 2 min 1.234567891 s: crosses days, months and years, is no whole
  /// number of anything, and rounds differently at each precision.
  static let shift: Int64 =
    ((7 * 365 + 40) * 86_400 + 3 * 3600 + 2 * 60 + 1) * 1_000_000_000
    + 234_567_891

  @Test(arguments: [
    "ublox-zed-f9p-nmea.log", "quectelLC79D.log", "polarx2.log", "garmin17n.log",
    "skytraq-fix.log", "saab-r4.log", "isync.log",
  ])
  func everyTimeAndDateMovesByTheShiftWithItsPrecision(log: String) throws {
    let before = try ReplayRewriterTestLogs.packets(of: log)
    var rewriter = ReplayRewriter(timeShiftNanoseconds: Self.shift)
    let after = before.map { rewriter.rewrite($0) }
    let verdict = try ReplayRewriterTestLogs.oracle(
      before: before, after: after, shiftNanoseconds: Self.shift)
    #expect(verdict.problems == [])
    #expect(verdict.counts["nmeaTimes", default: 0] >= 5)
    let changed = zip(before, after).filter { $0.bytes != $1.bytes }.count
    #expect(changed >= verdict.counts["nmeaTimes", default: 0])
  }

  @Test(arguments: ["ublox-neo-m8t.log", "ublox-zed-f9p-hp.log", "ublox-8-time.log"])
  func everyUBXTimeMovesByTheShift(log: String) throws {
    let before = try ReplayRewriterTestLogs.packets(of: log)
    var rewriter = ReplayRewriter(timeShiftNanoseconds: Self.shift)
    let after = before.map { rewriter.rewrite($0) }
    let verdict = try ReplayRewriterTestLogs.oracle(
      before: before, after: after, shiftNanoseconds: Self.shift)
    #expect(verdict.problems == [])
    #expect(verdict.counts["ubxTimeOfWeek", default: 0] > 50)
    #expect(verdict.counts["ubxWeeks", default: 0] > 10)
  }

  /// RXM-MEASX's times of week move with the rest: the F9P log's GPS, GLONASS and BeiDou
  /// times, not its QZSS field, which holds 1000 (no QZSS tracked).
  @Test func measurementTimesMoveByTheShift() throws {
    // Its UBX frames: this log has NMEA lines cut by binary bytes, which this simple splitter
    // would hand the oracle as text.
    let before = try ReplayRewriterTestLogs.packets(of: "ublox-zed-f9p_hpg1.11.log")
      .filter { $0.kind == .ubx }
    var rewriter = ReplayRewriter(timeShiftNanoseconds: Self.shift)
    let after = before.map { rewriter.rewrite($0) }
    let verdict = try ReplayRewriterTestLogs.oracle(
      before: before, after: after, shiftNanoseconds: Self.shift)
    #expect(verdict.problems == [])
    #expect(verdict.counts["ubxMeasurementTimes", default: 0] > 600 * 3)
    #expect(verdict.counts["ubxMeasurementNoTimes", default: 0] > 600)
  }

  /// Near the week's ends (GPS Sunday 00:30 and Saturday 23:59:55), the QZSS field's 1000 is
  /// still no time, and GLONASS's time, past the week's end, still one.
  @Test(arguments: [Int64(1_800_000), 604_795_000])
  func measurementTimesNearTheWeeksEnds(gpsTimeOfWeek: Int64) throws {
    let recorded = try ReplayRewriterTestLogs.packets(of: "ublox-zed-f9p_hpg1.11.log")
      .filter { $0.kind == .ubx && $0.bytes[2] == 0x02 && $0.bytes[3] == 0x14 }.prefix(20)
    let week: Int64 = 604_800_000
    let before = try recorded.map { packet in
      var frame = try UBXFrame(parsing: packet.bytes)
      for (offset, value) in [
        (4, gpsTimeOfWeek), (8, (gpsTimeOfWeek + 10_782_000) % week),
        (12, (gpsTimeOfWeek - 14_000 + week) % week),
      ] {
        for byte in 0..<4 {
          frame.payload[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte))
        }
      }
      return LogPacket(kind: .ubx, bytes: frame.bytes, line: 0)
    }
    var rewriter = ReplayRewriter(timeShiftNanoseconds: Self.shift)
    let after = before.map { rewriter.rewrite($0) }
    let verdict = try ReplayRewriterTestLogs.oracle(
      before: before, after: after, shiftNanoseconds: Self.shift)
    #expect(verdict.problems == [])
    #expect(verdict.counts["ubxMeasurementTimes", default: 0] == 20 * 3)
    #expect(verdict.counts["ubxMeasurementNoTimes", default: 0] == 20)
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var before: String
    var shiftNanoseconds: Int64
    var after: String
    var testDescription: String { "\(before) + \(shiftNanoseconds) ns" }
  }

  static let second: Int64 = 1_000_000_000

  /// Rollovers and precision, on sentences from the corpus; the expected lines were worked out
  /// by hand, their checksums computed apart (XOR in Python).
  static let cases: [Case] = [
    // Midnight, month and year: 31 December 23:59:59 + 2 s.
    Case(
      before: "$GPRMC,235959,A,5213.1439,N,02100.6511,E,0.0,0.0,311299,,,A*7A\r\n",
      shiftNanoseconds: 2 * second,
      after: "$GPRMC,000001,A,5213.1439,N,02100.6511,E,0.0,0.0,010100,,,A*7B\r\n"),
    // A leap day, and two decimals kept.
    Case(
      before: "$GNRMC,235958.50,A,4552.65403,S,17030.00668,E,0.025,,280220,,,A,V*0E\r\n",
      shiftNanoseconds: 2 * second,
      after: "$GNRMC,000000.50,A,4552.65403,S,17030.00668,E,0.025,,290220,,,A,V*0F\r\n"),
    // GGA has no date: the time wraps round midnight. Three decimals, rounded.
    Case(
      before: "$GPGGA,235959.900,4404.1165,N,12118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*51\r\n",
      shiftNanoseconds: 150_400_000,
      after: "$GPGGA,000000.050,4404.1165,N,12118.8705,W,1,08,1.0,1215.1,M,-21.0,M,,*5C\r\n"),
    // Backwards across a year; ZDA's local zone fields stay.
    Case(
      before: "$GPZDA,000001.00,01,01,2008,00,00*6D\r\n",
      shiftNanoseconds: -2 * second,
      after: "$GPZDA,235959.00,31,12,2007,00,00*63\r\n"),
    // Forwards into a new year: ZDA's day and month are two digits (they were `1,1`).
    Case(
      before: "$GPZDA,235959.00,31,12,2025,00,00*63\r\n",
      shiftNanoseconds: 2 * second,
      after: "$GPZDA,000001.00,01,01,2026,00,00*61\r\n"),
    // An empty time stays empty, and a lowercase checksum stays lowercase.
    Case(
      before: "$GPGGA,,,,,,0,00,99.99,,,,,,*48\r\n",
      shiftNanoseconds: 3600 * second, after: "$GPGGA,,,,,,0,00,99.99,,,,,,*48\r\n"),
    Case(
      before: "$GPGST,001901.00,0.0000,,,,304885,304880,62123*5f\r\n",
      shiftNanoseconds: 3600 * second,
      after: "$GPGST,011901.00,0.0000,,,,304885,304880,62123*5e\r\n"),
    // Garmin's PGRMF: GPS week (modulo 1024) and seconds, date and time.
    Case(
      before: "$PGRMF,290,604799,190305,235944,13,5213.1439,N,02100.6511,E,A,2,0,226,2,1*1A\r\n",
      shiftNanoseconds: 2 * second,
      after: "$PGRMF,291,1,190305,235946,13,5213.1439,N,02100.6511,E,A,2,0,226,2,1*2D\r\n"),
  ]

  @Test(arguments: cases)
  func rolloversAndPrecision(_ example: Case) {
    var rewriter = ReplayRewriter(timeShiftNanoseconds: example.shiftNanoseconds)
    let packet = ReplayRewriterTestLogs.sentence(example.before)
    #expect(String(decoding: rewriter.rewrite(packet).bytes, as: UTF8.self) == example.after)
  }
}
