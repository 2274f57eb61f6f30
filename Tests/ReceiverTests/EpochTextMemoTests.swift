import Geodesy
import NMEA
import Simulation
import Testing

@testable import Receiver

/// The memo of the last epoch's lines by fix: an epoch whose fix differs from the last in its
/// time alone is the last one with the time patched, byte for byte what a fresh encoder writes;
/// any other change, another day or other sentences sent, is written anew.
@Suite struct EpochTextMemoTests {
  static let test = EpochLineMemoTests.test

  /// The encoder and output of the test's source, its fix at `time`, and a fix that is the same
  /// at another time.
  struct Setting {
    let encoder: EpochEncoder
    let output: OutputSelection
    let fix: Fix

    init() throws {
      let source = try EpochGoldenBytesTests.source(EpochTextMemoTests.test)
      encoder = source.encoder.nmea
      output = source.encoder.output
      fix = source.fix(at: EpochGoldenBytesTests.start)
    }

    func fix(movedBy nanoseconds: Int64) -> Fix {
      var fix = self.fix
      fix.time = fix.time.adding(nanoseconds: nanoseconds)
      return fix
    }

    func memoLines(_ fix: Fix) -> [[UInt8]]? {
      let (rounded, time, _) = EpochFields.timeAndDate(of: fix.time, dialect: encoder.dialect)
      let day = rounded.startOfDay
      let sent = encoder.sentBits { output.sends(nmea: $0, epochIndex: 0) }
      return encoder.textMemo.lines(for: fix, sent: sent, day: day, time: time)
    }

    func lines(_ fix: Fix) -> [[UInt8]] {
      encoder.lines(for: fix, output: output, epochIndex: 0)
    }
  }

  @Test func anEpochWhoseFixDiffersInItsTimeAloneIsTheLastOnePatched() throws {
    let setting = try Setting()
    let first = setting.lines(setting.fix)
    for step in 1...5 {
      let fix = setting.fix(movedBy: Int64(step) * 100_000_000)
      let fresh = EpochLineMemoTests.freshLines(setting.encoder, fix, setting.output, 0)
      let patched = try #require(setting.memoLines(fix), "step \(step): not kept")
      #expect(patched == fresh, "step \(step)")
      #expect(patched != first, "the time changed")
      #expect(setting.lines(fix) == fresh)
    }
  }

  @Test func aFixChangedInAnythingElseIsWrittenAnew() throws {
    let setting = try Setting()
    _ = setting.lines(setting.fix)
    var higher = setting.fix(movedBy: 100_000_000)
    higher.position = try GeodeticPosition(
      latitude: higher.position.latitude, longitude: higher.position.longitude,
      altitudeMeters: higher.position.altitudeMeters + 0.1)
    #expect(setting.memoLines(higher) == nil)
    let fresh = EpochLineMemoTests.freshLines(setting.encoder, higher, setting.output, 0)
    #expect(setting.lines(higher) == fresh)
    var other = higher
    other.time = other.time.adding(nanoseconds: 100_000_000)
    other.speedMetersPerSecond = .nan
    #expect(setting.memoLines(other) == nil, "not a number is never equal")
  }

  /// Fixes equal but for the sign of a zero write the same text, so the memo may give one for
  /// the other: the GST ellipse's orientation with an east-north cofactor of 0.0 and -0.0 (found
  /// by helper-86: 90.0 kept where a fresh encoder wrote 270.0).
  @Test func fixesEqualButForTheSignOfAZeroWriteTheSameGST() throws {
    let setting = try Setting()
    #expect(setting.encoder.dialect.sentenceOrder.contains("GST"))
    var output = setting.output
    output.nmea["GST"] = 1
    var fix = setting.fix
    fix.dop = DilutionOfPrecision(
      position: 2, horizontal: 1.5, vertical: 1.3, time: 1, east: 1.2, north: 0.8,
      eastNorthCofactor: 0.0)
    _ = setting.encoder.lines(for: fix, output: output, epochIndex: 0)
    fix.time = fix.time.adding(nanoseconds: 100_000_000)
    fix.dop?.eastNorthCofactor = -0.0
    let lines = setting.encoder.lines(for: fix, output: output, epochIndex: 1)
    let fresh = EpochLineMemoTests.freshLines(setting.encoder, fix, output, 1)
    let gst = { (lines: [[UInt8]]) in
      lines.map { String(decoding: $0, as: UTF8.self) }.filter { $0.contains("GST,") }
    }
    #expect(gst(fresh).count == 1)
    #expect(gst(lines) == gst(fresh))
  }

  /// Across midnight the date changes (RMC, ZDA): the first epoch of the day is written anew.
  @Test func theFirstEpochOfADayIsWrittenAnew() throws {
    let setting = try Setting()
    let toMidnight = Int64(50) * 1_000_000_000 - 100_000_000
    let before = setting.fix(movedBy: toMidnight)
    _ = setting.lines(before)
    let after = setting.fix(movedBy: toMidnight + 100_000_000)
    #expect(after.time.civil.day == 1 && before.time.civil.day == 30)
    #expect(setting.memoLines(after) == nil)
    #expect(
      setting.lines(after)
        == EpochLineMemoTests.freshLines(setting.encoder, after, setting.output, 0))
  }

  /// The time is patched into the kept lines in place, but only where no one else holds them:
  /// an epoch's lines handed out stay as they were while the next epochs are patched, and lines
  /// let go are written over, not copied.
  @Test func linesHandedOutStayAsTheyWereAndLinesLetGoArePatchedInPlace() throws {
    let setting = try Setting()
    _ = setting.lines(setting.fix)
    let held = try #require(setting.memoLines(setting.fix(movedBy: 100_000_000)))
    let text = held.map { String(decoding: $0, as: UTF8.self) }
    let gga = try #require(text.firstIndex { $0.contains("GGA,") })
    for step in 2...4 {
      let later = try #require(setting.memoLines(setting.fix(movedBy: Int64(step) * 100_000_000)))
      #expect(later[gga] != held[gga], "step \(step)")
    }
    #expect(held.map { String(decoding: $0, as: UTF8.self) } == text, "the lines held changed")
    // Each epoch's lines let go before the next: its GGA is patched in its own storage.
    func ggaStorage(_ step: Int64) throws -> UnsafeRawPointer? {
      let lines = try #require(setting.memoLines(setting.fix(movedBy: step * 100_000_000)))
      return lines[gga].withUnsafeBytes { $0.baseAddress }
    }
    let first = try ggaStorage(5)
    #expect(try ggaStorage(6) == first)
    #expect(try ggaStorage(7) == first)
  }

  /// Another set of sentences (a rate of one in two) is written anew, then kept in its turn.
  @Test func otherSentencesAreWrittenAnew() throws {
    let setting = try Setting()
    var output = setting.output
    output.nmea["GSA"] = 2
    for index in 0..<6 {
      let fix = setting.fix(movedBy: Int64(index) * 100_000_000)
      let lines = setting.encoder.lines(for: fix, output: output, epochIndex: index)
      #expect(
        lines == EpochLineMemoTests.freshLines(setting.encoder, fix, output, index),
        "epoch \(index)")
    }
  }
}

/// The sentence types an output sends, from the rates kept by `NMEARatesMemo`, are those
/// `OutputSelection.sends(nmea:epochIndex:)` says, as the output changes.
@Suite struct NMEARatesMemoTests {
  @Test func theBitsAreWhatTheOutputSends() throws {
    let encoder = EpochEncoder(profile: .ubloxF9P)
    let order = encoder.dialect.sentenceOrder
    var output = OutputSelection(nmeaEveryEpoch: order)
    let changes: [(Int, (inout OutputSelection) -> Void)] = [
      (3, { $0.nmea["GSA"] = 2 }), (7, { $0.nmea["GSV"] = 5 }), (11, { $0.nmea["GGA"] = nil }),
      (13, { $0.nmeaProtocolEnabled = false }), (15, { $0.nmeaProtocolEnabled = true }),
      (17, { $0.nmea["VTG"] = 0 }),
    ]
    var checked = 0
    for epoch in 0..<20 {
      for (at, change) in changes where at == epoch { change(&output) }
      let bits = encoder.ratesMemo.bits(of: output, epochIndex: epoch, order: order)
      let expected = encoder.sentBits { output.sends(nmea: $0, epochIndex: epoch) }
      #expect(bits == expected, "epoch \(epoch)")
      checked += bits == 0 ? 0 : 1
    }
    #expect(checked == 18, "every epoch but the two with NMEA off sends something")
  }
}
