import NMEA

/// Reads a Motorola Oncore frame: `@@`, two letters, a binary body, an XOR checksum, CR LF.
///
/// The body's length depends on the message; the frame ends at the first CR LF whose
/// checksum byte matches the bytes after `@@`.
struct OncoreFramer: Sendable {
  /// Longer than any Oncore message.
  static let maximumLength = 1024

  func step(_ frame: [UInt8]) -> FrameStep {
    let count = frame.count
    let byte = frame[count - 1]
    switch count {
    case 2: return byte == UInt8(ascii: "@") ? .more : .notAFrame
    case 3: return (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? .more : .notAFrame
    case 4: return isLetter(byte) ? .more : .notAFrame
    default: break
    }
    if count >= 7, byte == 0x0A, frame[count - 2] == 0x0D,
      Checksum.of(frame[2..<(count - 3)]) == frame[count - 3]
    {
      return .done(.oncore, nil)
    }
    return count >= Self.maximumLength ? .notAFrame : .more
  }

  private func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
  }
}
