import Simulation
import Testing

@testable import GNSSMeasurements

/// The D1 subframes read back bit by bit (bit 0 the first of word 1, 30 bits a word, as RTKLIB's
/// `decode_cnav` lays them out), their BCH parity checked by a syndrome computed from the powers
/// of x modulo x⁴ + x + 1.
@Suite struct BeiDouD1MessageTests {
  /// BDT week 1044, second of week 86,400 (GPS toe 14 s later): a whole hour of BDT.
  static let week = 1044
  static let toe = Double(week + 1356) * 604_800 + 86_400 + 14
  static let frameStart = 86_400.0

  static let message = BeiDouD1Message(
    ephemeris: BroadcastEphemeris(
      satellite: NominalConstellation.satellites(of: .beidou)[5], referenceGPSSeconds: toe,
      clockBiasSeconds: 1.234e-4, clockDriftSecondsPerSecond: 0),
    ionosphere: .typical, leapSeconds: 18)

  /// The 300 bits of a subframe's ten 30-bit words.
  static func bits(_ words: [UInt32]) -> [Bool] {
    words.flatMap { word in (0..<30).map { word >> (29 - $0) & 1 == 1 } }
  }

  /// An unsigned field of `bits`.
  static func field(_ bits: [Bool], _ offset: Int, _ width: Int) -> Int {
    bits[offset..<offset + width].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
  }

  /// x^k modulo x⁴ + x + 1 for k = 0…14: the columns of the code's parity-check matrix.
  static let powersOfX: [Int] = {
    var powers = [1]
    var power = 1
    for _ in 1..<15 {
      power <<= 1
      if power & 0b1_0000 != 0 { power ^= 0b1_0011 }
      powers.append(power)
    }
    return powers
  }()

  /// The syndrome of a 15-bit codeword (its first bit the coefficient of x¹⁴): zero when the
  /// generator divides it.
  static func syndrome(_ codeword: [Bool]) -> Int {
    codeword.enumerated().reduce(0) { $0 ^ ($1.element ? powersOfX[14 - $1.offset] : 0) }
  }

  /// The BCH codewords of a subframe: word 1's bits 15–29, and the two of each other word
  /// (information bits 0–10 with parity 22–25, 11–21 with 26–29).
  static func codewords(_ bits: [Bool]) -> [[Bool]] {
    var codewords = [Array(bits[15..<30])]
    for start in stride(from: 30, to: 300, by: 30) {
      codewords.append(Array(bits[start..<start + 11] + bits[start + 22..<start + 26]))
      codewords.append(Array(bits[start + 11..<start + 22] + bits[start + 26..<start + 30]))
    }
    return codewords
  }

  static func subframe(at offset: Double) -> [Bool] {
    bits(message.subframe(startingAt: frameStart + offset, week: week))
  }

  @Test func everyCodewordOfEverySubframeHasAZeroSyndrome() {
    for offset in stride(from: 0.0, to: 60, by: 6) {
      let words = Self.message.subframe(startingAt: Self.frameStart + offset, week: Self.week)
      #expect(words.count == 10)
      #expect(words.allSatisfy { $0 >> 30 == 0 })
      let codewords = Self.codewords(Self.bits(words))
      #expect(codewords.count == 19)
      for (index, codeword) in codewords.enumerated() {
        #expect(Self.syndrome(codeword) == 0, "subframe at +\(offset) s, codeword \(index)")
      }
    }
  }

  @Test func aChangedBitGivesANonZeroSyndrome() {
    for bit in [16, 40, 55, 299] {
      var bits = Self.subframe(at: 6)
      bits[bit].toggle()
      #expect(Self.codewords(bits).contains { Self.syndrome($0) != 0 }, "bit \(bit)")
    }
  }

  @Test func theParityOfKnownInformationIsTheRemainderByTheGenerator() {
    // x¹⁰ · x⁴ = x¹⁴ = x³ + 1 modulo x⁴ + x + 1; x⁰ · x⁴ = x + 1.
    #expect(BeiDouBCH.parity(of: 0b100_0000_0000) == 0b1001)
    #expect(BeiDouBCH.parity(of: 1) == 0b0011)
    #expect(BeiDouBCH.parity(of: 0) == 0)
  }

  @Test func eachSubframeStartsWithThePreambleItsNumberAndItsSecondOfWeek() {
    for start in [0.0, 6, 12, 18, 24, 604_770, 604_794] {
      #expect(BeiDouD1Message.subframeNumber(startingAt: start) == Int(start / 6) % 5 + 1)
    }
    for (index, offset) in stride(from: 0.0, to: 30, by: 6).enumerated() {
      let bits = Self.subframe(at: offset)
      #expect(Self.field(bits, 0, 11) == 0b111_0001_0010)
      #expect(Self.field(bits, 11, 4) == 0, "Rev")
      #expect(Self.field(bits, 15, 3) == index + 1, "FraID")
      let secondOfWeek = Self.field(bits, 18, 8) << 12 | Self.field(bits, 30, 12)
      #expect(secondOfWeek == Int(Self.frameStart + offset))
    }
  }

  @Test func subframe4CyclesItsPageBy12MinuteSuperframeAndSubframe5IsAlwaysPage10() {
    for frame in 0..<30 {
      let start = Self.frameStart + 30 * Double(frame)
      let fourth = Self.bits(Self.message.subframe(startingAt: start + 18, week: Self.week))
      #expect(Self.field(fourth, 43, 7) == (Int(start) / 30) % 24 + 1)
      let fifth = Self.bits(Self.message.subframe(startingAt: start + 24, week: Self.week))
      #expect(Self.field(fifth, 43, 7) == 10)
    }
    let utc = Self.subframe(at: 24)
    #expect(Self.field(utc, 50, 2) << 6 | Self.field(utc, 60, 6) == 4, "Δt_LS, BDT − UTC")
    #expect(Self.field(utc, 66, 8) == 4, "Δt_LSF")
    #expect(Self.field(utc, 74, 8) == 573 % 256, "WN_LSF")
    #expect(Self.field(utc, 162, 8) == 6, "DN")
  }

  @Test func subframe1CarriesTheWeekTocAndTheKlobucharIntegers() {
    let bits = Self.subframe(at: 0)
    let ephemeris = Self.message.ephemeris
    #expect(Self.field(bits, 60, 13) == Self.week)
    let toc = Self.field(bits, 73, 9) << 8 | Self.field(bits, 90, 8)
    #expect(toc * 8 == Int(ephemeris.referenceSecondsOfWeek))
    let alpha0 = Int8(truncatingIfNeeded: Self.field(bits, 126, 8))
    #expect(Int64(alpha0) == KlobucharModel.typical.broadcastIntegers[0])
    let beta3 = Int8(truncatingIfNeeded: Self.field(bits, 198, 4) << 4 | Self.field(bits, 210, 4))
    #expect(Int64(beta3) == KlobucharModel.typical.broadcastIntegers[7])
    let a0 = Self.field(bits, 225, 7) << 17 | Self.field(bits, 240, 17)
    #expect(Double(a0) * 0x1p-33 == ephemeris.clockBiasSeconds)
    #expect(Self.field(bits, 287, 5) == 0, "AODE")
  }
}
