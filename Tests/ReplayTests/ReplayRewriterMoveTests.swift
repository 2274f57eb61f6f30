import Geodesy
import Replay
import TestFixtures
import Testing
import UBX
import Wire

@Suite(.blocking) struct ReplayRewriterMoveTests {
  /// Warsaw: far from every corpus log, in another hemisphere from some.
  static let destination = GeodeticPosition(known: 52.229_7, 21.012_2)

  @Test(arguments: [
    "ublox-zed-f9p-nmea.log", "skytraq-fix.log", "garmin17n.log", "polarx2.log",
    "quectelLC79D.log",
  ])
  func nmeaPositionsLandWhereGeographicLibPutsThem(log: String) throws {
    let before = try ReplayRewriterTestLogs.packets(of: log)
    var rewriter = ReplayRewriter(moveTo: Self.destination)
    let after = before.map { rewriter.rewrite($0) }
    let verdict = try ReplayRewriterTestLogs.oracle(
      before: before, after: after, shiftNanoseconds: 0, moveTo: Self.destination,
      origin: rewriter.trackOrigin)
    #expect(verdict.problems == [])
    #expect(verdict.counts["nmeaPositions", default: 0] >= 5)
    #expect(verdict.counts["originChecked"] == 1)
    // Rounded to the recorded digits, never worse than half the last one.
    #expect(verdict.worst["positionDigits", default: 1] <= 0.5 + 1e-6)
  }

  @Test(arguments: ["ublox-zed-f9p-hp.log", "ublox-neo-m8t.log", "ublox-8-time.log"])
  func ubxPositionsAndECEFLandWhereGeographicLibPutsThem(log: String) throws {
    let before = try ReplayRewriterTestLogs.packets(of: log)
    var rewriter = ReplayRewriter(moveTo: Self.destination)
    let after = before.map { rewriter.rewrite($0) }
    let verdict = try ReplayRewriterTestLogs.oracle(
      before: before, after: after, shiftNanoseconds: 0, moveTo: Self.destination,
      origin: rewriter.trackOrigin)
    #expect(verdict.problems == [])
    #expect(verdict.counts["ubxEarthCentered", default: 0] > 10)
    #expect(verdict.worst["ecefMeters", default: 1] < 0.01)
    #expect(verdict.worst["highPrecisionMeters", default: 0] < 0.001)
    print("\(log): \(verdict.counts), worst \(verdict.worst)")
  }

  @Test func timeShiftAndMoveTogetherOnUBX() throws {
    let before = try ReplayRewriterTestLogs.packets(of: "ublox-zed-f9p-hp.log")
    let shift = ReplayRewriterTimeTests.shift
    var rewriter = ReplayRewriter(moveTo: Self.destination, timeShiftNanoseconds: shift)
    let after = before.map { rewriter.rewrite($0) }
    let verdict = try ReplayRewriterTestLogs.oracle(
      before: before, after: after, shiftNanoseconds: shift, moveTo: Self.destination,
      origin: rewriter.trackOrigin)
    #expect(verdict.problems == [])
    #expect(verdict.counts["ubxHighPrecisionPositions", default: 0] > 10)
    #expect(verdict.counts["ubxUTC", default: 0] > 10)
  }

  /// A 10 km track heading east at 45° N, moved 5000 km to 76° N: distances and
  /// azimuths from the origin are kept, so the moved track's own course drifts from the
  /// recorded one by the difference of meridian convergence between the two places.
  @Test func meridianConvergenceTurnsALongMovedTrackSlightly() {
    let origin = GeodeticPosition(known: 45, 0)
    let destination = Geodesic.wgs84.direct(
      from: origin, azimuthDegrees: 20, distanceMeters: 5_000_000
    ).position
    var rewriter = ReplayRewriter(moveTo: destination)
    let track = (0...100).map { step in
      Geodesic.wgs84.direct(from: origin, azimuthDegrees: 90, distanceMeters: Double(step) * 100)
        .position
    }
    let moved = track.map { point in
      Self.position(of: rewriter.rewrite(Self.positionFrame(point)))
    }
    #expect(Geodesic.wgs84.inverse(from: moved[0], to: destination).distanceMeters < 0.02)
    var worstTurn = 0.0
    for index in 1..<track.count {
      let recorded = Geodesic.wgs84.inverse(from: track[index - 1], to: track[index])
      let now = Geodesic.wgs84.inverse(from: moved[index - 1], to: moved[index])
      #expect(abs(now.distanceMeters - recorded.distanceMeters) < 0.03)
      worstTurn = max(worstTurn, abs(now.initialAzimuthDegrees - recorded.initialAzimuthDegrees))
    }
    print("10 km track moved 5000 km to \(destination): course turned up to \(worstTurn)°")
    // (10 km / R)·(tan 76° − tan 45°) = 0.27°.
    #expect(worstTurn > 0.2 && worstTurn < 0.3)
  }

  /// A sentence that the move lengthens (fewer degree digits recorded than written) past the
  /// longest line a reader frames as one is sent as recorded, not as a sentence and garbage;
  /// the same sentence shorter is moved.
  @Test(arguments: [(4095, false), (4000, true)])
  func aSentenceMovedPastTheLongestLineStaysAsRecorded(length: Int, moves: Bool) {
    var rewriter = ReplayRewriter(moveTo: Self.destination)
    let start = "$GPGLL,100.0,N,00100.0,E,120000.00,A,A,"
    let text = start + String(repeating: "P", count: length - start.count - 2) + "\r\n"
    let packet = ReplayRewriterTestLogs.sentence(text)
    let rewritten = rewriter.rewrite(packet)
    #expect(packet.bytes.count == length)
    #expect((rewritten != packet) == moves)
    #expect(rewritten.bytes.count < 4096 || rewritten == packet)
  }

  @Test func noFixPositionsStayAndDoNotFixTheOrigin() {
    var rewriter = ReplayRewriter(moveTo: Self.destination)
    let noFix = ReplayRewriterTestLogs.sentence(
      "$GPRMC,093802,V,5213.1439,N,02100.6511,E,,,160305,,,N*63\r\n")
    let zeros = ReplayRewriterTestLogs.sentence(
      "$GPGGA,093802,0000.0000,N,00000.0000,E,1,00,99.9,,,,,,*4B\r\n")
    #expect(rewriter.rewrite(noFix) == noFix)
    #expect(rewriter.rewrite(zeros) == zeros)
    #expect(rewriter.trackOrigin == nil)
    let fix = ReplayRewriterTestLogs.sentence(
      "$GPGLL,4404.1165,N,12118.8705,W,182139.000,A,A*4D\r\n")
    let moved = String(decoding: rewriter.rewrite(fix).bytes, as: UTF8.self)
    #expect(moved.hasPrefix("$GPGLL,5213.7820,N,02100.7320,E,182139.000,A,A*"))
    #expect(rewriter.trackOrigin?.latitude == 44 + 4.1165 / 60)
  }

  static func positionFrame(_ point: GeodeticPosition) -> LogPacket {
    var payload = UBXPayloadWriter()
    payload.u4(0)
    payload.i4(Int32((point.longitude * 1e7).rounded()))
    payload.i4(Int32((point.latitude * 1e7).rounded()))
    payload.i4(0)
    payload.i4(0)
    payload.u4(0)
    payload.u4(0)
    let frame = UBXFrame(messageClass: 0x01, id: 0x02, payload: payload.bytes)
    return LogPacket(kind: .ubx, bytes: frame.bytes, line: 1)
  }

  static func position(of packet: LogPacket) -> GeodeticPosition {
    var reader = UBXPayloadReader(Array(packet.bytes.dropFirst(6).dropLast(2)))
    _ = reader.u4()
    let longitude = Double(reader.i4() ?? 0) / 1e7
    let latitude = Double(reader.i4() ?? 0) / 1e7
    return GeodeticPosition(known: latitude, longitude)
  }
}
