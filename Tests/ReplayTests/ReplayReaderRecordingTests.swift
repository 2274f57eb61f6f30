import Foundation
import InputFiles
import TestFixtures
import Testing

@testable import Replay

/// The reader on mockgps recordings: one epoch per record, at its arrival time.
@Suite(.blocking) struct ReplayReaderRecordingTests {
  typealias Support = ReplayReaderTestSupport

  static let start: Int64 = 1_764_540_000_123_456_789
  static let chunks: [(Int64, [UInt8])] = [
    (
      start,
      Array(Support.sentence("GPGGA,120000.00,5155.55442,N,00434.65873,E,1,06,,,M,,M,,").utf8)
    ),
    (start + 40_000_000, Array("$GPRMC,120000.00,A,51".utf8)),
    (start + 41_500_000, Array("55.55442,N*00\r\n".utf8)),
    (start + 1_000_000_000, [0xB5, 0x62, 0x01, 0x02, 0x00, 0x00, 0x03, 0x0A]),
  ]

  static func recording(_ chunks: [(Int64, [UInt8])]) -> [UInt8] {
    var file = RecordingFormat.header([("Device", "/dev/ttyUSB0"), ("Serial", "9600 8N1")])
    for (time, bytes) in chunks {
      file += RecordingFormat.record(arrivalNanoseconds: time, bytes: bytes)
    }
    return file
  }

  @Test func aRecordingReadsBackAsItsChunksAtTheirArrivalTimes() throws {
    let path = try Support.temporaryLog(Self.recording(Self.chunks), name: "rec.mockgps")
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path)
    let epochs = try Support.epochs(of: reader)
    #expect(epochs.map(\.bytes) == Self.chunks.map(\.1))
    #expect(epochs.map(\.offsetNanoseconds) == Self.chunks.map { $0.0 - Self.start })
    #expect(epochs.allSatisfy { $0.arrivedTogether })
    #expect(reader.header.isRecording)
    #expect(reader.header.serial == LogHeader.Serial(baud: 9600))
    // A record is split into its packets; the pieces of the RMC that two reads cut apart are
    // no problem of the receiver's.
    #expect(epochs.map { $0.packets.map(\.kind) } == [[.nmea], [.nmea], [.garbage], [.ubx]])
    #expect(epochs.allSatisfy { $0.packets.allSatisfy { $0.problem == nil } })
  }

  @Test func underTimeNowASentenceCutBetweenTwoReadsGoesOutWholeAndRewritten() throws {
    let rmc = Array(
      Support.sentence("GPRMC,120001.00,A,5155.55442,N,00434.65873,E,0.211,,150324,,,A").utf8)
    let chunks: [(Int64, [UInt8])] = [
      (
        Self.start,
        Array(
          Support.sentence("GPRMC,120000.00,A,5155.55442,N,00434.65873,E,0.211,,150324,,,A").utf8)
      ),
      (Self.start + 1_000_000_000, Array(rmc.prefix(20))),
      (Self.start + 1_001_500_000, Array(rmc.dropFirst(20))),
    ]
    let path = try Support.temporaryLog(Self.recording(chunks), name: "rec.mockgps")
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    reader.begin(liveStartNanoseconds: Self.start + 86_400_000_000_000)
    let epochs = try Support.epochs(of: reader)
    let sentences = epochs.flatMap(\.packets).filter { $0.kind == .nmea }
    #expect(sentences.count == 2)
    // Both whole, both a day later: 16 March.
    #expect(sentences.allSatisfy { String(decoding: $0.bytes, as: UTF8.self).contains(",160324,") })
    #expect(epochs.flatMap(\.bytes).count == chunks.reduce(0) { $0 + $1.1.count })
  }

  @Test func aMalformedRecordIsCountedAndSkipped() throws {
    var file = Self.recording(Array(Self.chunks.prefix(2)))
    file += Array("this is no record\n".utf8)
    file += RecordingFormat.record(arrivalNanoseconds: Self.start + 2_000_000_000, bytes: [0x41])
    let path = try Support.temporaryLog(file, name: "rec.mockgps")
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path)
    let epochs = try Support.epochs(of: reader)
    #expect(epochs.map(\.offsetNanoseconds) == [0, 40_000_000, 2_000_000_000])
    #expect(reader.statistics.problems == [.garbage: 1])
  }

  @Test func aLoopedRecordingGoesOnOneGapLater() throws {
    let path = try Support.temporaryLog(Self.recording(Self.chunks), name: "rec.mockgps")
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(looping: true))
    let offsets = try Support.epochs(of: reader, limit: 8).map(\.offsetNanoseconds)
    let first = Self.chunks.map { $0.0 - Self.start }
    // The last gap is 958.5 ms.
    let second = first.map { $0 + first[3] + 958_500_000 }
    #expect(offsets == first + second)
  }

  @Test func aRecordingWithoutRecordsHasNothingToReplay() throws {
    let path = try Support.temporaryLog(Self.recording([]), name: "rec.mockgps")
    defer { Support.remove(path) }
    let error = #expect(throws: InputFileError.self) { try ReplayReader(path: path) }
    #expect(error?.exitCode == 65)
  }

  @Test func timeNowShiftsARecordingByItsArrivalTime() throws {
    let path = try Support.temporaryLog(Self.recording(Self.chunks), name: "rec.mockgps")
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    let live: Int64 = 1_800_000_000_000_000_000
    reader.begin(liveStartNanoseconds: live)
    _ = try reader.next()
    #expect(reader.rewriter.timeShiftNanoseconds == live - Self.start)
  }
}
