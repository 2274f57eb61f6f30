import Simulation

/// The I/NAV message a Galileo satellite broadcasts on E1-B (Galileo OS SIS ICD 2.0, 4.3.5),
/// from its ephemeris and the leap seconds, as the page pairs u-blox RXM-SFRBX carries.
///
/// A 30 s subframe is 15 page pairs of 2 s, starting at GST seconds of week that are multiples
/// of 30, with the word types of the nominal E1-B subframe: 2, 4, 6, 7/9, 8/10, 0, 0, 0, 0, 0,
/// 1, 3, 5, 0, 0. There is no almanac, so word type 0 (spare, with the time) fills the almanac's
/// slots (7/9 and 8/10) as it does the spare ones. Every satellite is healthy, its data valid,
/// its SISA 3.12 m; the ionosphere a constant effective ionisation level of 70 sfu; A₀ = A₁ = 0
/// and the last leap second that at the end of 2016-12-31.
public struct GalileoINAVMessage: Sendable {
  /// The satellite's ephemeris.
  public var ephemeris: BroadcastEphemeris
  /// GST − UTC, which is GPS − UTC, seconds.
  public var leapSeconds: Int

  /// Creates the message of a satellite.
  public init(ephemeris: BroadcastEphemeris, leapSeconds: Int) {
    self.ephemeris = ephemeris
    self.leapSeconds = leapSeconds
  }

  /// The word types of the 15 page pairs of a subframe, word type 0 in the almanac's slots.
  public static let wordTypes = [2, 4, 6, 0, 0, 0, 0, 0, 0, 0, 1, 3, 5, 0, 0]
  /// The SISA index sent, 107: 2 m + 7 × 0.16 m = 3.12 m (indices 100–125 step 16 cm from 2 m).
  public static let signalInSpaceAccuracyIndex: Int64 = 107
  /// a_i0, the effective ionisation level's constant term, in its unit of 2⁻² sfu: 70 sfu.
  public static let effectiveIonisationLevel: Int64 = 70 * 4

  /// The word type of the page pair that starts at `gstSecondsOfWeek` (a multiple of 2).
  public static func wordType(pagePairStartingAt gstSecondsOfWeek: Double) -> Int {
    wordTypes[Int(gstSecondsOfWeek / 2) % wordTypes.count]
  }

  /// The page pair that starts at `gstSecondsOfWeek` (a multiple of 2) of the GST week `week`,
  /// as the eight 32-bit words of RXM-SFRBX: the even page's 120 bits (even/odd 0, page type
  /// 0, the word's first 112 bits, the tail) left-aligned in words 0–3, the odd page's
  /// (even/odd 1, page type 0, the word's last 16 bits, reserved 1, SAR, spare, CRC-24Q,
  /// reserved 2, the tail) in words 4–7.
  public func pagePair(startingAt gstSecondsOfWeek: Double, week: Int) -> [UInt32] {
    let type = Self.wordType(pagePairStartingAt: gstSecondsOfWeek)
    let word = self.word(type: type, gstSecondsOfWeek: gstSecondsOfWeek, week: week)
    var even = BitWriter(capacity: 128)
    even.append(0, width: 1)  // even
    even.append(0, width: 1)  // nominal page
    even.append(word, bits: 0..<112)
    var odd = BitWriter(capacity: 128)
    odd.append(1, width: 1)  // odd
    odd.append(0, width: 1)  // nominal page
    odd.append(word, bits: 112..<128)
    odd.appendZeros(40)  // reserved 1
    odd.appendZeros(22)  // SAR: no return link message
    odd.appendZeros(2)  // spare
    odd.append(Int64(Self.checksum(even: even, odd: odd)), width: 24)
    odd.appendZeros(8)  // reserved 2
    even.appendZeros(6 + 8)  // tail, then the pad to 128 bits
    odd.appendZeros(6 + 8)
    return BitWriter.words(width: 32, of: even, odd)
  }

  /// The CRC-24Q of a page pair: over the even page's 114 bits and the odd page's first 82
  /// (tails excluded), led by four zero bits to make 25 bytes.
  static func checksum(even: BitWriter, odd: BitWriter) -> UInt32 {
    var covered = BitWriter(capacity: 200)
    covered.appendZeros(4)
    covered.append(even, bits: 0..<114)
    covered.append(odd, bits: 0..<82)
    return CRC24Q.checksum(covered.byteSequence)
  }

  /// The 128 bits of a word type at `gstSecondsOfWeek` of `week`.
  func word(type: Int, gstSecondsOfWeek: Double, week: Int) -> BitWriter {
    var writer = BitWriter(capacity: 128)
    writer.append(Int64(type), width: 6)
    switch type {
    case 1: appendEphemerisFirstPart(to: &writer)
    case 2: appendEphemerisSecondPart(to: &writer)
    case 3: appendEphemerisThirdPart(to: &writer)
    case 4: appendClock(to: &writer)
    case 5: appendIonosphereAndHealth(to: &writer, gstSecondsOfWeek: gstSecondsOfWeek, week: week)
    case 6: appendUTC(to: &writer, gstSecondsOfWeek: gstSecondsOfWeek, week: week)
    default: appendTime(to: &writer, gstSecondsOfWeek: gstSecondsOfWeek, week: week)
    }
    assert(writer.count == 128, "word type \(type) has \(writer.count) bits")
    return writer
  }

  /// Word type 1: IODnav, toe, M₀, e, √A.
  func appendEphemerisFirstPart(to writer: inout BitWriter) {
    writer.append(Int64(ephemeris.issueOfData), width: 10)
    writer.append(Int64(ephemeris.referenceSecondsOfWeek / 60), width: 14)
    writer.append(LNAVScale.semicircles31.integer(ephemeris.meanAnomalyRadians), width: 32)
    writer.append(LNAVScale.eccentricity.integer(ephemeris.eccentricity), width: 32)
    writer.append(
      LNAVScale.squareRootOfSemiMajorAxis.integer(ephemeris.squareRootOfSemiMajorAxis), width: 32)
    writer.appendZeros(2)  // reserved
  }

  /// Word type 2: IODnav, Ω₀, i₀, ω, IDOT.
  func appendEphemerisSecondPart(to writer: inout BitWriter) {
    writer.append(Int64(ephemeris.issueOfData), width: 10)
    writer.append(LNAVScale.semicircles31.integer(ephemeris.rightAscensionRadians), width: 32)
    writer.append(LNAVScale.semicircles31.integer(ephemeris.inclinationRadians), width: 32)
    writer.append(LNAVScale.semicircles31.integer(ephemeris.argumentOfPerigeeRadians), width: 32)
    writer.appendZeros(14)  // IDOT
    writer.appendZeros(2)  // reserved
  }

  /// Word type 3: IODnav, Ω̇, Δn, the harmonic corrections C_uc, C_us, C_rc, C_rs, SISA.
  func appendEphemerisThirdPart(to writer: inout BitWriter) {
    writer.append(Int64(ephemeris.issueOfData), width: 10)
    writer.append(
      LNAVScale.semicircles43.integer(ephemeris.rateOfRightAscensionRadiansPerSecond), width: 24)
    writer.append(
      LNAVScale.semicircles43.integer(ephemeris.meanMotionCorrectionRadiansPerSecond), width: 16)
    writer.appendZeros(4 * 16)  // C_uc, C_us, C_rc, C_rs
    writer.append(Self.signalInSpaceAccuracyIndex, width: 8)
  }

  /// Word type 4: IODnav, SVID, C_ic, C_is, toc and the clock polynomial.
  func appendClock(to writer: inout BitWriter) {
    let clockBias = LNAVScale(unit: ephemeris.conventions.clockBiasUnit, isAngle: false)
    writer.append(Int64(ephemeris.issueOfData), width: 10)
    writer.append(Int64(ephemeris.prn), width: 6)
    writer.appendZeros(2 * 16)  // C_ic, C_is
    writer.append(Int64(ephemeris.referenceSecondsOfWeek / 60), width: 14)  // toc
    writer.append(clockBias.integer(ephemeris.clockBiasSeconds), width: 31)
    writer.append(
      LNAVScale.galileoClockDrift.integer(ephemeris.clockDriftSecondsPerSecond), width: 21)
    writer.appendZeros(6)  // af2
    writer.appendZeros(2)  // spare
  }

  /// Word type 5: the ionosphere, the group delays, health and validity, GST.
  func appendIonosphereAndHealth(to writer: inout BitWriter, gstSecondsOfWeek: Double, week: Int) {
    writer.append(Self.effectiveIonisationLevel, width: 11)
    writer.appendZeros(11 + 14)  // a_i1, a_i2
    writer.appendZeros(5)  // no ionospheric disturbance in any region
    writer.appendZeros(2 * 10)  // BGD E1-E5a, BGD E1-E5b
    writer.appendZeros(2 * 2)  // E5b and E1-B signal health: OK
    writer.appendZeros(2)  // E5b and E1-B data validity: valid
    appendWeekAndTimeOfWeek(to: &writer, gstSecondsOfWeek: gstSecondsOfWeek, week: week)
    writer.appendZeros(23)  // spare
  }

  /// Word type 6: GST−UTC conversion (A₀ = A₁ = 0; the last leap second, at the end of
  /// 2016-12-31: day 7 of GST week 905) and GST.
  func appendUTC(to writer: inout BitWriter, gstSecondsOfWeek: Double, week: Int) {
    writer.appendZeros(32 + 24)  // A₀, A₁
    writer.append(Int64(leapSeconds), width: 8)  // Δt_LS
    writer.append(Int64(gstSecondsOfWeek / 3600), width: 8)  // t_ot
    writer.append(Int64(week % 256), width: 8)  // WN_ot
    writer.append(905 % 256, width: 8)  // WN_LSF
    writer.append(7, width: 3)  // DN
    writer.append(Int64(leapSeconds), width: 8)  // Δt_LSF
    writer.append(Int64(gstSecondsOfWeek), width: 20)
    writer.appendZeros(3)  // spare
  }

  /// Word type 0: spare, with GST (its time field 2: WN and TOW valid).
  func appendTime(to writer: inout BitWriter, gstSecondsOfWeek: Double, week: Int) {
    writer.append(2, width: 2)
    writer.appendZeros(88)  // spare
    appendWeekAndTimeOfWeek(to: &writer, gstSecondsOfWeek: gstSecondsOfWeek, week: week)
  }

  /// GST's week number (12 bits) and time of week (20 bits) at the start of the page pair.
  func appendWeekAndTimeOfWeek(to writer: inout BitWriter, gstSecondsOfWeek: Double, week: Int) {
    writer.append(Int64(week % 4096), width: 12)
    writer.append(Int64(gstSecondsOfWeek), width: 20)
  }
}

extension LNAVScale {
  /// I/NAV's af1, 2⁻⁴⁶ s/s (OS SIS ICD 2.0).
  static let galileoClockDrift = LNAVScale(unit: 0x1p-46, isAngle: false)
}
