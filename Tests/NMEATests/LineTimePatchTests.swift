import NMEA
import TestFixtures
import Testing

/// `LineTimePatch`: a line whose time is patched is the line `lineBytes` writes for the
/// sentence at the new time, byte for byte, for every timed sentence of gpsd's regression logs;
/// a time whose text is longer, or a line without the old time where the table puts it, is not
/// patched.
@Suite struct LineTimePatchTests {
  @Test func theTimeFieldIsWhereTheTableNumbersIt() {
    #expect(GGA.spec.timeFieldNumber == GGA.spec.fieldNumber(of: \.time))
    #expect(RMC.spec.timeFieldNumber == RMC.spec.fieldNumber(of: \.time))
    #expect(GLL.spec.timeFieldNumber == 5)
    #expect(ZDA.spec.timeFieldNumber == ZDA.spec.fieldNumber(of: \.time))
    #expect(GNS.spec.timeFieldNumber == GNS.spec.fieldNumber(of: \.time))
    #expect(GST.spec.timeFieldNumber == GST.spec.fieldNumber(of: \.time))
    #expect(GSA.spec.timeFieldNumber == nil)
    #expect(GSV.spec.timeFieldNumber == nil)
    #expect(VTG.spec.timeFieldNumber == nil)
  }

  /// Moves `sentence` to other times and checks each patch against the line written anew;
  /// returns how many were patched.
  static func check<Sentence: SentenceBody>(
    _ sentence: Sentence, time: WritableKeyPath<Sentence, NMEATime?>, _ place: String
  ) -> Int {
    guard let old = sentence[keyPath: time], let field = Sentence.spec.timeFieldNumber else {
      return 0
    }
    let line = sentence.lineBytes
    guard let start = LineTimePatch.timeStart(inLine: line, timeField: field) else {
      Issue.record("\(place): no time field \(field)")
      return 0
    }
    var later = old
    later.minutes = (old.minutes + 1) % 60
    later.hours = (old.hours + 7) % 24
    var moved = sentence
    moved[keyPath: time] = later
    let patch = LineTimePatch(from: old, to: later)
    #expect(patch?.patched(line, timeStart: start) == moved.lineBytes, "\(place)")
    // One more digit of seconds is a longer text: never patched.
    var longer = old
    longer.seconds = NMEADecimal(
      old.seconds.doubleValue, fractionDigits: (old.seconds.fractionDigits ?? 0) + 1,
      integerDigits: 2)
    #expect(LineTimePatch(from: old, to: longer) == nil, "\(place)")
    // Where the old time is not, nothing is patched.
    #expect(patch?.patched(line, timeStart: start + 1) == nil, "\(place)")
    return 1
  }

  @Test func patchedLinesAreTheLinesOfEveryTimedSentenceInGpsdsLogs() throws {
    var patched = 0
    for url in try Fixtures.gpsdLogs() {
      for (number, text) in try Fixtures.nmeaLines(of: url) {
        guard let raw = try? RawSentence(parsing: text) else { continue }
        let place = "\(url.lastPathComponent):\(number)"
        switch raw.type {
        case "GGA": patched += (try? GGA(raw)).map { Self.check($0, time: \.time, place) } ?? 0
        case "RMC": patched += (try? RMC(raw)).map { Self.check($0, time: \.time, place) } ?? 0
        case "GLL": patched += (try? GLL(raw)).map { Self.check($0, time: \.time, place) } ?? 0
        case "ZDA": patched += (try? ZDA(raw)).map { Self.check($0, time: \.time, place) } ?? 0
        case "GNS": patched += (try? GNS(raw)).map { Self.check($0, time: \.time, place) } ?? 0
        case "GST": patched += (try? GST(raw)).map { Self.check($0, time: \.time, place) } ?? 0
        default: break
        }
      }
    }
    #expect(patched > 5000, "\(patched) lines patched")
  }

  /// A line cut short, or with a checksum that is not `*hh` in uppercase hexadecimal, is not
  /// patched.
  @Test func aLineNotAsLineBytesWritesItIsNotPatched() throws {
    let old = try #require(NMEATime("123519.00"))
    let new = try #require(NMEATime("123520.00"))
    let patch = try #require(LineTimePatch(from: old, to: new))
    let line = Array("$GPZDA,123519.00,01,03,2026,,*6F\r\n".utf8)
    let start = try #require(LineTimePatch.timeStart(inLine: line, timeField: 1))
    #expect(patch.patched(line, timeStart: start) != nil)
    #expect(patch.patched(Array(line.prefix(12)), timeStart: start) == nil)
    var lowercase = line
    lowercase[lowercase.count - 3] = UInt8(ascii: "b")
    #expect(patch.patched(lowercase, timeStart: start) == nil)
    #expect(LineTimePatch.timeStart(inLine: line, timeField: 9) == nil)
  }
}
