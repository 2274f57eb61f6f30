import Geodesy
import Replay
import TestFixtures
import Testing
import UBX
import Wire

@Suite(.blocking) struct ReplayRewriterUBXRolloverTests {
  static func packet(_ messageClass: UInt8, _ id: UInt8, _ payload: UBXPayloadWriter) -> LogPacket {
    LogPacket(
      kind: .ubx, bytes: UBXFrame(messageClass: messageClass, id: id, payload: payload.bytes).bytes,
      line: 1)
  }

  static func payload(of packet: LogPacket) throws -> UBXPayloadReader {
    UBXPayloadReader(try UBXFrame(parsing: packet.bytes).payload)
  }

  /// NAV-TIMEGPS one second before the end of GPS week 2047 (the 2019 rollover of the 10-bit
  /// week), shifted by 2.25 s: the next week, 1.25 s into it (whole milliseconds go to iTOW,
  /// fTOW keeps the rest: none here), and a correct checksum (parsing
  /// checks it).
  @Test func aShiftPastTheEndOfAWeekCarriesIntoTheNextWeek() throws {
    var writer = UBXPayloadWriter()
    writer.u4(604_799_000)
    writer.i4(0)
    writer.i2(2047)
    writer.i1(18)
    writer.u1(7)
    writer.u4(20)
    var rewriter = ReplayRewriter(timeShiftNanoseconds: 2_250_000_000)
    var reader = try Self.payload(of: rewriter.rewrite(Self.packet(0x01, 0x20, writer)))
    #expect(reader.u4() == 1250)
    #expect(reader.i4() == 0)
    #expect(reader.i2() == 2048)
    #expect(reader.u1() == 18)
  }

  /// NAV-PVT at 2019-12-31 23:59:59 + 999 ms (nano 999000000) shifted by 1.5 s: 2020-01-01
  /// 00:00:01, nano 499000000, iTOW moved by 1500 ms.
  @Test func aShiftAcrossNewYearMovesTheUTCFieldsOfNavPVT() throws {
    var writer = UBXPayloadWriter()
    writer.u4(345_617_999)
    writer.u2(2019)
    for value: UInt8 in [12, 31, 23, 59, 59, 0x37] { writer.u1(value) }
    writer.u4(30)
    writer.i4(999_000_000)
    writer.zeros(92 - 20)
    var rewriter = ReplayRewriter(timeShiftNanoseconds: 1_500_000_000)
    let rewritten = try Self.payload(of: rewriter.rewrite(Self.packet(0x01, 0x07, writer))).bytes
    var reader = UBXPayloadReader(rewritten)
    #expect(reader.u4() == 345_619_499)
    #expect(reader.u2() == 2020)
    #expect((0..<6).map { _ in reader.u1() } == [1, 1, 0, 0, 1, 0x37])
    #expect(reader.u4() == 30)
    #expect(reader.i4() == 499_000_000)
  }
}
