import Foundation
import Geodesy
import Simulation
import TestFixtures
import Wire

@testable import Passthrough

/// Feeding corpus logs through a `PassthroughRewriter`, and decoding what comes out with the
/// independent decoders (pyubx2, pynmeagps).
enum PassthroughHarness {
  /// When the test data arrive.
  static let now = UTCInstant(nanosecondsSinceEpoch: 1_700_000_000 * 1_000_000_000)
  /// Far from every corpus log: any position left unrewritten is thousands of km off.
  static let sydney = GeodeticPosition(known: -33.8568, 151.2153, altitudeMeters: 58)

  /// The bytes of a corpus log.
  static func log(_ name: String) throws -> [UInt8] {
    try Array(Data(contentsOf: Fixtures.gpsdLog(name)))
  }

  /// Everything a rewriter gives back for `bytes` fed in chunks of the given sizes (cycled),
  /// then its statistics.
  static func forward(
    _ bytes: [UInt8], _ override: PositionOverride, chunkSizes: [Int] = [4096]
  ) -> (output: [UInt8], statistics: PassthroughStatistics) {
    var rewriter = PassthroughRewriter(override: override)
    var output: [UInt8] = []
    var start = 0
    var turn = 0
    while start < bytes.count {
      let end = min(bytes.count, start + chunkSizes[turn % chunkSizes.count])
      output += rewriter.forward(bytes[start..<end], at: now)
      start = end
      turn += 1
    }
    return (output, rewriter.statistics)
  }

  /// The messages the oracle decodes from a stream.
  static func decoded(_ bytes: [UInt8]) throws -> (errors: Int, messages: [[String: Any]]) {
    let object = try PythonTool.json("passthrough_oracle.py", input: Data(bytes))
    return (object["errors"] as? Int ?? -1, object["messages"] as? [[String: Any]] ?? [])
  }

  /// False for a decoded message that says it has no fix (GGA quality 0, RMC/GLL status V,
  /// VTG/GNS mode N, fixType or gpsFix 0).
  static func hasFix(_ message: [String: Any]) -> Bool {
    if let quality = message["quality"] as? Double, quality == 0 { return false }
    if let status = message["status"] as? String, status == "V" { return false }
    if let mode = message["mode"] as? String, !mode.isEmpty, mode.allSatisfy({ $0 == "N" }) {
      return false
    }
    for key in ["fixType", "gpsFix"] {
      if let fix = message[key] as? Double, fix == 0 { return false }
    }
    return true
  }

  /// The latitude and longitude a decoded message gives, from lat/lon or ECEF; nil when it has
  /// none (no fix, empty fields).
  static func position(of message: [String: Any]) -> GeodeticPosition? {
    guard hasFix(message) else { return nil }
    if let lat = message["lat"] as? Double, let lon = message["lon"] as? Double,
      lat != 0 || lon != 0
    {
      return GeodeticPosition(known: lat, lon)
    }
    if let x = message["ecefX"] as? Double, let y = message["ecefY"] as? Double,
      let z = message["ecefZ"] as? Double,
      let point = EarthCenteredConversion.geodetic(x: x, y: y, z: z)
    {
      return GeodeticPosition(known: point.latitude, point.longitude)
    }
    return nil
  }

  /// Meters between two positions.
  static func distance(_ a: GeodeticPosition, _ b: GeodeticPosition) -> Double {
    Geodesic.wgs84.inverse(from: a, to: b).distanceMeters
  }

  /// The packets of a stream, as gpsd's lexer frames them.
  static func packets(_ bytes: [UInt8]) -> [LogPacket] {
    var splitter = LogPacketSplitter()
    return splitter.packets(from: bytes) + splitter.finish()
  }

  /// True for a packet that an override may change.
  static func mayChange(_ packet: LogPacket) -> Bool {
    switch packet.kind {
    case .nmea: return NMEAOverride.carriesPosition(Array(packet.bytes))
    case .ubx:
      return packet.bytes.count > 3 && packet.bytes[2] == 0x01
        && (UBXOverride.positionIDs.contains(packet.bytes[3])
          || UBXOverride.velocityIDs.contains(packet.bytes[3]))
    default: return false
    }
  }
}
