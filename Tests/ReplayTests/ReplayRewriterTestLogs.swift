import Foundation
import Geodesy
import Replay
import TestFixtures
import UBX
import Wire

/// Corpus logs cut into the packets the rewriter sees, and the Python oracle
/// (`Tests/Tools/rewrite_oracle.py`) that checks what it made of them.
enum ReplayRewriterTestLogs {
  /// The NMEA sentences (up to their LF) and checksummed UBX frames of a gpsd corpus log, in
  /// order; comments and other bytes are left out.
  static func packets(of name: String) throws -> [LogPacket] {
    let bytes = [UInt8](try Data(contentsOf: Fixtures.gpsdLog(name)))
    var packets: [LogPacket] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == 0xB5, let frame = try? UBXFrame(parsing: bytes[index...]) {
        let count = frame.payload.count + UBXFrame.overhead
        packets.append(LogPacket(kind: .ubx, bytes: Array(bytes[index..<(index + count)]), line: 0))
        index += count
      } else if bytes[index] == UInt8(ascii: "$"),
        let end = bytes[index...].firstIndex(of: 0x0A)
      {
        packets.append(LogPacket(kind: .nmea, bytes: Array(bytes[index...end]), line: 0))
        index = end + 1
      } else {
        index += 1
      }
    }
    return packets
  }

  /// A sentence as a packet.
  static func sentence(_ text: String) -> LogPacket {
    LogPacket(kind: .nmea, bytes: Array(text.utf8), line: 1)
  }

  /// What the oracle found: counts of checked fields, problems, and worst errors.
  struct Verdict {
    var counts: [String: Int]
    var problems: [String]
    var worst: [String: Double]
  }

  /// Runs the oracle on packets before and after rewriting.
  static func oracle(
    before: [LogPacket], after: [LogPacket], shiftNanoseconds: Int64,
    moveTo: GeodeticPosition? = nil, origin: GeodeticPosition? = nil
  ) throws -> Verdict {
    let pairs = zip(before, after).map {
      [$0.kind.rawValue, hex(Array($0.bytes)), hex(Array($1.bytes))]
    }
    let spec: [String: Any] = [
      "shiftNanoseconds": shiftNanoseconds,
      "moveTo": moveTo.map { [$0.latitude, $0.longitude] } ?? NSNull(),
      "origin": origin.map { [$0.latitude, $0.longitude] } ?? NSNull(),
      "pairs": pairs,
    ]
    let result = try PythonTool.json(
      "rewrite_oracle.py", input: JSONSerialization.data(withJSONObject: spec))
    return Verdict(
      counts: result["counts"] as? [String: Int] ?? [:],
      problems: result["problems"] as? [String] ?? ["no problems list"],
      worst: result["worst"] as? [String: Double] ?? [:])
  }

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map {
      String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
    }
    .joined()
  }
}
