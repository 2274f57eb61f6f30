/// CRC-24Q: polynomial 0x1864CFB, initial value 0, no reflection. RTCM 3 frames carry it over
/// their preamble, length and payload (RTCM 10403.3, 4.2), Galileo I/NAV page pairs over their
/// data (OS SIS ICD 2.0, 4.3.2.2); it lives here, below both.
public enum CRC24Q {
  /// The polynomial's low 24 bits (x²⁴ is implied).
  static let polynomial: UInt32 = 0x86_4CFB

  /// The remainder of each byte value shifted into the top of the register.
  static let table: [UInt32] = (0..<256).map { byte in
    var remainder = UInt32(byte) << 16
    for _ in 0..<8 {
      remainder <<= 1
      if remainder & 0x100_0000 != 0 { remainder ^= polynomial }
    }
    return remainder & 0xFF_FFFF
  }

  /// The CRC of `bytes`, in the low 24 bits (an array's bytes, as a frame holds them, without
  /// the generic sequence's cost across modules).
  public static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { checksum($0) }
  }

  /// The CRC of a slice of bytes, in the low 24 bits.
  public static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBufferPointer { checksum($0) }
  }

  /// The CRC of `bytes`, in the low 24 bits.
  public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0
    for byte in bytes {
      crc = ((crc << 8) & 0xFF_FFFF) ^ table[Int((crc >> 16) ^ UInt32(byte)) & 0xFF]
    }
    return crc
  }
}
