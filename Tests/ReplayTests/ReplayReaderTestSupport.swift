import Foundation
import NMEA

@testable import Replay

/// Logs written to a temporary directory for the reader's tests, and helpers to read them back.
enum ReplayReaderTestSupport {
  /// Writes `bytes` to a new temporary file and returns its path; the caller removes it.
  static func temporaryLog(_ bytes: [UInt8], name: String = "log.nmea") throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "mockgps-replay-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  /// Removes a file written by `temporaryLog` and its directory.
  static func remove(_ path: String) {
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
  }

  /// Every epoch of a reader, up to `limit` (a looping reader never ends).
  static func epochs(of reader: ReplayReader, limit: Int = 1_000_000) throws -> [ReplayEpoch] {
    var epochs: [ReplayEpoch] = []
    while epochs.count < limit, let epoch = try reader.next() { epochs.append(epoch) }
    return epochs
  }

  /// A sentence with its checksum and CR LF.
  static func sentence(_ body: String) -> String {
    "$\(body)*\(Checksum.hex(Checksum.of(Array(body.utf8))))\r\n"
  }

  /// `hhmmss.ss` for a number of centiseconds of the day.
  static func timeField(centiseconds: Int) -> String {
    let value = centiseconds % 8_640_000
    let two = { (number: Int) in number < 10 ? "0\(number)" : "\(number)" }
    return two(value / 360_000) + two(value / 6000 % 60) + two(value / 100 % 60) + "."
      + two(value % 100)
  }

  /// One epoch of a receiver: GGA, GSA and RMC at `centiseconds` of the day.
  static func epochText(centiseconds: Int, date: String = "") -> String {
    let time = timeField(centiseconds: centiseconds)
    return sentence("GPGGA,\(time),5155.55442,N,00434.65873,E,1,06,2.51,-4.0,M,46.0,M,,")
      + sentence("GPGSA,A,3,27,15,09,28,18,08,,,,,,,3.33,2.51,2.20")
      + sentence("GPRMC,\(time),A,5155.55442,N,00434.65873,E,0.211,,\(date),,,A")
  }

  /// The log's timed sentences' times (RMC, GGA, GNS, GBS, GLL with a good checksum), in
  /// nanoseconds of the day rounded to the millisecond, each change once, read with the NMEA
  /// module's parser.
  static func distinctTimes(of url: URL) throws -> [Int64] {
    let fieldOfTime = ["RMC": 0, "GGA": 0, "GNS": 0, "GBS": 0, "GLL": 4]
    var times: [Int64] = []
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("$") {
      guard let sentence = try? RawSentence(parsing: line), sentence.talker != "P",
        let index = fieldOfTime[sentence.type], index < sentence.fields.count,
        let time = NMEATime(sentence.fields[index])
      else { continue }
      let nanoseconds = Int64((time.secondsOfDay * 1000).rounded()) * 1_000_000
      if times.last != nanoseconds { times.append(nanoseconds) }
    }
    return times
  }
}
