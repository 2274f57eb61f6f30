import Replay
import Wire

/// The line `mockgps check` prints for a log:
/// `NMEA log, 1234 sentences, 2 comments (3 with bad checksums), serial 4800 8N1; replayable`.
struct LogSummary {
  let text: String

  init(_ check: LogCheck) {
    let dataKinds = check.packetsByKind.filter { $0.key != .comment && $0.key != .garbage }
      .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }
    let names = dataKinds.map { LogCheck.kindName($0.key) }
    var title = names.isEmpty ? "log" : "\(names.joined(separator: " and ")) log"
    if check.header.isRecording {
      title =
        "mockgps recording of \(names.isEmpty ? "nothing" : names.joined(separator: " and "))"
        + ", \(Self.count(check.records, "record"))"
    }
    var parts = [title]
    for (kind, count) in dataKinds {
      let noun = kind == .nmea ? "sentence" : "frame"
      parts.append(
        Self.count(count, dataKinds.count > 1 ? "\(LogCheck.kindName(kind)) \(noun)" : noun))
    }
    if let comments = check.packetsByKind[.comment] {
      parts.append(Self.count(comments, "comment"))
    }
    if let garbage = check.packetsByKind[.garbage] {
      parts.append(Self.count(garbage, "run") + " of garbage")
    }
    let problems = Self.problems(check.problems)
    if !problems.isEmpty { parts[parts.count - 1] += " (\(problems))" }
    if check.malformedRecords > 0 {
      parts.append(Self.count(check.malformedRecords, "malformed record"))
    }
    if let serial = check.header.serial { parts.append("serial \(serial)") }
    if check.header.transport != .pty {
      parts.append("transport \(check.header.transport.rawValue)")
    }
    if check.header.delayCookie != nil { parts.append("delay cookie") }
    text = parts.joined(separator: ", ") + "; replayable"
  }

  /// `3 with bad checksums, 1 truncated` (garbage is counted as runs of garbage).
  static func problems(_ problems: [LogPacket.Problem: Int]) -> String {
    let order: [(LogPacket.Problem, String)] = [
      (.badChecksum, "with bad checksums"), (.truncated, "truncated"),
      (.controlCharacter, "with control characters"), (.tooLong, "too long"),
    ]
    return order.compactMap { problem, text in problems[problem].map { "\($0) \(text)" } }
      .joined(separator: ", ")
  }

  /// `1 sentence`, `2 sentences`.
  static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }
}
