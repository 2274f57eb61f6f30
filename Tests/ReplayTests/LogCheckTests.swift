import InputFiles
import Replay
import TestFixtures
import Testing

/// `LogCheck` on logs written for the purpose: the warning limit, blank lines, a wrong header,
/// and a mockgps recording.
@Suite(.blocking) struct LogCheckTests {
  static let rmc = ReplayReaderTestSupport.sentence(
    "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")

  @Test func warningsStopAtTheLimitAndTheRestAreCounted() throws {
    let bad = String(String(Self.rmc.dropLast()).dropLast(2)) + "00\r\n"
    let count = InputFileError.diagnosticLimit + 50
    let path = try ReplayReaderTestSupport.temporaryLog(
      Array((Self.rmc + String(repeating: bad, count: count)).utf8))
    defer { ReplayReaderTestSupport.remove(path) }
    let check = try LogCheck(path: path)
    #expect(check.warnings.count == InputFileError.diagnosticLimit)
    #expect(check.unreportedWarnings == 50)
    #expect(check.problems[.badChecksum] == count)
    #expect(check.packetsByKind[.nmea] == count + 1)
    #expect(check.warnings.first?.description == "\(path):2: bad checksum in $GPRMC sentence")
    #expect(check.warnings.last?.location.line == InputFileError.diagnosticLimit + 1)
  }

  @Test func blankLinesAreNoGarbageAndAWrongHeaderIsAWarning() throws {
    let text = "# Serial: fast\r\n\r\n" + Self.rmc + "\r\n\n" + Self.rmc
    let path = try ReplayReaderTestSupport.temporaryLog(Array(text.utf8))
    defer { ReplayReaderTestSupport.remove(path) }
    let check = try LogCheck(path: path)
    #expect(check.blankLines == 3)
    #expect(check.packetsByKind == [.comment: 1, .nmea: 2])
    #expect(check.warnings.map(\.location.line) == [1])
    #expect(check.dataPackets == 2)
  }

  @Test func aRecordingIsReadByItsRecordsAndABadLineIsAWarning() throws {
    var bytes = RecordingFormat.header([("Device", "/dev/ttyUSB0"), ("Serial", "9600 8N1")])
    let sentence = Array(Self.rmc.utf8)
    bytes += RecordingFormat.record(
      arrivalNanoseconds: 1_764_540_000_000_000_000, bytes: sentence.prefix(20))
    bytes += RecordingFormat.record(
      arrivalNanoseconds: 1_764_540_000_010_000_000, bytes: sentence.dropFirst(20))
    bytes += Array("not a record\n".utf8)
    bytes += RecordingFormat.record(arrivalNanoseconds: 1_764_540_001_000_000_000, bytes: sentence)
    let path = try ReplayReaderTestSupport.temporaryLog(bytes, name: "capture.txt")
    defer { ReplayReaderTestSupport.remove(path) }
    #expect(LogCheck.startsAsLog(path: path))
    #expect(!LogCheck.hasLogExtension(path))
    let check = try LogCheck(path: path)
    #expect(check.header.isRecording)
    #expect(check.header.serial?.baud == 9600)
    #expect(check.records == 3)
    #expect(check.malformedRecords == 1)
    #expect(check.packetsByKind == [.nmea: 2])
    #expect(check.warnings.map(\.location.line) == [9])
  }
}
