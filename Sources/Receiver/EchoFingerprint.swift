/// What the echo filter remembers of a sentence sent: a 64-bit hash of its text without the
/// line ending, 8 bytes instead of the sentence. A device remembers hundreds of sentences
/// (`ClientInput.echoMemory`), and a fleet thousands of devices: kept whole, they were most of
/// a fleet's memory. The text is hashed eight bytes at a time (a multiply and a shift each),
/// as every sentence of every epoch is: a byte at a time (FNV-1a) was a twentieth of a 10 Hz
/// device's work. Two texts not made to collide share a fingerprint with a chance near 2⁻⁶⁴
/// (it is no cryptographic hash); a client's command that did would be taken for echo and
/// ignored.
public enum EchoFingerprint {
  /// The fingerprint of a sentence's text (its bytes from `$` or `!` to the checksum).
  @inlinable
  public static func of(_ text: some Sequence<UInt8>) -> UInt64 {
    if let hash = text.withContiguousStorageIfAvailable({ of(bytes: UnsafeRawBufferPointer($0)) }) {
      return hash
    }
    return Array(text).withUnsafeBytes(of(bytes:))
  }

  /// The fingerprint of `bytes`: each 8-byte word, then the bytes left as a little-endian
  /// number, mixed into the hash by a multiply by an odd constant and a shift, after the
  /// length.
  @usableFromInline
  static func of(bytes: UnsafeRawBufferPointer) -> UInt64 {
    let multiplier: UInt64 = 0x9e37_79b9_7f4a_7c15
    // The length mixed in before the first word, so that a text and a longer one ending in
    // zeros differ.
    var hash = (0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)) &* multiplier
    hash ^= hash >> 29
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
      hash = (hash ^ word) &* multiplier
      hash ^= hash >> 29
      offset += 8
    }
    // The bytes left, fewer than 8: the end of the last 8 bytes' word when there are 8.
    let left = bytes.count - offset
    var last: UInt64 = 0
    if left > 0 && bytes.count >= 8 {
      last =
        bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self).littleEndian
        >> UInt64(8 * (8 - left))
    } else {
      for (index, byte) in bytes[offset...].enumerated() { last |= UInt64(byte) << (8 * index) }
    }
    hash = (hash ^ last) &* multiplier
    return hash ^ hash >> 32
  }

  /// The fingerprint of a packet the chip sends when it is an NMEA sentence (its line ending
  /// left out), nil for anything else (a UBX frame is never taken for echo).
  @inlinable
  public static func ofSentence(_ packet: [UInt8]) -> UInt64? {
    guard let first = packet.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!")
    else { return nil }
    var end = packet.endIndex
    while end > packet.startIndex, packet[end - 1] == 0x0A || packet[end - 1] == 0x0D { end -= 1 }
    return of(packet[..<end])
  }
}
