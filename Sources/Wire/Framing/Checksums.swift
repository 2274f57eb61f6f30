/// The checksums of the binary protocols, as their receivers compute them; the XOR of NMEA
/// (and of SkyTraq, Navcom and Oncore) is NMEA's `Checksum.of`, UBX's Fletcher sum is
/// `UBXChecksum`.
enum Checksums {
  /// RTCM 3's CRC-24Q (polynomial 0x1864CFB), bit by bit: the RTCM module's table-driven one
  /// would bring the measurement engine it encodes for.
  static func crc24q(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0
    for byte in bytes {
      crc ^= UInt32(byte) << 16
      for _ in 0..<8 {
        crc <<= 1
        if crc & 0x100_0000 != 0 { crc ^= 0x186_4CFB }
      }
    }
    return crc & 0xFF_FFFF
  }

  /// Javad GREIS: rotate left by two bits, XOR the byte; rotate once more at the end.
  static func greis(_ bytes: ArraySlice<UInt8>) -> UInt8 {
    func rotated(_ value: UInt8) -> UInt8 { value << 2 | value >> 6 }
    return rotated(bytes.reduce(0) { rotated($0) ^ $1 })
  }

  /// A little-endian 16-bit word at `offset`.
  static func word(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
    UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
  }

  /// A big-endian 16-bit word at `offset`.
  static func bigEndianWord(_ bytes: [UInt8], _ offset: Int) -> Int {
    Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
  }
}
