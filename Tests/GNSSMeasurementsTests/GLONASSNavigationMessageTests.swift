import Geodesy
import Simulation
import Testing

@testable import GNSSMeasurements

/// The GLONASS strings read back bit by bit with the ICD's numbering (bit 85 sent first, bits
/// 8–1 the check bits), signed fields in sign and magnitude, and their Hamming code checked by
/// the checksums of the ICD's table 4.13, the sets written out here again.
@Suite struct GLONASSNavigationMessageTests {
  /// 2025-12-06 00:00:00 UTC on the GPS scale (GPS − UTC = 18 s): 03:00 Moscow time.
  static let midnight = 1_449_014_418.0
  static let tb = midnight + 900
  static let ephemeris: GLONASSEphemeris = {
    var ephemeris = GLONASSEphemeris(
      satellite: OrbitalSky.nominal(constellations: [.glonass]).orbitingSatellites[3],
      referenceGPSSeconds: tb, leapSeconds: 18, clockBiasSeconds: -3.21e-4)
    // Signed values the sky leaves at zero.
    ephemeris.relativeFrequencyBias = -5 * 0x1p-40
    ephemeris.acceleration = EarthCenteredPosition(
      x: 3 * 0x1p-30 * 1000, y: -7 * 0x1p-30 * 1000, z: 0)
    return ephemeris
  }()
  static let message = GLONASSNavigationMessage(ephemeris: ephemeris)
  /// The frame from 03:13:30 Moscow time (11,610 s into the day): the 30 s flag of tk set,
  /// frame 3 of superframe 78 (the 77th from 0 starts at 11,550 s).
  static let frameStart = Int64(
    GLONASSTime.moscowSeconds(atGPSSeconds: midnight + 810, leapSeconds: 18))

  /// A string's bits by the ICD's number: `bits[k]` is bit k (index 0 unused).
  static func bits(_ string: UInt128) -> [Bool] {
    [false] + (1...85).map { string >> ($0 - 1) & 1 == 1 }
  }

  /// The unsigned field whose most significant bit is `high`.
  static func field(_ bits: [Bool], _ high: Int, _ width: Int) -> Int {
    (0..<width).reduce(0) { $0 << 1 | (bits[high - $1] ? 1 : 0) }
  }

  /// The sign-and-magnitude field whose sign bit is `high`.
  static func signed(_ bits: [Bool], _ high: Int, _ width: Int) -> Int {
    let magnitude = field(bits, high - 1, width - 1)
    return bits[high] ? -magnitude : magnitude
  }

  static func string(_ number: Int, frameStart: Int64 = frameStart) -> [Bool] {
    bits(message.string(startingAt: frameStart + 2 * Int64(number - 1)))
  }

  /// Table 4.13: the data bits of c1…c7 (each also adds its check bit βk, bit k).
  static let checksumSets: [[Int]] = [
    [
      9, 10, 12, 13, 15, 17, 19, 20, 22, 24, 26, 28, 30, 32, 34, 35, 37, 39, 41, 43, 45, 47, 49,
      51, 53, 55, 57, 59, 61, 63, 65, 66, 68, 70, 72, 74, 76, 78, 80, 82, 84,
    ],
    [
      9, 11, 12, 14, 15, 18, 19, 21, 22, 25, 26, 29, 30, 33, 34, 36, 37, 40, 41, 44, 45, 48, 49,
      52, 53, 56, 57, 60, 61, 64, 65, 67, 68, 71, 72, 75, 76, 79, 80, 83, 84,
    ],
    [
      10, 11, 12, 16, 17, 18, 19, 23, 24, 25, 26, 31, 32, 33, 34, 38, 39, 40, 41, 46, 47, 48, 49,
      54, 55, 56, 57, 62, 63, 64, 65, 69, 70, 71, 72, 77, 78, 79, 80, 85,
    ],
    Array(13...19) + Array(27...34) + Array(42...49) + Array(58...65) + Array(73...80),
    Array(20...34) + Array(50...65) + Array(81...85),
    Array(35...65),
    Array(66...85),
  ]

  /// The checksums c1…c7 and cΣ (all the string's bits) of a string.
  static func checksums(_ bits: [Bool]) -> [Int] {
    let sets = checksumSets.enumerated().map { [$0.offset + 1] + $0.element } + [Array(1...85)]
    return sets.map { set in set.reduce(0) { $0 ^ (bits[$1] ? 1 : 0) } }
  }

  @Test func everyStringOfASuperframeHasZeroChecksums() {
    for offset in stride(from: Int64(0), to: 150, by: 2) {
      let start = Self.frameStart - Self.frameStart % 150 + offset
      let bits = Self.bits(Self.message.string(startingAt: start))
      #expect(!bits[85], "the idle bit")
      #expect(Self.field(bits, 84, 4) == Int(offset % 30 / 2) + 1, "m at +\(offset)")
      #expect(Self.checksums(bits) == Array(repeating: 0, count: 8), "string at +\(offset)")
    }
  }

  @Test func aFlippedBitGivesNonZeroChecksums() {
    for number in [1, 4, 5, 9] {
      for bit in [1, 8, 9, 40, 77, 84, 85] {
        var bits = Self.string(number)
        bits[bit].toggle()
        let checksums = Self.checksums(bits)
        #expect(checksums.last == 1, "string \(number) bit \(bit): cΣ")
        // A data bit: c7…c1 + 8 − K (K the highest checksum set) points at it (ICD 4.7 b); a
        // check bit: only its checksum is set.
        let syndrome = checksums.prefix(7).reversed().reduce(0) { $0 << 1 | $1 }
        let highest = (checksums.prefix(7).lastIndex(of: 1) ?? -1) + 1
        let pointed = bit > 8 ? syndrome + 8 - highest : syndrome == 1 << (bit - 1) ? bit : 0
        #expect(bit == 8 || pointed == bit, "string \(number) bit \(bit): \(checksums)")
      }
    }
  }

  @Test func string1CarriesP1TkAndTheXComponent() {
    let bits = Self.string(1)
    #expect(Self.field(bits, 80, 2) == 0)
    #expect(Self.field(bits, 78, 2) == 0b01, "P1")
    #expect(Self.field(bits, 76, 5) == 3)
    #expect(Self.field(bits, 71, 6) == 13)
    #expect(Self.field(bits, 65, 1) == 1, "tk 03:13:30")
    let ephemeris = Self.ephemeris
    #expect(Double(Self.signed(bits, 64, 24)) * 0x1p-20 * 1000 == ephemeris.velocity.x)
    #expect(Self.signed(bits, 40, 5) == 3)
    #expect(Double(Self.signed(bits, 35, 27)) * 0x1p-11 * 1000 == ephemeris.position.x)
  }

  @Test func string2CarriesHealthTbAndTheYComponent() {
    let bits = Self.string(2)
    #expect(Self.field(bits, 80, 3) == 0, "Bn")
    #expect(Self.field(bits, 77, 1) == 1, "P2: tb odd")
    #expect(Self.field(bits, 76, 7) == 13, "tb 03:15")
    #expect(Self.field(bits, 69, 5) == 0)
    let ephemeris = Self.ephemeris
    #expect(Double(Self.signed(bits, 64, 24)) * 0x1p-20 * 1000 == ephemeris.velocity.y)
    #expect(Self.signed(bits, 40, 5) == -7)
    #expect(Double(Self.signed(bits, 35, 27)) * 0x1p-11 * 1000 == ephemeris.position.y)
  }

  @Test func string3CarriesGammaTheFlagsAndTheZComponent() {
    let bits = Self.string(3)
    #expect(Self.field(bits, 80, 1) == 1, "P3: five almanac slots in frame 3")
    #expect(Self.signed(bits, 79, 11) == -5, "γn")
    #expect(Self.field(bits, 67, 2) == 0, "P")
    #expect(Self.field(bits, 65, 1) == 0, "ln")
    let ephemeris = Self.ephemeris
    #expect(Double(Self.signed(bits, 64, 24)) * 0x1p-20 * 1000 == ephemeris.velocity.z)
    #expect(Self.signed(bits, 40, 5) == 0)
    #expect(Double(Self.signed(bits, 35, 27)) * 0x1p-11 * 1000 == ephemeris.position.z)
    let lastFrame = Self.frameStart - Self.frameStart % 150 + 120
    #expect(Self.field(Self.string(3, frameStart: lastFrame), 80, 1) == 0, "P3 in frame 5")
  }

  @Test func string4CarriesTauNTheDayTheSlotAndTheType() {
    let bits = Self.string(4)
    #expect(Double(Self.signed(bits, 80, 22)) * 0x1p-30 == Self.ephemeris.clockBiasSeconds)
    #expect(Self.signed(bits, 80, 22) < 0)
    #expect(Self.field(bits, 58, 5) == 0, "Δτn")
    #expect(Self.field(bits, 53, 5) == 0, "En")
    #expect(Self.field(bits, 34, 1) == 0, "P4")
    #expect(Self.field(bits, 33, 4) == 0, "FT")
    // 2025-12-06 is day 366 + 339 + 1 of the interval from 2024-01-01.
    #expect(Self.field(bits, 26, 11) == 706, "NT")
    #expect(Self.field(bits, 15, 5) == Self.ephemeris.slot, "n")
    #expect(Self.field(bits, 10, 2) == 0b01, "M: GLONASS-M")
  }

  @Test func string5CarriesTheDayAndTheFourYearInterval() {
    let bits = Self.string(5)
    #expect(Self.field(bits, 80, 11) == 706, "NA")
    #expect(Self.field(bits, 69, 32) == 0, "τc")
    #expect(Self.field(bits, 36, 5) == 8, "N4: 2024–2027")
    #expect(Self.field(bits, 31, 22) == 0, "τGPS")
    #expect(Self.field(bits, 9, 1) == 0, "ln")
  }

  @Test func theAlmanacStringsCarryOnlyTheirNumber() {
    for number in 6...15 {
      let bits = Self.string(number)
      #expect(Self.field(bits, 84, 4) == number)
      #expect(Self.field(bits, 80, 40) == 0 && Self.field(bits, 40, 32) == 0, "\(number)")
    }
  }

  /// RXM-SFRBX's words: the string from the top of word 0, eleven zero bits, the superframe
  /// number (within the Moscow day) and the frame number in word 3.
  @Test func theSFRBXWordsHoldTheStringThenTheSuperframeAndFrameNumbers() {
    let start = Self.frameStart + 6
    let words = Self.message.sfrbxWords(startingAt: start)
    #expect(words.count == 4)
    let string = Self.message.string(startingAt: start)
    let packed = UInt128(words[0]) << 53 | UInt128(words[1]) << 21 | UInt128(words[2] >> 11)
    #expect(packed == string)
    #expect(words[2] & 0x7FF == 0)
    // 03:13:36: frame 3 of superframe 78.
    #expect(words[3] == 78 << 16 | 3)
  }
}
