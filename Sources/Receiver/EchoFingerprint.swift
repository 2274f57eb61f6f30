/// What the echo filter remembers of a sentence sent: a 64-bit FNV-1a hash of its text without
/// the line ending, 8 bytes instead of the sentence. A device remembers hundreds of sentences
/// (`ClientInput.echoMemory`), and a fleet thousands of devices: kept whole, they were most of
/// a fleet's memory. Two texts share a fingerprint with a chance of 2⁻⁶⁴; a client's command
/// that did would be taken for echo and ignored.
public enum EchoFingerprint {
  /// The fingerprint of a sentence's text (its bytes from `$` or `!` to the checksum).
  @inlinable
  public static func of(_ text: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return hash
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
