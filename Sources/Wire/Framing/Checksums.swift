/// The checksums of the binary protocols, as their receivers compute them.
enum Checksums {
  /// The NMEA checksum: XOR of the bytes between `$` and `*`.
  static func xor(_ bytes: some Sequence<UInt8>) -> UInt8 { bytes.reduce(0, ^) }

  /// UBX's 8-bit Fletcher checksum over class, id, length and payload.
  static func fletcher(_ bytes: ArraySlice<UInt8>) -> (UInt8, UInt8) {
    var a: UInt8 = 0
    var b: UInt8 = 0
    for byte in bytes {
      a &+= byte
      b &+= a
    }
    return (a, b)
  }

  /// RTCM 3's CRC-24Q (polynomial 0x1864CFB).
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
