import Replay
import TestFixtures
import Testing

@Suite(.blocking) struct RecordingFormatTests {
  @Test func recordsRoundTripThroughTheParserWhateverTheChunking() {
    let chunks: [(Int64, [UInt8])] = [
      (1_764_540_000_123_456_789, Array("$GPGGA,1*00\r\n".utf8)),
      (1_764_540_000_163_002_114, [0xB5, 0x62, 0x0A, 0x0A, 0x40, 0x00]),
      (1_764_540_001_000_000_000, []),
    ]
    var file = RecordingFormat.header([("Device", "/dev/ttyUSB0"), ("Serial", "9600 8N1")])
    for (time, bytes) in chunks {
      file += RecordingFormat.record(arrivalNanoseconds: time, bytes: bytes)
    }
    for step in [1, 3, 7, file.count] {
      var parser = RecordingParser()
      var items: [RecordingParser.Item] = []
      var start = 0
      while start < file.count {
        items += parser.items(from: file[start..<min(file.count, start + step)])
        start += step
      }
      items += parser.finish()
      let headers = items.compactMap { item -> String? in
        if case .header(let text, _) = item { return text }
        return nil
      }
      let read = items.compactMap { item -> RecordedChunk? in
        if case .chunk(let chunk) = item { return chunk }
        return nil
      }
      #expect(headers == [RecordingFormat.magic, "# Device: /dev/ttyUSB0", "# Serial: 9600 8N1"])
      #expect(read.map(\.arrivalNanoseconds) == chunks.map(\.0))
      #expect(read.map(\.bytes) == chunks.map(\.1))
      // Lines are counted by LF bytes, also those inside records.
      #expect(read.map(\.line) == [4, 7, 11])
    }
  }

  @Test func aBadRecordLineIsReportedWithItsLineAndTheNextRecordStillRead() {
    var file = Array("# mockgps recording 1\n@12x.5 3\nabc\n".utf8)
    file += RecordingFormat.record(arrivalNanoseconds: 5_000_000_001, bytes: Array("ok".utf8))
    var parser = RecordingParser()
    let items = parser.items(from: file) + parser.finish()
    #expect(
      items.contains { item in
        if case .malformed(line: 2, _) = item { return true }
        return false
      })
    #expect(
      items.last
        == .chunk(
          RecordedChunk(arrivalNanoseconds: 5_000_000_001, bytes: Array("ok".utf8), line: 4)))
  }

  @Test func aRecordCutShortGivesWhatArrivedAndSaysSo() {
    var file = RecordingFormat.header([])
    file += RecordingFormat.record(arrivalNanoseconds: 1, bytes: Array("abcdef".utf8))
    var parser = RecordingParser()
    let items = parser.items(from: file.dropLast(4)) + parser.finish()
    #expect(
      items.contains(
        .chunk(RecordedChunk(arrivalNanoseconds: 1, bytes: Array("abc".utf8), line: 2))))
    #expect(
      items.contains(.malformed(line: 2, reason: "the file ends 3 bytes before the record's end")))
  }

  @Test func anArrivalTimeBeyond2262IsMalformedNotAnOverflow() {
    var parser = RecordingParser()
    let items = parser.items(
      from: Array("# mockgps recording 1\n@9999999999.000000000 5\nhello\n".utf8))
    #expect(
      items.contains { item in
        if case .malformed(line: 2, _) = item { return true }
        return false
      })
  }
}
