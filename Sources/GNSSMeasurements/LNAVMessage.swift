import Simulation

/// The LNAV subframes a GPS satellite broadcasts, from its ephemeris, the ionosphere's
/// coefficients and the UTC parameters (IS-GPS-200, 20.3.3).
///
/// Subframes 1–3 carry the ephemeris and clock; every subframe 4 is page 18 (ionospheric and
/// UTC parameters) and every subframe 5 page 25 (almanac reference time and health, all
/// healthy), rather than the 25-page cycle of the real almanac.
public struct LNAVMessage: Sendable {
  /// The satellite's ephemeris.
  public var ephemeris: BroadcastEphemeris
  /// The ionosphere's coefficients.
  public var ionosphere: KlobucharModel
  /// GPS − UTC, seconds.
  public var leapSeconds: Int

  /// Creates the message of a satellite.
  public init(ephemeris: BroadcastEphemeris, ionosphere: KlobucharModel, leapSeconds: Int) {
    self.ephemeris = ephemeris
    self.ionosphere = ionosphere
    self.leapSeconds = leapSeconds
  }

  /// The number (1–5) of the subframe that starts at `secondsOfWeek` (a multiple of 6).
  public static func subframeNumber(startingAt secondsOfWeek: Double) -> Int {
    Int(secondsOfWeek / 6) % 5 + 1
  }

  /// The subframe that starts at `secondsOfWeek` (a multiple of 6) of `week`.
  public func subframe(startingAt secondsOfWeek: Double, week: Int) -> LNAVSubframe {
    let number = Self.subframeNumber(startingAt: secondsOfWeek)
    var packer = LNAVBitPacker()
    // TLM: preamble, message, integrity flag, reserved.
    packer.append(0x8B, width: 8)
    packer.append(0, width: 16)
    // HOW: the TOW count of the next subframe, alert, anti-spoof, ID, two bits for parity.
    packer.append(Int64(secondsOfWeek / 6 + 1) % 100_800, width: 17)
    packer.append(0, width: 2)
    packer.append(Int64(number), width: 3)
    packer.append(0, width: 2)
    switch number {
    case 1: appendClock(to: &packer, week: week)
    case 2: appendEphemerisFirstHalf(to: &packer)
    case 3: appendEphemerisSecondHalf(to: &packer)
    case 4: appendIonosphereAndUTC(to: &packer, week: week, secondsOfWeek: secondsOfWeek)
    default: appendAlmanacReference(to: &packer, week: week)
    }
    return LNAVSubframe(data: packer.words)
  }

  /// Subframe 1: week, health, IODC, T_GD, toc and the clock polynomial.
  func appendClock(to packer: inout LNAVBitPacker, week: Int) {
    let issue = Int64(ephemeris.issueOfData)
    packer.append(Int64(week % 1024), width: 10)
    packer.append(1, width: 2)  // P code on L2
    packer.append(0, width: 4)  // URA index 0: 2.4 m
    packer.append(0, width: 6)  // healthy
    packer.append(issue >> 8, width: 2)
    packer.append(0, width: 24)  // L2 P data flag and reserved
    packer.append(0, width: 48)
    packer.append(0, width: 16)
    packer.append(0, width: 8)  // T_GD
    packer.append(issue & 0xFF, width: 8)
    packer.append(Int64(ephemeris.referenceSecondsOfWeek / 16), width: 16)  // toc
    packer.append(0, width: 8)  // af2
    packer.append(LNAVScale.clockDrift.integer(ephemeris.clockDriftSecondsPerSecond), width: 16)
    packer.append(LNAVScale.clockBias.integer(ephemeris.clockBiasSeconds), width: 22)
    packer.append(0, width: 2)
  }

  /// Subframe 2: IODE, C_rs, Δn, M₀, C_uc, e, C_us, √A, toe, fit interval, AODO.
  func appendEphemerisFirstHalf(to packer: inout LNAVBitPacker) {
    packer.append(Int64(ephemeris.issueOfData), width: 8)
    packer.append(0, width: 16)  // C_rs
    packer.append(
      LNAVScale.semicircles43.integer(ephemeris.meanMotionCorrectionRadiansPerSecond), width: 16)
    packer.append(LNAVScale.semicircles31.integer(ephemeris.meanAnomalyRadians), width: 32)
    packer.append(0, width: 16)  // C_uc
    packer.append(LNAVScale.eccentricity.integer(ephemeris.eccentricity), width: 32)
    packer.append(0, width: 16)  // C_us
    packer.append(
      LNAVScale.squareRootOfSemiMajorAxis.integer(ephemeris.squareRootOfSemiMajorAxis), width: 32)
    packer.append(Int64(ephemeris.referenceSecondsOfWeek / 16), width: 16)
    packer.append(0, width: 6)  // fit interval 4 h, AODO
    packer.append(0, width: 2)
  }

  /// Subframe 3: C_ic, Ω₀, C_is, i₀, C_rc, ω, Ω̇, IODE, IDOT.
  func appendEphemerisSecondHalf(to packer: inout LNAVBitPacker) {
    packer.append(0, width: 16)  // C_ic
    packer.append(LNAVScale.semicircles31.integer(ephemeris.rightAscensionRadians), width: 32)
    packer.append(0, width: 16)  // C_is
    packer.append(LNAVScale.semicircles31.integer(ephemeris.inclinationRadians), width: 32)
    packer.append(0, width: 16)  // C_rc
    packer.append(LNAVScale.semicircles31.integer(ephemeris.argumentOfPerigeeRadians), width: 32)
    packer.append(
      LNAVScale.semicircles43.integer(ephemeris.rateOfRightAscensionRadiansPerSecond), width: 24)
    packer.append(Int64(ephemeris.issueOfData), width: 8)
    packer.append(0, width: 14)  // IDOT
    packer.append(0, width: 2)
  }

  /// Subframe 4 page 18: the Klobuchar coefficients and the UTC parameters (A₀ = A₁ = 0; the
  /// last leap second, at the end of 2016-12-31, day 7 of week 1929).
  func appendIonosphereAndUTC(to packer: inout LNAVBitPacker, week: Int, secondsOfWeek: Double) {
    packer.append(1, width: 2)  // data ID
    packer.append(56, width: 6)  // SV ID of page 18
    for coefficient in ionosphere.broadcastIntegers { packer.append(coefficient, width: 8) }
    packer.append(0, width: 24)  // A₁
    packer.append(0, width: 32)  // A₀
    packer.append(Int64(secondsOfWeek / 4096), width: 8)  // t_ot
    packer.append(Int64(week % 256), width: 8)  // WN_t
    packer.append(Int64(leapSeconds), width: 8)
    packer.append(1929 % 256, width: 8)  // WN_LSF
    packer.append(7, width: 8)  // DN
    packer.append(Int64(leapSeconds), width: 8)
    packer.append(0, width: 14)
    packer.append(0, width: 2)
  }

  /// Subframe 5 page 25: the almanac's reference time and week, every satellite healthy.
  func appendAlmanacReference(to packer: inout LNAVBitPacker, week: Int) {
    packer.append(1, width: 2)
    packer.append(51, width: 6)
    packer.append(Int64(ephemeris.referenceSecondsOfWeek / 4096), width: 8)  // t_oa
    packer.append(Int64(week % 256), width: 8)  // WN_a
    packer.append(0, width: 24 * 6)  // health of SV 1–24
    packer.append(0, width: 22)
    packer.append(0, width: 2)
  }
}
