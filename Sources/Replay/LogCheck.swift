import InputFiles
import Wire

/// What `mockgps check` finds in a log: its packets counted by kind, its headers, and a warning
/// naming the line of every packet with a problem. A log with problems is still replayable (they
/// are sent as recorded); only a log with nothing to replay is refused, by the same rules as
/// `ReplayReader`.
///
/// The file is read in chunks, as a replay reads it: memory stays constant whatever its size.
/// In a mockgps recording, the records' bytes are split as one stream; their packets are counted
/// but get no warnings (a record holds whatever one read returned, cut anywhere).
public struct LogCheck: Sendable {
  /// The file as named.
  public let path: String
  /// The headers of the log (`# Serial:`, `# Transport:`, …), and whether it is a recording.
  public private(set) var header = LogHeader()
  /// The packets of the log by kind (comments and garbage included).
  public private(set) var packetsByKind: [LogPacket.Kind: Int] = [:]
  /// The packets with a problem, by problem.
  public private(set) var problems: [LogPacket.Problem: Int] = [:]
  /// The `@` records of a recording.
  public private(set) var records = 0
  /// The lines of a recording that are no record where one was expected, or a record cut short.
  public private(set) var malformedRecords = 0
  /// Empty lines (CR and LF only between packets): not counted as garbage, nor warned about.
  public private(set) var blankLines = 0
  /// The first `InputFileError.diagnosticLimit` problems, in file order, one line each.
  public private(set) var warnings: [InputDiagnostic] = []
  /// The problems found beyond those in `warnings`.
  public private(set) var unreportedWarnings = 0

  /// Reads the whole log at `path`.
  ///
  /// - Throws: `.unreadable` (exit 66) for a missing or unreadable file, `.invalid` (exit 65)
  ///   when it holds nothing to replay or is a recording with a corrupted count.
  public init(path: String) throws(InputFileError) {
    self.path = path
    let stream = try LogFileStream(path: path)
    let (layout, _) = try ReplayLogLayout.scan(stream)
    try stream.seek(to: 0)
    if case .recording = layout {
      try readRecording(stream)
    } else {
      try readPackets(stream)
    }
  }

  /// The extensions of log files: a file named so is checked as a log whatever it holds.
  public static let logExtensions: Set<String> = ["log", "nmea", "ubx", "sirf", "tsip", "rec"]

  /// True when `path` ends in one of `logExtensions` (in any case).
  public static func hasLogExtension(_ path: String) -> Bool {
    let name = path.split(separator: "/").last ?? ""
    guard let dot = name.lastIndex(of: ".") else { return false }
    return logExtensions.contains(name[dot...].dropFirst().lowercased())
  }

  /// True when the file at `path` starts as a log (see `looksLikeLog(prefix:)`); false for a
  /// file that cannot be read.
  public static func startsAsLog(path: String) -> Bool {
    guard let stream = try? LogFileStream(path: path), let prefix = try? stream.read() else {
      return false
    }
    return looksLikeLog(prefix: prefix)
  }

  /// True for bytes that start as a log: a mockgps recording, an NMEA or AIS sentence (`$`,
  /// `!`), a gpsd test log's `#` header, or a UBX or SiRF frame. No route, scenario or almanac
  /// starts so.
  public static func looksLikeLog(prefix: some Collection<UInt8>) -> Bool {
    if RecordingFormat.isRecording(prefix: prefix) { return true }
    let start = Array(prefix.prefix(2))
    switch start.first {
    case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "#"): return true
    default: return start == [0xB5, 0x62] || start == [0xA0, 0xA2]
    }
  }

  /// The packets of the log's own kinds: all but comments and garbage.
  public var dataPackets: Int {
    packetsByKind.reduce(0) { $0 + ($1.key == .comment || $1.key == .garbage ? 0 : $1.value) }
  }

  private mutating func readPackets(_ stream: LogFileStream) throws(InputFileError) {
    var splitter = LogPacketSplitter()
    while let chunk = try stream.read() {
      for packet in splitter.packets(from: chunk) { take(packet, warn: true) }
    }
    for packet in splitter.finish() { take(packet, warn: true) }
  }

  private mutating func readRecording(_ stream: LogFileStream) throws(InputFileError) {
    var parser = RecordingParser()
    var splitter = LogPacketSplitter()
    var corrupt: InputDiagnostic?
    func take(_ items: [RecordingParser.Item], into check: inout LogCheck) {
      for item in items {
        switch item {
        case .corruptCount(let line, let reason):
          corrupt = corrupt ?? InputDiagnostic(InputLocation(file: check.path, line: line), reason)
        case .header(let text, let line):
          check.readHeader(Array(text.utf8)[...], line: line)
        case .malformed(let line, let reason):
          check.malformedRecords += 1
          check.warn(reason, line: line)
        case .chunk(let chunk):
          check.records += 1
          for packet in splitter.packets(from: chunk.bytes) { check.take(packet, warn: false) }
        }
      }
    }
    while let chunk = try stream.read() {
      take(parser.items(from: chunk), into: &self)
      if let corrupt { throw .invalid([corrupt]) }
    }
    take(parser.finish(), into: &self)
    if let corrupt { throw .invalid([corrupt]) }
    for packet in splitter.finish() { self.take(packet, warn: false) }
  }

  private mutating func take(_ packet: LogPacket, warn: Bool) {
    if packet.kind == .garbage, packet.problem == .garbage,
      packet.bytes.allSatisfy({ $0 == 0x0A || $0 == 0x0D })
    {
      blankLines += packet.bytes.count { $0 == 0x0A }
      return
    }
    packetsByKind[packet.kind, default: 0] += 1
    if packet.kind == .comment { readHeader(packet.bytes, line: packet.line) }
    guard let problem = packet.problem else { return }
    problems[problem, default: 0] += 1
    if warn { self.warn(Self.message(for: packet, problem: problem), line: packet.line) }
  }

  private mutating func readHeader(_ bytes: ArraySlice<UInt8>, line: Int) {
    if let wrong = header.read(comment: bytes) { warn(wrong, line: line) }
  }

  private mutating func warn(_ message: String, line: Int) {
    guard warnings.count < InputFileError.diagnosticLimit else {
      unreportedWarnings += 1
      return
    }
    warnings.append(InputDiagnostic(InputLocation(file: path, line: line), message))
  }

  /// `bad checksum in $GPGGA sentence`, `truncated UBX frame`, `37 bytes of garbage`.
  static func message(for packet: LogPacket, problem: LogPacket.Problem) -> String {
    switch problem {
    case .badChecksum: return "bad checksum in \(name(of: packet))"
    case .truncated: return "truncated \(name(of: packet))"
    case .controlCharacter: return "control character in \(name(of: packet))"
    case .tooLong: return "line too long (\(packet.bytes.count) bytes)"
    case .garbage:
      return "\(packet.bytes.count) byte\(packet.bytes.count == 1 ? "" : "s") of garbage"
    }
  }

  /// `$GPGGA sentence`, `UBX frame`, `comment`.
  static func name(of packet: LogPacket) -> String {
    switch packet.kind {
    case .nmea:
      let tag = packet.bytes.prefix(while: { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "*") })
        .prefix(while: { (0x21...0x7E).contains($0) }).prefix(12)
      return "\(String(decoding: tag, as: UTF8.self)) sentence"
    case .comment: return "comment"
    case .garbage: return "data"
    default: return "\(kindName(packet.kind)) frame"
    }
  }

  /// What a kind is called in a summary: `NMEA`, `UBX`, `SiRF`.
  public static func kindName(_ kind: LogPacket.Kind) -> String {
    switch kind {
    case .nmea: return "NMEA"
    case .comment: return "comment"
    case .ubx: return "UBX"
    case .sirf: return "SiRF"
    case .tsip: return "TSIP"
    case .zodiac: return "Zodiac"
    case .greis: return "GREIS"
    case .rtcm3: return "RTCM 3"
    case .rtcm2: return "RTCM 2"
    case .garmin: return "Garmin"
    case .navcom: return "Navcom"
    case .oncore: return "Oncore"
    case .otherBinary: return "other binary"
    case .garbage: return "garbage"
    }
  }
}
