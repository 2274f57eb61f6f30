import InputFiles
import Wire

/// What a log is, found at open by reading it only as far as needed: up to its first replayable
/// packet, and to the end of the chunk that holds it to learn how its epochs are timed.
enum ReplayLogLayout: Sendable {
  /// Packets grouped into epochs by their times; `bestSource` is the best kind of time seen in
  /// the look ahead, if any.
  case packets(bestSource: LogTime.Source?)
  /// A mockgps recording: one epoch per record, at its arrival time.
  case recording
  /// A gpsd test log with `# Delay-Cookie:`: the data from byte `dataStart` on is cut at each
  /// delimiter.
  case delayCookie(LogHeader.DelayCookie, dataStart: Int)

  /// The message of a log that holds nothing to replay.
  static let nothingToReplay =
    "nothing to replay: no NMEA sentence, binary frame or recording found"

  /// Bytes that are neither packets nor white space that make a log replayable without any
  /// packet: the data of a protocol the splitter does not frame (RTCM 2's 6-of-8 stream, an
  /// NTRIP caster's answer), replayed as recorded for a client that may frame it. Below this,
  /// a few stray bytes do not make a log.
  static let unframedDataThreshold = 64

  /// Reads the start of `stream` and returns what the log is and the headers read on the way;
  /// leaves the stream anywhere (the caller goes back to the start).
  ///
  /// - Throws: `.invalid` (exit 65) when the log holds nothing to replay or a recording's count
  ///   before its first record is corrupted, `.unreadable` when it cannot be read.
  static func scan(_ stream: LogFileStream) throws(InputFileError) -> (Self, LogHeader) {
    var header = LogHeader()
    guard let first = try stream.read() else { throw nothing(stream.path) }
    if RecordingFormat.isRecording(prefix: first) {
      var parser = RecordingParser()
      var chunk: ArraySlice<UInt8>? = first
      while let bytes = chunk {
        for item in parser.items(from: bytes) {
          if case .header(let text, _) = item { _ = header.read(comment: Array(text.utf8)) }
          if case .corruptCount(let line, let reason) = item {
            throw .invalid([InputDiagnostic(InputLocation(file: stream.path, line: line), reason)])
          }
          if case .chunk = item { return (.recording, header) }
        }
        chunk = try stream.read()
      }
      let last = parser.finish()
      for case .corruptCount(let line, let reason) in last {
        throw .invalid([InputDiagnostic(InputLocation(file: stream.path, line: line), reason)])
      }
      if last.contains(where: { if case .chunk = $0 { true } else { false } }) {
        return (.recording, header)
      }
      throw nothing(stream.path)
    }
    var splitter = LogPacketSplitter()
    var dataStart: Int?
    var position = 0
    var found = false
    var unframedBytes = 0
    var bestSource: LogTime.Source?
    func inspect(_ packet: LogPacket) {
      if packet.kind == .comment {
        _ = header.read(comment: packet.bytes)
      } else {
        if dataStart == nil { dataStart = position }
        if packet.kind != .garbage { found = true }
        if packet.kind == .garbage {
          unframedBytes += packet.bytes.count { ![0x20, 0x09, 0x0D, 0x0A].contains($0) }
          if unframedBytes >= unframedDataThreshold { found = true }
        }
      }
      position += packet.bytes.count
      if let source = LogTime.of(packet)?.source { bestSource = max(bestSource ?? source, source) }
    }
    var chunk: ArraySlice<UInt8>? = first
    while let bytes = chunk {
      for packet in splitter.packets(from: bytes) {
        inspect(packet)
      }
      if found { break }
      chunk = try stream.read()
      if chunk == nil { splitter.finish().forEach(inspect) }
    }
    guard found else { throw nothing(stream.path) }
    if let cookie = header.delayCookie, let dataStart {
      return (.delayCookie(cookie, dataStart: dataStart), header)
    }
    return (.packets(bestSource: bestSource), header)
  }

  private static func nothing(_ path: String) -> InputFileError {
    .invalid([InputDiagnostic(InputLocation(file: path), nothingToReplay)])
  }
}
