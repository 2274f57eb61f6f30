import Wire

/// Frames of binary protocols other than UBX that carry a position mockgps does not rewrite:
/// they pass unchanged and are counted, so that an override that cannot hold is visible.
enum UnrewrittenPositionFrames {
  /// SiRF message IDs with a position: 2 (Measure Navigation Data Out, ECEF) and 41
  /// (Geodetic Navigation Data), as gpsd's `driver_sirf.c` decodes them.
  static let sirfIDs: Set<UInt8> = [2, 41]
  /// TSIP report IDs with a position: 0x42/0x83 (ECEF), 0x4A/0x84 (latitude, longitude,
  /// altitude), as gpsd's `driver_tsip.c` decodes them.
  static let tsipIDs: Set<UInt8> = [0x42, 0x4A, 0x83, 0x84]

  /// True for a whole, valid frame that carries a position.
  static func contains(_ packet: LogPacket) -> Bool {
    guard packet.problem == nil else { return false }
    switch packet.kind {
    case .sirf:
      return packet.bytes.count > 4 && sirfIDs.contains(packet.bytes[packet.bytes.startIndex + 4])
    case .tsip:
      return packet.bytes.count > 1 && tsipIDs.contains(packet.bytes[packet.bytes.startIndex + 1])
    default: return false
    }
  }
}
