import Testing

@testable import Receiver

/// The echo filter's fingerprint: the same text hashes the same from every shape the two sides
/// hold it in (a sent line, a client's text), and texts that differ in a byte or in length differ.
@Suite struct EchoFingerprintTests {
  @Test func theSameTextHashesTheSameInEveryShape() {
    for length in 0...40 {
      let text = String((0..<length).map { Character(UnicodeScalar(UInt8(65 + $0 % 26))) })
      let bytes = Array(text.utf8)
      let framed = [UInt8(ascii: "x")] + bytes + [0x0D, 0x0A]
      let expected = EchoFingerprint.of(bytes)
      #expect(EchoFingerprint.of(text.utf8) == expected, "\(length)")
      #expect(EchoFingerprint.of(framed[1..<(framed.count - 2)]) == expected, "\(length)")
      #expect(EchoFingerprint.of(AnySequence(bytes)) == expected, "\(length)")
      #expect(EchoFingerprint.of(text.utf8.dropFirst(0)) == expected, "\(length)")
    }
    let line = Array("$GPGGA,1*00\r\n".utf8)
    #expect(EchoFingerprint.ofSentence(line) == EchoFingerprint.of("$GPGGA,1*00".utf8))
  }

  /// One byte changed at any place, of any length up to 40, changes the fingerprint; so does a
  /// text made longer by zeros (the length is mixed in before the first word).
  @Test func textsDifferingInAByteOrInLengthDiffer() {
    for length in 1...40 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: 33 + $0 * 7) }
      for place in 0..<length {
        var changed = bytes
        changed[place] ^= 1
        #expect(EchoFingerprint.of(changed) != EchoFingerprint.of(bytes), "\(length) at \(place)")
      }
      #expect(EchoFingerprint.of(bytes + [0]) != EchoFingerprint.of(bytes), "\(length)")
    }
    #expect(EchoFingerprint.of([0x42]) != EchoFingerprint.of([0x41, 0x00]))
    let nine = Array("$ABCDEFGH".utf8)
    #expect(EchoFingerprint.of(nine) != EchoFingerprint.of([nine[0] ^ 3] + nine.dropFirst() + [0]))
  }
}
