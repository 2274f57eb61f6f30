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
    var writer = BitWriter(capacity: 240)
    // TLM: preamble, message, integrity flag, reserved.
    writer.append(0x8B, width: 8)
    writer.append(0, width: 16)
    // HOW: the TOW count of the next subframe, alert, anti-spoof, ID, two bits for parity.
    writer.append(Int64(secondsOfWeek / 6 + 1) % 100_800, width: 17)
    writer.append(0, width: 2)
    writer.append(Int64(number), width: 3)
    writer.append(0, width: 2)
    switch number {
    case 1: appendClock(to: &writer, week: week)
    case 2: appendEphemerisFirstHalf(to: &writer)
    case 3: appendEphemerisSecondHalf(to: &writer)
    case 4: appendIonosphereAndUTC(to: &writer, week: week, secondsOfWeek: secondsOfWeek)
    default: appendAlmanacReference(to: &writer, week: week)
    }
    return LNAVSubframe(data: writer.words(width: 24))
  }

  /// Subframe 1: week, health, IODC, T_GD, toc and the clock polynomial.
  func appendClock(to writer: inout BitWriter, week: Int) {
    let issue = Int64(ephemeris.issueOfData)
    writer.append(Int64(week % 1024), width: 10)
    writer.append(1, width: 2)  // P code on L2
    writer.append(0, width: 4)  // URA index 0: 2.4 m
    writer.append(0, width: 6)  // healthy
    writer.append(issue >> 8, width: 2)
    writer.append(0, width: 24)  // L2 P data flag and reserved
    writer.append(0, width: 48)
    writer.append(0, width: 16)
    writer.append(0, width: 8)  // T_GD
    writer.append(issue & 0xFF, width: 8)
    writer.append(Int64(ephemeris.referenceSecondsOfWeek / 16), width: 16)  // toc
    writer.append(0, width: 8)  // af2
    writer.append(LNAVScale.clockDrift.integer(ephemeris.clockDriftSecondsPerSecond), width: 16)
    writer.append(LNAVScale.clockBias.integer(ephemeris.clockBiasSeconds), width: 22)
    writer.append(0, width: 2)
  }

  /// Subframe 2: IODE, C_rs, Δn, M₀, C_uc, e, C_us, √A, toe, fit interval, AODO.
  func appendEphemerisFirstHalf(to writer: inout BitWriter) {
    writer.append(Int64(ephemeris.issueOfData), width: 8)
    writer.append(0, width: 16)  // C_rs
    writer.append(
      LNAVScale.semicircles43.integer(ephemeris.meanMotionCorrectionRadiansPerSecond), width: 16)
    writer.append(LNAVScale.semicircles31.integer(ephemeris.meanAnomalyRadians), width: 32)
    writer.append(0, width: 16)  // C_uc
    writer.append(LNAVScale.eccentricity.integer(ephemeris.eccentricity), width: 32)
    writer.append(0, width: 16)  // C_us
    writer.append(
      LNAVScale.squareRootOfSemiMajorAxis.integer(ephemeris.squareRootOfSemiMajorAxis), width: 32)
    writer.append(Int64(ephemeris.referenceSecondsOfWeek / 16), width: 16)
    writer.append(0, width: 6)  // fit interval 4 h, AODO
    writer.append(0, width: 2)
  }

  /// Subframe 3: C_ic, Ω₀, C_is, i₀, C_rc, ω, Ω̇, IODE, IDOT.
  func appendEphemerisSecondHalf(to writer: inout BitWriter) {
    writer.append(0, width: 16)  // C_ic
    writer.append(LNAVScale.semicircles31.integer(ephemeris.rightAscensionRadians), width: 32)
    writer.append(0, width: 16)  // C_is
    writer.append(LNAVScale.semicircles31.integer(ephemeris.inclinationRadians), width: 32)
    writer.append(0, width: 16)  // C_rc
    writer.append(LNAVScale.semicircles31.integer(ephemeris.argumentOfPerigeeRadians), width: 32)
    writer.append(
      LNAVScale.semicircles43.integer(ephemeris.rateOfRightAscensionRadiansPerSecond), width: 24)
    writer.append(Int64(ephemeris.issueOfData), width: 8)
    writer.append(0, width: 14)  // IDOT
    writer.append(0, width: 2)
  }

  /// Subframe 4 page 18: the Klobuchar coefficients and the UTC parameters (A₀ = A₁ = 0; the
  /// last leap second, at the end of 2016-12-31, day 7 of week 1929).
  func appendIonosphereAndUTC(to writer: inout BitWriter, week: Int, secondsOfWeek: Double) {
    writer.append(1, width: 2)  // data ID
    writer.append(56, width: 6)  // SV ID of page 18
    for coefficient in ionosphere.broadcastIntegers { writer.append(coefficient, width: 8) }
    writer.append(0, width: 24)  // A₁
    writer.append(0, width: 32)  // A₀
    writer.append(Int64(secondsOfWeek / 4096), width: 8)  // t_ot
    writer.append(Int64(week % 256), width: 8)  // WN_t
    writer.append(Int64(leapSeconds), width: 8)
    writer.append(1929 % 256, width: 8)  // WN_LSF
    writer.append(7, width: 8)  // DN
    writer.append(Int64(leapSeconds), width: 8)
    writer.append(0, width: 14)
    writer.append(0, width: 2)
  }

  /// Subframe 5 page 25: the almanac's reference time and week, every satellite healthy.
  func appendAlmanacReference(to writer: inout BitWriter, week: Int) {
    writer.append(1, width: 2)
    writer.append(51, width: 6)
    writer.append(Int64(ephemeris.referenceSecondsOfWeek / 4096), width: 8)  // t_oa
    writer.append(Int64(week % 256), width: 8)  // WN_a
    writer.append(0, width: 24 * 6)  // health of SV 1–24
    writer.append(0, width: 22)
    writer.append(0, width: 2)
  }
}
