import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// `mockgps check` on logs to replay, as a process: gpsd's regression logs with known bad lines,
/// a binary log, an empty and a missing file.
@Suite(.blocking, .serialized) struct LogCheckProcessTests {
  @Test func aBadChecksumIsAWarningOnItsLineAndTheLogStaysValid() throws {
    let log = try Fixtures.gpsdLog("com-1289.log")
    let sentences = try Fixtures.nmeaLines(of: log).count
    let (status, output, errors) = try MockGPSBinary.run(["check", log.path])
    #expect(status == 0, "\(errors)")
    #expect(errors == "mockgps: \(log.path):35: bad checksum in $GPGSV sentence\n")
    #expect(
      output
        == "\(log.path): NMEA log, \(sentences) sentences, 10 comments (1 with bad checksums);"
        + " replayable\n")
  }

  @Test func aSentenceCutByTheNextIsATruncationWarning() throws {
    let log = try Fixtures.gpsdLog("triton400.log")
    let (status, output, errors) = try MockGPSBinary.run(["check", log.path])
    #expect(status == 0, "\(errors)")
    #expect(errors == "mockgps: \(log.path):19: truncated $GPGGA sentence\n")
    #expect(output.hasSuffix("(1 truncated); replayable\n"), "\(output)")
  }

  @Test func aUBXLogIsSummarisedByItsFrames() throws {
    let log = try Fixtures.gpsdLog("ublox-zed-f9p-hp.log")
    let frames = Self.validUBXFrames(in: try Data(contentsOf: log))
    #expect(frames > 100)
    let (status, output, errors) = try MockGPSBinary.run(["check", log.path])
    #expect(status == 0, "\(errors)")
    #expect(output.hasPrefix("\(log.path): UBX log, \(frames) frames, "), "\(output)")
  }

  @Test func anEmptyLogExits65() throws {
    let directory = try ScratchDirectory("log-check")
    defer { directory.remove() }
    let file = directory.path + "/empty.nmea"
    try Data().write(to: URL(fileURLWithPath: file))
    let (status, output, errors) = try MockGPSBinary.run(["check", file])
    #expect(status == 65)
    #expect(output == "")
    #expect(errors.hasPrefix("\(file): nothing to replay"), "\(errors)")
  }

  @Test func aMissingLogExits66() throws {
    let directory = try ScratchDirectory("log-check")
    defer { directory.remove() }
    let file = directory.path + "/missing.log"
    let (status, output, errors) = try MockGPSBinary.run(["check", file])
    #expect(status == 66)
    #expect(output == "")
    #expect(errors.contains(file), "\(errors)")
  }

  /// The UBX frames with a right checksum, found by their sync bytes and length.
  static func validUBXFrames(in data: Data) -> Int {
    let bytes = [UInt8](data)
    var count = 0
    var index = 0
    while index + 8 <= bytes.count {
      guard bytes[index] == 0xB5, bytes[index + 1] == 0x62 else {
        index += 1
        continue
      }
      let length = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8
      let end = index + 6 + length
      guard end + 2 <= bytes.count else { break }
      var a: UInt8 = 0
      var b: UInt8 = 0
      for byte in bytes[(index + 2)..<end] {
        a &+= byte
        b &+= a
      }
      if bytes[end] == a, bytes[end + 1] == b {
        count += 1
        index = end + 2
      } else {
        index += 1
      }
    }
    return count
  }
}
