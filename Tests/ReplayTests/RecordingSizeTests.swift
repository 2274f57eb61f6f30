import Foundation
import InputFiles
import Testing

@testable import Replay

/// A recording's reader costs its size: a large record and a corrupted count are read in one
/// pass, and a count that cannot be right refuses the file with its line (exit 65).
@Suite struct RecordingSizeTests {
  typealias Support = ReplayReaderTestSupport

  /// Four MiB of NMEA in one record: sixteen times the record that took 27 s when the reader
  /// copied its buffer on every byte (a cost growing with the square of the record: hours).
  static let largeRecord: [UInt8] = {
    let epoch = Array(Support.epochText(centiseconds: 4_320_000, date: "011226").utf8)
    return Array(repeating: epoch, count: 4 << 20 / epoch.count).flatMap { $0 }
  }()

  static func recording(records: [[UInt8]]) -> [UInt8] {
    var file = RecordingFormat.header([("Serial", "9600 8N1")])
    for (index, bytes) in records.enumerated() {
      file += RecordingFormat.record(
        arrivalNanoseconds: 1_764_540_000_000_000_000 + Int64(index) * 1_000_000_000, bytes: bytes)
    }
    return file
  }

  /// The seconds `body` takes.
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  }

  /// The linear reader checks 4 MiB in about a second in a debug build; the quadratic one
  /// needed hours. 30 s tells them apart with room for a loaded machine.
  @Test func aFourMebibyteRecordIsCheckedAndReplayedInBoundedTime() throws {
    let path = try Support.temporaryLog(
      Self.recording(records: [Self.largeRecord, Array("$GPTXT*00\r\n".utf8)]), name: "big.rec")
    defer { Support.remove(path) }
    var check: LogCheck?
    let checking = try Self.seconds { check = try LogCheck(path: path) }
    #expect(checking < 30, "checking took \(checking) s")
    #expect(check?.records == 2)
    #expect(check?.malformedRecords == 0)
    var bytes = 0
    let replaying = try Self.seconds {
      let reader = try ReplayReader(path: path)
      bytes = try Support.epochs(of: reader).reduce(0) { $0 + $1.bytes.count }
    }
    #expect(replaying < 30, "replaying took \(replaying) s")
    #expect(bytes == Self.largeRecord.count + 11)
  }

  /// Two MiB of records whose first count was corrupted into a huge one: the reader reaches the
  /// end of the file at once and names the record's line.
  @Test func aCountRunningFarPastTheEndRefusesTheFileWithItsLine() throws {
    let epoch = Array(Support.epochText(centiseconds: 0).utf8)
    var file = Self.recording(records: Array(repeating: epoch, count: 2 << 20 / epoch.count))
    let header = RecordingFormat.header([("Serial", "9600 8N1")]).count
    let countStart = try #require(file[header...].firstIndex(of: UInt8(ascii: " "))) + 1
    file[countStart] = UInt8(ascii: "9")
    file.insert(contentsOf: Array("99999".utf8), at: countStart)
    let path = try Support.temporaryLog(file, name: "corrupt.rec")
    defer { Support.remove(path) }
    let expected = "\(path):3: the record's count 9"
    for open in [{ _ = try LogCheck(path: path) }, { _ = try ReplayReader(path: path) }] {
      let elapsed = Self.seconds {
        let error = #expect(throws: InputFileError.self) { try open() }
        #expect(error?.exitCode == 65)
        #expect(error?.description.hasPrefix(expected) == true, "\(String(describing: error))")
        #expect(
          error?.description.hasSuffix(
            "bytes past the end of the file, more than a recorder's read (65536 bytes) can leave missing: a corrupted count"
          ) == true)
        #expect(error?.description.contains("\n") == false)
      }
      #expect(elapsed < 30, "refusing took \(elapsed) s")
    }
  }

  /// The second record's count two bytes short leaves its CR where its line end belongs (one
  /// byte short would leave its LF there, which reads as a blank line and loses nothing). Its
  /// `@` line follows the first's, that body's lines and the empty line its closing LF makes.
  @Test func aCountNotEndingAtALineEndRefusesTheCheck() throws {
    let epoch = Array(Support.epochText(centiseconds: 0).utf8)
    var file = Self.recording(records: [epoch, epoch, epoch])
    let text = String(decoding: file, as: UTF8.self)
    let wrong = text.replacingOccurrences(
      of: "@1764540001.000000000 \(epoch.count)\n",
      with: "@1764540001.000000000 \(epoch.count - 2)\n")
    file = Array(wrong.utf8)
    let path = try Support.temporaryLog(file, name: "short.rec")
    defer { Support.remove(path) }
    let error = #expect(throws: InputFileError.self) { _ = try LogCheck(path: path) }
    #expect(
      error?.description
        == "\(path):\(4 + epoch.count { $0 == 0x0A } + 1): the record's \(epoch.count - 2) bytes "
        + "are not followed by a line end: a corrupted count")
  }
}
