import Foundation
import TestFixtures
import Testing
import Wire

/// The splitter against gpsd's own lexer (python3-gps `gps.packet`, as gpsfake reads a log) on
/// every log of gpsd's regression corpus.
///
/// gpsd's lexer drops what it cannot frame and the comments it does not return, so the test
/// compares the valid packets: same sequence of kinds and lengths. gpsd also returns frames
/// with a bad checksum (type -1, which gpsfake sends too); those are counted, and must be
/// packets with a problem in the splitter's output.
@Suite(.blocking) struct LogPacketSplitterCorpusTests {
  /// Logs whose packets differ from gpsd's, and why.
  static let exceptions: [String: String] = [
    "isync.log": "a sentence interrupted by another: gpsd's stash rebuilds it from two pieces, "
      + "the splitter keeps the bytes in order (a truncated sentence, then garbage)",
    "italk-binary.log": "iTalk is not framed by the splitter (garbage)",
    "naujoks-ntrip.log": "RTCM 2 is not framed by the splitter (garbage)",
    "naujoks-rtcm2.log": "RTCM 2 is not framed by the splitter (garbage)",
    "rtcm2.bend.log": "RTCM 2 is not framed by the splitter (garbage)",
    "rtcm2.log": "RTCM 2 is not framed by the splitter (garbage)",
    "neo-m8n.log": "comments end in CR LF: gpsd abandons a comment at its CR and lexes its text "
      + "again, finding the sentences a remark names",
    "quectel.log": "comments end in CR LF (as neo-m8n.log)",
    "quectelLC79D.log": "comments end in CR LF (as neo-m8n.log)",
  ]

  /// gpsd's packet type names (`gpsd_packets.py`) mapped to the splitter's kinds.
  static let kinds: [String: LogPacket.Kind] = [
    "nmea": .nmea, "aivdm": .nmea, "ubx": .ubx, "sirf": .sirf, "tsip": .tsip,
    "zodiac": .zodiac, "greis": .greis, "rtcm3": .rtcm3, "rtcm2": .rtcm2, "garmin": .garmin,
    "navcom": .navcom, "oncore": .oncore, "json": .otherBinary, "sky": .otherBinary,
    "superstar2": .otherBinary, "geostar": .otherBinary, "evermore": .otherBinary,
    "italk": .otherBinary,
  ]

  struct Packet: Equatable, CustomStringConvertible {
    var kind: LogPacket.Kind
    var length: Int
    var prefix: String
    var description: String { "\(kind) \(length) \(prefix)" }
  }

  /// What gpsd's lexer finds in each of `logs`, read by one Python process.
  static func gpsdPackets(_ logs: [URL]) throws -> [(valid: [Packet], bad: Int)] {
    let object = try PythonTool.json("gpsd_packets.py", arguments: logs.map(\.path))
    let each = object["logs"] as? [[String: Any]] ?? []
    try #require(
      each.count == logs.count, "gpsd_packets.py read \(each.count) of \(logs.count) logs")
    return each.map { gpsdPackets(rows: $0["packets"] as? [[Any]] ?? []) }
  }

  static func gpsdPackets(rows: [[Any]]) -> (valid: [Packet], bad: Int) {
    var valid: [Packet] = []
    var bad = 0
    for row in rows {
      guard let type = row[0] as? String, let length = row[1] as? Int,
        let prefix = row[2] as? String
      else { continue }
      if type == "-1" { bad += 1 }
      if let kind = kinds[type] { valid.append(Packet(kind: kind, length: length, prefix: prefix)) }
    }
    return (valid, bad)
  }

  static func split(_ bytes: [UInt8], chunk: Int) -> [LogPacket] {
    var splitter = LogPacketSplitter()
    var packets: [LogPacket] = []
    var start = 0
    while start < bytes.count {
      packets += splitter.packets(from: bytes[start..<min(bytes.count, start + chunk)])
      start += chunk
    }
    return packets + splitter.finish()
  }

  /// The splitter's valid packets, JSON lines trimmed of their line end as gpsd's lexer gives
  /// them.
  static func validPackets(_ packets: [LogPacket]) -> [Packet] {
    packets.filter { $0.isValid && gpsdFrames(Array($0.bytes)) }.map { packet in
      var bytes = packet.bytes
      if bytes.first == UInt8(ascii: "{") {
        while bytes.last == 0x0A || bytes.last == 0x0D { bytes.removeLast() }
      }
      let prefix = bytes.prefix(8).map { String(format: "%02x", $0) }.joined()
      return Packet(kind: packet.kind, length: bytes.count, prefix: prefix)
    }
  }

  /// gpsd's lexer drops sentences whose talker it does not know (`$SkyTraq`, `$HEHDT`,
  /// `$IMGSA`…); the splitter keeps them, since a receiver sent them.
  static func gpsdFrames(_ bytes: [UInt8]) -> Bool {
    guard bytes.first == UInt8(ascii: "$") || bytes.first == UInt8(ascii: "!") else { return true }
    let text = String(decoding: bytes.prefix(4), as: UTF8.self)
    let talkers: [(String, String?)] = [
      ("$G", "BPNLA"), ("$I", "IN"), ("$W", "I"), ("$H", "C"), ("$T", "I"), ("$E", "C"),
      ("$S", "DT"), ("$Y", "X"), ("$B", "D"), ("$Q", "Z"), ("$C", nil), ("$O", nil),
      ("$AI", nil), ("$Ack", nil), ("!A", "BDINRSTX"), ("!BS", nil), ("!SA", nil),
    ]
    let characters = Array(text)
    if text.hasPrefix("$P") { return characters.count > 2 && characters[2].isLetter }
    return talkers.contains { prefix, next in
      guard text.hasPrefix(prefix) else { return false }
      guard let next else { return true }
      return characters.count > prefix.count && next.contains(characters[prefix.count])
    }
  }

  @Test func validPacketsAreThoseOfGpsdsLexerOnEveryLog() throws {
    var logsCompared = 0
    var packetsCompared = 0
    var badFrames = 0
    var differing: [String] = []
    let logs = try Fixtures.gpsdLogs()
    for (log, gpsd) in zip(logs, try Self.gpsdPackets(logs)) {
      let bytes = try [UInt8](Data(contentsOf: log))
      let packets = Self.split(bytes, chunk: 4096)
      #expect(packets.flatMap(\.bytes) == bytes, "\(log.lastPathComponent): bytes lost")
      let mine = Self.validPackets(packets)
      let name = log.lastPathComponent
      logsCompared += 1
      badFrames += gpsd.bad
      if mine == gpsd.valid {
        packetsCompared += mine.count
        #expect(Self.exceptions[name] == nil, "\(name) now matches: remove its exception")
        continue
      }
      differing.append(name)
      let first =
        zip(mine, gpsd.valid).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(mine.count, gpsd.valid.count)
      let report =
        "\(name): \(mine.count) packets, gpsd \(gpsd.valid.count); first difference at \(first): "
        + "\(mine.dropFirst(first).prefix(3).map(\.description)) vs "
        + "\(gpsd.valid.dropFirst(first).prefix(3).map(\.description))"
      #expect(Self.exceptions[name] != nil, "\(report)")
    }
    print(
      "splitter vs gpsd: \(logsCompared) logs, \(packetsCompared) packets identical, "
        + "\(badFrames) bad frames from gpsd, differing: \(differing)")
  }
}
