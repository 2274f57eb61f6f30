/// The BCH(15,11) code that protects BeiDou D1 and D2 words (BDS-SIS-ICD-B1I 3.0, 5.1.3):
/// systematic, generator g(x) = x⁴ + x + 1, four parity bits after eleven information bits.
public enum BeiDouBCH {
  /// The generator x⁴ + x + 1.
  static let generator: UInt32 = 0b1_0011

  /// The four parity bits of the eleven information bits `information` (the first sent the
  /// most significant): the remainder of the information times x⁴ divided by the generator.
  public static func parity(of information: UInt32) -> UInt32 {
    UInt32(parities[Int(information & 0x7FF)])
  }

  /// The parity of each of the 2,048 values of eleven bits, divided out once.
  static let parities: [UInt8] = (0..<2048).map { UInt8(remainder(of: UInt32($0))) }

  /// The remainder of `information` (eleven bits) times x⁴ divided by the generator.
  static func remainder(of information: UInt32) -> UInt32 {
    var remainder = (information & 0x7FF) << 4
    for degree in stride(from: 14, through: 4, by: -1) where remainder >> degree & 1 == 1 {
      remainder ^= generator << (degree - 4)
    }
    return remainder
  }

  /// The 30 bits of a word from its 22 information bits: the information, then the parity of
  /// its first eleven bits, then that of its last eleven (the two codewords de-interleaved, as
  /// RXM-SFRBX carries them).
  static func word(information: UInt32) -> UInt32 {
    let first = information >> 11 & 0x7FF
    let second = information & 0x7FF
    return (information & 0x3F_FFFF) << 8 | parity(of: first) << 4 | parity(of: second)
  }

  /// The 30 bits of a subframe's first word from its first 26 bits: the preamble and Rev (15
  /// bits, unprotected), then FraID and the SOW's 8 most significant bits (11 bits) and their
  /// parity.
  static func firstWord(leadingBits: UInt32) -> UInt32 {
    (leadingBits & 0x3FF_FFFF) << 4 | parity(of: leadingBits & 0x7FF)
  }
}
