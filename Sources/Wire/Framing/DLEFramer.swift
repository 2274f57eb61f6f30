/// Reads a DLE-framed packet: Trimble TSIP and Garmin binary (`DLE id … DLE ETX`, a DLE in the
/// body doubled) and EverMore (`DLE STX … DLE ETX`).
///
/// A Garmin packet is told from a TSIP one as gpsd does: its length byte and its checksum
/// (the bytes after the first DLE summing to zero) fit; any other packet is TSIP.
struct DLEFramer: Sendable {
  static let dle: UInt8 = 0x10
  static let stx: UInt8 = 0x02
  static let etx: UInt8 = 0x03

  private var afterDLE = false

  mutating func step(_ frame: [UInt8]) -> FrameStep {
    let byte = frame[frame.count - 1]
    if frame.count == 2 {
      return byte == Self.stx || byte >= 0x13 ? .more : .notAFrame
    }
    if afterDLE {
      afterDLE = false
      switch byte {
      case Self.dle: return .more
      case Self.etx: return .done(kind(frame), nil)
      default: return .notAFrame
      }
    }
    if byte == Self.dle { afterDLE = true }
    return frame.count > maximumFrameLength ? .notAFrame : .more
  }

  private func kind(_ frame: [UInt8]) -> LogPacket.Kind {
    if frame[1] == Self.stx { return .otherBinary }
    var body: [UInt8] = []
    var escaped = false
    for byte in frame[1..<(frame.count - 2)] {
      if byte == Self.dle && !escaped {
        escaped = true
        continue
      }
      escaped = false
      body.append(byte)
    }
    let isGarmin =
      body.count >= 3 && Int(body[1]) + 3 == body.count && body.reduce(0, &+) == 0
    return isGarmin ? .garmin : .tsip
  }
}
