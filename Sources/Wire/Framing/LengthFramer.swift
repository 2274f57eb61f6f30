import NMEA
import UBX

/// Reads a binary frame whose header gives its length: UBX, SiRF (and SkyTraq, which shares
/// its lead byte), RTCM 3, Zodiac, GREIS, GeoStar, Navcom and SuperStar II, checking the sync
/// bytes, the length and the checksum as gpsd's lexer does.
///
/// The framer keeps no state besides the frame itself.
struct LengthFramer: Sendable {
  enum Family: Sendable {
    case ubx, sirf, rtcm3, zodiac, geostar, navcom, superstar2
    /// A GREIS message: two ASCII id bytes; `~~` starts an epoch, and after a GREIS message
    /// any ASCII byte starts the next.
    case greis
    /// A GREIS reply, `RE…`, which can start a GREIS stream.
    case greisReply

    /// The family whose frames start with `byte`, or nil.
    init?(first byte: UInt8) {
      switch byte {
      case 0xB5: self = .ubx
      case 0xA0: self = .sirf
      case 0xD3: self = .rtcm3
      case 0xFF: self = .zodiac
      case UInt8(ascii: "~"): self = .greis
      case UInt8(ascii: "R"): self = .greisReply
      case UInt8(ascii: "P"): self = .geostar
      case 0x02: self = .navcom
      case 0x01: self = .superstar2
      default: return nil
      }
    }

    /// The bytes up to and including the length field.
    var headerLength: Int {
      switch self {
      case .ubx, .navcom: return 6
      case .sirf, .superstar2: return 4
      case .rtcm3: return 3
      case .zodiac: return 10
      case .greis, .greisReply: return 5
      case .geostar: return 8
      }
    }
  }

  let family: Family

  init(_ family: Family) { self.family = family }

  func step(_ frame: [UInt8]) -> FrameStep {
    let count = frame.count
    if count <= family.headerLength {
      guard accepts(frame[count - 1], at: count - 1, in: frame) else { return .notAFrame }
      if count < family.headerLength { return .more }
    }
    guard let total = totalLength(frame) else { return .notAFrame }
    return count < total ? .more : verify(frame)
  }

  /// Whether the header byte at `index` can be what it is.
  private func accepts(_ byte: UInt8, at index: Int, in frame: [UInt8]) -> Bool {
    switch (family, index) {
    case (.ubx, 1): return byte == 0x62
    case (.sirf, 1): return byte == 0xA2 || byte == 0xA1
    case (.rtcm3, 1): return byte & 0xFC == 0
    case (.zodiac, 1): return byte == 0x81
    case (.greis, 1): return byte < 0x80
    case (.greisReply, 1): return byte == UInt8(ascii: "E")
    case (.greis, 2...4), (.greisReply, 2...4): return NMEALineCheck.hexValue(byte) != nil
    case (.geostar, 1): return byte == UInt8(ascii: "S")
    case (.geostar, 2), (.geostar, 3): return byte == UInt8(ascii: "G")
    case (.navcom, 1): return byte == 0x99
    case (.navcom, 2): return byte == 0x66
    case (.navcom, 4): return byte >= 4
    case (.superstar2, 2): return byte == frame[1] ^ 0xFF
    default: return true
    }
  }

  /// The whole frame's length once the header is read, or nil for a header no receiver sends.
  private func totalLength(_ frame: [UInt8]) -> Int? {
    let length: Int
    switch family {
    case .ubx:
      length = 8 + Int(Checksums.word(frame, 4))
    case .sirf where frame[1] == 0xA2:
      length = 8 + (Int(frame[2] & 0x7F) << 8 | Int(frame[3]))
    case .sirf:
      let payload = Checksums.bigEndianWord(frame, 2)
      guard payload > 0 else { return nil }
      length = 7 + payload
    case .rtcm3:
      length = 6 + (Int(frame[1] & 3) << 8 | Int(frame[2]))
    case .zodiac:
      var sum: UInt16 = 0
      for word in 0..<4 { sum &+= Checksums.word(frame, 2 * word) }
      guard 0 &- sum == Checksums.word(frame, 8) else { return nil }
      let words = Int(Checksums.word(frame, 4))
      length = words == 0 ? 10 : 12 + 2 * words
    case .greis, .greisReply:
      let digits = frame[2...4].map { Int(NMEALineCheck.hexValue($0) ?? 0) }
      let payload = digits[0] << 8 | digits[1] << 4 | digits[2]
      guard payload > 0 else { return nil }
      length = 5 + payload
    case .geostar:
      length = 12 + 4 * (Int(frame[6]) | Int(frame[7]) << 8)
    case .navcom:
      length = 4 + Int(Checksums.word(frame, 4))
    case .superstar2:
      length = 6 + Int(frame[3])
    }
    return length <= maximumFrameLength + 16 ? length : nil
  }

  /// The verdict on a complete frame.
  private func verify(_ frame: [UInt8]) -> FrameStep {
    let count = frame.count
    switch family {
    case .ubx:
      let sum = UBXChecksum(over: frame[2..<(count - 2)])
      return .done(
        .ubx, sum.a == frame[count - 2] && sum.b == frame[count - 1] ? nil : .badChecksum)
    case .sirf where frame[1] == 0xA2:
      guard frame[count - 2] == 0xB0, frame[count - 1] == 0xB3 else { return .notAFrame }
      let sum = frame[4..<(count - 4)].reduce(0) { $0 + Int($1) } & 0x7FFF
      return .done(.sirf, sum == Checksums.bigEndianWord(frame, count - 4) ? nil : .badChecksum)
    case .sirf:
      guard frame[count - 2] == 0x0D, frame[count - 1] == 0x0A else { return .notAFrame }
      let sum = Checksum.of(frame[4..<(count - 3)])
      return .done(.otherBinary, sum == frame[count - 3] ? nil : .badChecksum)
    case .rtcm3:
      let crc =
        UInt32(frame[count - 3]) << 16 | UInt32(frame[count - 2]) << 8
        | UInt32(frame[count - 1])
      return .done(.rtcm3, Checksums.crc24q(frame[..<(count - 3)]) == crc ? nil : .badChecksum)
    case .zodiac:
      guard count > 10 else { return .done(.zodiac, nil) }
      var sum: UInt16 = 0
      for offset in stride(from: 10, to: count - 2, by: 2) { sum &+= Checksums.word(frame, offset) }
      return .done(.zodiac, 0 &- sum == Checksums.word(frame, count - 2) ? nil : .badChecksum)
    case .greis, .greisReply:
      if frame.starts(with: "RE".utf8) || frame.starts(with: "ER".utf8) {
        return .done(.greis, nil)
      }
      let sum = Checksums.greis(frame[..<(count - 1)])
      return .done(.greis, sum == frame[count - 1] ? nil : .badChecksum)
    case .geostar:
      var sum: UInt32 = 0
      for offset in stride(from: 0, to: count, by: 4) {
        sum ^=
          UInt32(Checksums.word(frame, offset)) | UInt32(Checksums.word(frame, offset + 2)) << 16
      }
      return .done(.otherBinary, sum == 0 ? nil : .badChecksum)
    case .navcom:
      guard frame[count - 1] == 0x03 else { return .notAFrame }
      let sum = Checksum.of(frame[3..<(count - 2)])
      return .done(.navcom, sum == frame[count - 2] ? nil : .badChecksum)
    case .superstar2:
      let sum = frame[..<(count - 2)].reduce(0) { $0 + Int($1) } & 0xFFFF
      return .done(.otherBinary, sum == Int(Checksums.word(frame, count - 2)) ? nil : .badChecksum)
    }
  }
}
