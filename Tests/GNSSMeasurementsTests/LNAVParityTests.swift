import Testing

@testable import GNSSMeasurements

/// The parity of LNAV words against the other way IS-GPS-200's parity is usually computed (as
/// RTKLIB's `decode_word` checks it): the previous word's D29* D30* above the 24 data bits,
/// ANDed with one mask per parity bit. The masks take the data as the satellite meant it: a
/// receiver first un-inverts the bits it received when D30* is set. D25-D28 sum an even number
/// of data bits and D29 and D30 an odd one, so only D29 and D30 tell inverted from meant data.
@Suite struct LNAVParityTests {
  /// The masks over D29* D30* d1…d24 (bits 31…6) of each parity bit D25…D30.
  static let masks: [UInt32] = [
    0xBB1F_3480, 0x5D8F_9A40, 0xAEC7_CD00, 0x5763_E680, 0x6BB1_F340, 0x8B7A_89C0,
  ]

  /// The parity of a word by the masks: the previous word's D29* D30* on top, then the data.
  static func maskedParity(data: UInt32, previous: UInt32) -> UInt32 {
    let word = (previous & 3) << 30 | (data & 0xFF_FFFF) << 6
    return masks.reduce(0) { parity, mask in parity << 1 | UInt32((word & mask).nonzeroBitCount & 1)
    }
  }

  @Test func everyWordOfEverySubframeHasTheParityTheMasksGive() {
    let ephemeris = BroadcastEphemerisTests.ephemeris(toe: 1_451_606_400)
    let message = LNAVMessage(ephemeris: ephemeris, ionosphere: .typical, leapSeconds: 18)
    var previous: UInt32 = 0
    for start in stride(from: 0.0, to: 60, by: 6) {
      let words = message.subframe(startingAt: 86_400 + start, week: 2400).words
      #expect(words.count == 10)
      for word in words {
        #expect(word >> 30 == 0)
        #expect(word & 0x3F == Self.maskedParity(data: word >> 6, previous: previous))
        previous = word
      }
      #expect(words[1] & 3 == 0, "word 2 ends in 00")
      #expect(words[9] & 3 == 0, "word 10 ends in 00")
    }
  }

  @Test func randomDataAfterEveryEndingAgreesWithTheMasks() {
    var state: UInt32 = 12345
    for _ in 0..<1000 {
      state = state &* 1_103_515_245 &+ 12345
      let data = state >> 8
      for previous: UInt32 in 0...3 {
        let parity = LNAVParity.bits(
          data: data, previousD29: previous & 2 != 0, previousD30: previous & 1 != 0)
        #expect(parity == Self.maskedParity(data: data, previous: previous))
      }
    }
  }

  @Test func theHeaderCarriesPreambleTimeOfWeekAndSubframeNumber() {
    let ephemeris = BroadcastEphemerisTests.ephemeris(toe: 1_451_606_400)
    let message = LNAVMessage(ephemeris: ephemeris, ionosphere: .typical, leapSeconds: 18)
    for (offset, number) in [(0.0, 1), (6, 2), (12, 3), (18, 4), (24, 5)] {
      let start = 86_400 + offset
      let words = message.subframe(startingAt: start, week: 2400).words
      #expect(words[0] >> 22 == 0x8B)
      #expect(words[1] >> 13 == UInt32(start / 6 + 1))
      #expect(words[1] >> 8 & 7 == UInt32(number))
    }
  }
}
