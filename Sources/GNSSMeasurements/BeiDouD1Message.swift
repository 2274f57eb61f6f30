import Simulation

/// The D1 navigation message a BeiDou MEO or IGSO satellite broadcasts on B1I
/// (BDS-SIS-ICD-B1I 3.0, 5.2), from its ephemeris, the ionosphere's coefficients and the leap
/// seconds, as the subframes u-blox RXM-SFRBX carries.
///
/// A 30 s frame is five subframes of 6 s, starting at BDT seconds of week that are multiples
/// of 30, each of ten 30-bit words. Subframes 1–3 carry the clock, the ionosphere and the
/// ephemeris; subframe 4 only its page number (1–24, one a frame), with no almanac; every
/// subframe 5 is page 10, the UTC parameters (A₀ = A₁ = 0; the last leap second, at the end of
/// 2016-12-31), rather than the 24-page cycle of the almanac. The satellite is healthy, its URA
/// index 0 (2.4 m), and the ages of its clock and ephemeris (AODC, AODE) 0: below an hour, the
/// elements being the orbit's own at toe rather than extrapolated from tracking.
public struct BeiDouD1Message: Sendable {
  /// The satellite's ephemeris.
  public var ephemeris: BroadcastEphemeris
  /// The ionosphere's coefficients (BeiDou's Klobuchar model has GPS's units).
  public var ionosphere: KlobucharModel
  /// GPS − UTC, seconds; BDT − UTC is 14 s less.
  public var leapSeconds: Int

  /// Creates the message of a satellite.
  public init(ephemeris: BroadcastEphemeris, ionosphere: KlobucharModel, leapSeconds: Int) {
    self.ephemeris = ephemeris
    self.ionosphere = ionosphere
    self.leapSeconds = leapSeconds
  }

  /// The 11-bit preamble that starts every subframe.
  public static let preamble: Int64 = 0b111_0001_0010
  /// The page subframe 5 always carries: the UTC parameters.
  public static let utcPage = 10

  /// The number (1–5) of the subframe that starts at `bdtSecondsOfWeek` (a multiple of 6).
  public static func subframeNumber(startingAt bdtSecondsOfWeek: Double) -> Int {
    Int(bdtSecondsOfWeek / 6) % 5 + 1
  }

  /// The page number (1–24) of subframe 4 in the frame that holds `bdtSecondsOfWeek`: the
  /// frame's place in the 12-minute superframe.
  public static func pageNumber(at bdtSecondsOfWeek: Double) -> Int {
    Int(bdtSecondsOfWeek / 30) % 24 + 1
  }

  /// The subframe that starts at `bdtSecondsOfWeek` (a multiple of 6) of the BDT week `week`:
  /// ten words, each's 30 bits (22 or 26 information bits, then the parity) in the low bits.
  public func subframe(startingAt bdtSecondsOfWeek: Double, week: Int) -> [UInt32] {
    let number = Self.subframeNumber(startingAt: bdtSecondsOfWeek)
    var writer = BitWriter(capacity: 300)
    writer.append(Self.preamble, width: 11)
    writer.appendZeros(4)  // Rev
    writer.append(Int64(number), width: 3)  // FraID
    writer.append(Int64(bdtSecondsOfWeek), width: 20)  // SOW: 8 bits in word 1, 12 in word 2
    switch number {
    case 1: appendClockAndIonosphere(to: &writer, week: week)
    case 2: appendEphemerisFirstPart(to: &writer)
    case 3: appendEphemerisSecondPart(to: &writer)
    case 4: appendPage(Self.pageNumber(at: bdtSecondsOfWeek), to: &writer)
    default: appendUTC(to: &writer)
    }
    assert(writer.count == 26 + 9 * 22, "subframe \(number) has \(writer.count) bits")
    let leading = UInt32(writer.field(at: 0, width: 26))
    var information = BitWriter(capacity: 300)
    information.append(writer, bits: 26..<writer.count)
    return [BeiDouBCH.firstWord(leadingBits: leading)]
      + information.words(width: 22).map { BeiDouBCH.word(information: $0) }
  }

  /// Subframe 1: health, AODC, URAI, week, toc, the group delays, the Klobuchar coefficients,
  /// the clock polynomial and AODE.
  func appendClockAndIonosphere(to writer: inout BitWriter, week: Int) {
    let clockBias = LNAVScale(unit: ephemeris.conventions.clockBiasUnit, isAngle: false)
    writer.appendZeros(1)  // SatH1: healthy
    writer.appendZeros(5)  // AODC
    writer.appendZeros(4)  // URAI
    writer.append(Int64(week % 8192), width: 13)
    writer.append(Int64(ephemeris.referenceSecondsOfWeek / 8), width: 17)  // toc
    writer.appendZeros(2 * 10)  // T_GD1, T_GD2
    for coefficient in ionosphere.broadcastIntegers { writer.append(coefficient, width: 8) }
    writer.appendZeros(11)  // a2
    writer.append(clockBias.integer(ephemeris.clockBiasSeconds), width: 24)
    writer.append(
      LNAVScale.beidouClockDrift.integer(ephemeris.clockDriftSecondsPerSecond), width: 22)
    writer.appendZeros(5)  // AODE
  }

  /// Subframe 2: Δn, C_uc, M₀, e, C_us, C_rc, C_rs, √A and toe's two most significant bits.
  func appendEphemerisFirstPart(to writer: inout BitWriter) {
    writer.append(
      LNAVScale.semicircles43.integer(ephemeris.meanMotionCorrectionRadiansPerSecond), width: 16)
    writer.appendZeros(18)  // C_uc
    writer.append(LNAVScale.semicircles31.integer(ephemeris.meanAnomalyRadians), width: 32)
    writer.append(LNAVScale.eccentricity.integer(ephemeris.eccentricity), width: 32)
    writer.appendZeros(3 * 18)  // C_us, C_rc, C_rs
    writer.append(
      LNAVScale.squareRootOfSemiMajorAxis.integer(ephemeris.squareRootOfSemiMajorAxis), width: 32)
    writer.append(timeOfEphemeris >> 15, width: 2)
  }

  /// Subframe 3: toe's 15 least significant bits, i₀, C_ic, Ω̇, C_is, IDOT, Ω₀, ω.
  func appendEphemerisSecondPart(to writer: inout BitWriter) {
    writer.append(timeOfEphemeris & 0x7FFF, width: 15)
    writer.append(LNAVScale.semicircles31.integer(ephemeris.inclinationRadians), width: 32)
    writer.appendZeros(18)  // C_ic
    writer.append(
      LNAVScale.semicircles43.integer(ephemeris.rateOfRightAscensionRadiansPerSecond), width: 24)
    writer.appendZeros(18)  // C_is
    writer.appendZeros(14)  // IDOT
    writer.append(LNAVScale.semicircles31.integer(ephemeris.rightAscensionRadians), width: 32)
    writer.append(LNAVScale.semicircles31.integer(ephemeris.argumentOfPerigeeRadians), width: 32)
    writer.appendZeros(1)  // Rev
  }

  /// Subframe 4: its page number, the rest (the almanac's) zero.
  func appendPage(_ page: Int, to writer: inout BitWriter) {
    writer.appendZeros(1)  // Rev
    writer.append(Int64(page), width: 7)
    writer.appendZeros(178)
  }

  /// Subframe 5 page 10: BDT−UTC (leap seconds 14 fewer than GPS's; the last at the end of
  /// 2016-12-31, day 6 (Saturday, days counted from 0) of BDT week 573).
  func appendUTC(to writer: inout BitWriter) {
    writer.appendZeros(1)  // Rev
    writer.append(Int64(Self.utcPage), width: 7)
    writer.append(Int64(leapSeconds - 14), width: 8)  // Δt_LS
    writer.append(Int64(leapSeconds - 14), width: 8)  // Δt_LSF
    writer.append(573 % 256, width: 8)  // WN_LSF
    writer.appendZeros(32 + 24)  // A0_UTC, A1_UTC
    writer.append(6, width: 8)  // DN
    writer.appendZeros(90)  // reserved
  }

  /// toe in its 17-bit field, 8 s units of BDT seconds of week.
  var timeOfEphemeris: Int64 {
    Int64(ephemeris.referenceSecondsOfWeek / 8)
  }
}

extension LNAVScale {
  /// D1's a1, 2⁻⁵⁰ s/s.
  static let beidouClockDrift = LNAVScale(unit: 0x1p-50, isAngle: false)
}
