import Simulation
import Testing

@testable import GNSSMeasurements

/// The I/NAV page pairs read back bit by bit, at the positions RTKLIB's `decode_enav` and
/// `decode_gal_inav` read them, with the CRC recomputed bit by bit.
@Suite struct GalileoINAVMessageTests {
  /// GPS week 2400, day 1, 00:00 (GST is GPS time): a two-hour mark, GST week 1376.
  static let toe = 1_451_606_400.0
  static let week = 1376
  /// The first subframe after toe: GST second of week 86,400.
  static let subframeStart = 86_400.0

  static let message = GalileoINAVMessage(
    ephemeris: BroadcastEphemeris(
      satellite: NominalConstellation.satellites(of: .galileo)[3], referenceGPSSeconds: toe,
      clockBiasSeconds: 1.234e-4, clockDriftSecondsPerSecond: 0),
    leapSeconds: 18)

  /// The 256 bits of a page pair's eight words.
  static func bits(_ words: [UInt32]) -> [Bool] {
    words.flatMap { word in (0..<32).map { word >> (31 - $0) & 1 == 1 } }
  }

  /// An unsigned field of `bits`.
  static func field(_ bits: [Bool], _ offset: Int, _ width: Int) -> Int {
    bits[offset..<offset + width].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
  }

  /// The 128 bits of the word a page pair carries: 112 after the even page's first two bits,
  /// 16 after the odd page's.
  static func word(_ pair: [Bool]) -> [Bool] {
    Array(pair[2..<114] + pair[130..<146])
  }

  /// CRC-24Q bit by bit, over bits rather than bytes.
  static func crc(_ bits: some Sequence<Bool>) -> Int {
    var register = 0
    for bit in bits {
      let top = (register >> 23 & 1 == 1) != bit
      register = register << 1 & 0xFF_FFFF
      if top { register ^= 0x86_4CFB }
    }
    return register
  }

  static func pair(at offset: Double) -> [Bool] {
    bits(message.pagePair(startingAt: subframeStart + offset, week: week))
  }

  @Test func theFifteenPagePairsOfASubframeHaveTheNominalWordTypesWithZeroForTheAlmanac() {
    let expected = [2, 4, 6, 0, 0, 0, 0, 0, 0, 0, 1, 3, 5, 0, 0]
    for start in [0.0, 30, 604_770] {
      let types = (0..<15).map {
        GalileoINAVMessage.wordType(pagePairStartingAt: start + 2 * Double($0))
      }
      #expect(types == expected)
    }
    for (index, type) in expected.enumerated() {
      let pair = Self.pair(at: 2 * Double(index))
      #expect(Self.field(pair, 2, 6) == type)
    }
  }

  @Test func everyWordTypeIs128Bits() {
    for type in 0...6 {
      let word = Self.message.word(
        type: type, gstSecondsOfWeek: Self.subframeStart, week: Self.week)
      #expect(word.count == 128, "word type \(type)")
    }
  }

  @Test func everyPagePairIsFramedAsRXMSFRBXCarriesItWithTheCRCOfItsBits() {
    for index in 0..<15 {
      let words = Self.message.pagePair(
        startingAt: Self.subframeStart + 2 * Double(index), week: Self.week)
      #expect(words.count == 8)
      let pair = Self.bits(words)
      #expect(pair[0] == false && pair[128] == true, "even, then odd")
      #expect(pair[1] == false && pair[129] == false, "nominal pages, not alerts")
      #expect(!pair[114..<128].contains(true), "the even page's tail and the pad")
      #expect(!pair[146..<210].contains(true), "reserved 1, SAR, spare")
      #expect(!pair[234..<256].contains(true), "reserved 2, the odd page's tail and the pad")
      let covered = pair[0..<114] + pair[128..<210]
      #expect(Self.field(pair, 210, 24) == Self.crc(covered), "page pair \(index)")
    }
  }

  @Test func aChangedBitNoLongerMatchesTheCRC() {
    var pair = Self.pair(at: 20)
    pair[60].toggle()
    #expect(Self.field(pair, 210, 24) != Self.crc(pair[0..<114] + pair[128..<210]))
  }

  @Test func wordTypes0And5And6CarryGSTAtTheStartOfThePagePair() {
    for (offset, type, weekBit, timeBit) in [
      (10.0, 0, 96, 108), (12, 0, 96, 108), (24, 5, 73, 85), (4, 6, -1, 105),
    ] {
      let word = Self.word(Self.pair(at: offset))
      #expect(Self.field(word, 0, 6) == type)
      #expect(Self.field(word, timeBit, 20) == Int(Self.subframeStart + offset))
      if weekBit >= 0 { #expect(Self.field(word, weekBit, 12) == Self.week) }
    }
    let time = Self.word(Self.pair(at: 10))
    #expect(Self.field(time, 6, 2) == 2, "WN and TOW valid")
    let utc = Self.word(Self.pair(at: 4))
    #expect(Self.field(utc, 62, 8) == 18, "Δt_LS")
    #expect(Self.field(utc, 70, 8) == Int(Self.subframeStart + 4) / 3600, "t_ot")
    #expect(Self.field(utc, 78, 8) == Self.week % 256, "WN_ot")
    #expect(Self.field(utc, 86, 8) == 905 % 256, "WN_LSF")
    #expect(Self.field(utc, 94, 3) == 7, "DN")
    #expect(Self.field(utc, 97, 8) == 18, "Δt_LSF")
  }

  @Test func theEphemerisWordsCarryIODnavSVIDToeAndSISA() {
    let ephemeris = Self.message.ephemeris
    for offset in [20.0, 0, 22, 2] {
      let word = Self.word(Self.pair(at: offset))
      #expect(Self.field(word, 6, 10) == ephemeris.issueOfData)
    }
    let first = Self.word(Self.pair(at: 20))
    #expect(Self.field(first, 16, 14) * 60 == Int(ephemeris.referenceSecondsOfWeek))
    let third = Self.word(Self.pair(at: 22))
    #expect(Self.field(third, 120, 8) == 107)
    let fourth = Self.word(Self.pair(at: 2))
    #expect(Self.field(fourth, 16, 6) == ephemeris.prn)
    #expect(Self.field(fourth, 54, 14) * 60 == Int(ephemeris.referenceSecondsOfWeek), "toc")
    #expect(Double(Self.field(fourth, 68, 31)) * 0x1p-34 == ephemeris.clockBiasSeconds)
    let fifth = Self.word(Self.pair(at: 24))
    #expect(Self.field(fifth, 6, 11) == 280, "a_i0: 70 sfu")
  }
}
