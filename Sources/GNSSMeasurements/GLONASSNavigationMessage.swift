import Simulation

/// The navigation message a GLONASS-M satellite broadcasts on L1OF and L2OF (GLONASS ICD 5.1,
/// 4), from its ephemeris, as the strings u-blox RXM-SFRBX carries.
///
/// A string lasts 2 s and holds 85 bits: the idle bit 0, the string number m (4 bits), 72 data
/// bits and the Hamming check bits (`GLONASSHamming`). A 30 s frame is 15 strings, starting on
/// Moscow time's multiples of 30 s; a 2.5 min superframe five frames, starting on multiples of
/// 150 s from the Moscow day's start. Strings 1–4 carry the ephemeris (the same in each frame
/// of its half hour), string 5 the time scales, strings 6–15 the almanac, which is left empty:
/// those strings carry their number and zeros (a receiver reads slot nA = 0, "no satellite"),
/// rather than an almanac the sky's orbits would have to be fitted to.
///
/// The satellite is a healthy GLONASS-M (M = 01, Bn = ln = 0) whose ephemeris is fresh (En = 0,
/// P4 = 0: nothing newly uploaded), accurate to 1 m (FT = 0), tb every 30 min (P1 = 01), τc,
/// τGPS and Δτn zero, and P = 00: τc and τGPS relayed from the control segment rather than
/// computed on board (both zero here, as no clock is modelled for them).
public struct GLONASSNavigationMessage: Sendable {
  /// The ephemeris strings 1–4 carry.
  public var ephemeris: GLONASSEphemeris

  /// Creates the message of a satellite.
  public init(ephemeris: GLONASSEphemeris) {
    self.ephemeris = ephemeris
  }

  /// The length of a string, of a frame and of a superframe, seconds.
  public static let stringSeconds: Int64 = 2
  public static let frameSeconds: Int64 = 30
  public static let superframeSeconds: Int64 = 150
  /// Days from 1980-01-06 (the GPS epoch's day) to 1996-01-01, the start of the first
  /// four-year interval N4 counts.
  static let daysToFirstInterval: Int64 = 5839

  /// The number (1–15) of the string that starts at `moscowSeconds` (even).
  public static func stringNumber(startingAt moscowSeconds: Int64) -> Int {
    Int(moscowSeconds % frameSeconds / stringSeconds) + 1
  }

  /// The number (1–5) of the frame within its superframe that holds `moscowSeconds`.
  public static func frameNumber(at moscowSeconds: Int64) -> Int {
    Int(moscowSeconds % superframeSeconds / frameSeconds) + 1
  }

  /// The number (1–576) of the superframe within the Moscow day that holds `moscowSeconds`.
  public static func superframeNumber(at moscowSeconds: Int64) -> Int {
    Int(moscowSeconds % 86_400 / superframeSeconds) + 1
  }

  /// The string that starts at `moscowSeconds` (even): its 85 bits in the low bits, bit k of
  /// the ICD's numbering (85 the first sent) being bit k − 1.
  public func string(startingAt moscowSeconds: Int64) -> UInt128 {
    let number = Self.stringNumber(startingAt: moscowSeconds)
    var writer = BitWriter(capacity: 77)
    writer.appendZeros(1)  // the idle bit
    writer.append(Int64(number), width: 4)
    let frameStart = moscowSeconds - moscowSeconds % Self.frameSeconds
    switch number {
    case 1: appendFirstString(to: &writer, frameStart: frameStart)
    case 2: appendSecondString(to: &writer)
    case 3: appendThirdString(to: &writer, frame: Self.frameNumber(at: moscowSeconds))
    case 4: appendFourthString(to: &writer, day: moscowSeconds / 86_400)
    case 5: appendFifthString(to: &writer, day: moscowSeconds / 86_400)
    default: writer.appendZeros(72)  // the almanac's, empty
    }
    assert(writer.count == 77, "string \(number) has \(writer.count) bits")
    let data =
      UInt128(writer.field(at: 0, width: 45)) << 40 | UInt128(writer.field(at: 45, width: 32)) << 8
    return data | GLONASSHamming.checkBits(of: data)
  }

  /// The string that starts at `moscowSeconds` as the four words of RXM-SFRBX: its 85 bits
  /// from the top of word 0 (ZED-F9P integration manual, "GLONASS"), 11 padding bits, then
  /// the superframe number in the top 16 bits of word 3 and the frame number in its low 8.
  public func sfrbxWords(startingAt moscowSeconds: Int64) -> [UInt32] {
    let padded = string(startingAt: moscowSeconds) << 11
    return [
      UInt32(truncatingIfNeeded: padded >> 64), UInt32(truncatingIfNeeded: padded >> 32),
      UInt32(truncatingIfNeeded: padded),
      UInt32(Self.superframeNumber(at: moscowSeconds)) << 16
        | UInt32(Self.frameNumber(at: moscowSeconds)),
    ]
  }

  /// String 1: P1, tk (the frame's start in the Moscow day), x′, x″, x.
  func appendFirstString(to writer: inout BitWriter, frameStart: Int64) {
    let secondOfDay = frameStart % 86_400
    writer.appendZeros(2)
    writer.append(0b01, width: 2)  // P1: 30 min between tb
    writer.append(secondOfDay / 3600, width: 5)
    writer.append(secondOfDay % 3600 / 60, width: 6)
    writer.append(secondOfDay % 60 / 30, width: 1)
    appendState(ephemeris.velocity.x, ephemeris.acceleration.x, ephemeris.position.x, to: &writer)
  }

  /// String 2: Bn, P2, tb, y′, y″, y.
  func appendSecondString(to writer: inout BitWriter) {
    let tb = Int64((ephemeris.referenceSecondsOfMoscowDay / 900).rounded())
    writer.appendZeros(3)  // Bn: healthy
    writer.append(tb & 1, width: 1)  // P2: tb odd
    writer.append(tb, width: 7)
    writer.appendZeros(5)
    appendState(ephemeris.velocity.y, ephemeris.acceleration.y, ephemeris.position.y, to: &writer)
  }

  /// String 3: P3, γn, P, ln, z′, z″, z.
  func appendThirdString(to writer: inout BitWriter, frame: Int) {
    writer.append(frame < 5 ? 1 : 0, width: 1)  // P3: five almanac slots in this frame, or four
    Self.appendSignMagnitude(
      (ephemeris.relativeFrequencyBias / 0x1p-40).rounded(), width: 11, to: &writer)
    writer.appendZeros(1)
    writer.append(0b00, width: 2)  // P: τc and τGPS relayed from the control segment
    writer.appendZeros(1)  // ln: healthy
    appendState(ephemeris.velocity.z, ephemeris.acceleration.z, ephemeris.position.z, to: &writer)
  }

  /// String 4: τn, Δτn, En, P4, FT, NT, n, M.
  func appendFourthString(to writer: inout BitWriter, day: Int64) {
    Self.appendSignMagnitude(
      (ephemeris.clockBiasSeconds / 0x1p-30).rounded(), width: 22, to: &writer)
    writer.appendZeros(5)  // Δτn
    writer.appendZeros(5)  // En: the ephemeris' age, days
    writer.appendZeros(14)
    writer.appendZeros(1)  // P4: no new upload
    writer.appendZeros(4)  // FT: 1 m
    writer.appendZeros(3)
    writer.append(Self.dayOfInterval(day), width: 11)  // NT
    writer.append(Int64(ephemeris.slot), width: 5)  // n
    writer.append(0b01, width: 2)  // M: GLONASS-M
  }

  /// String 5: NA, τc, N4, τGPS, ln.
  func appendFifthString(to writer: inout BitWriter, day: Int64) {
    writer.append(Self.dayOfInterval(day), width: 11)  // NA: the almanac's day
    writer.appendZeros(32)  // τc
    writer.appendZeros(1)
    writer.append(Self.interval(day), width: 5)  // N4
    writer.appendZeros(22)  // τGPS
    writer.appendZeros(1)  // ln: healthy
  }

  /// A component's velocity (2⁻²⁰ km/s), acceleration (2⁻³⁰ km/s²) and position (2⁻¹¹ km),
  /// each in sign and magnitude.
  func appendState(
    _ velocity: Double, _ acceleration: Double, _ position: Double, to writer: inout BitWriter
  ) {
    Self.appendSignMagnitude((velocity / 1000 / 0x1p-20).rounded(), width: 24, to: &writer)
    Self.appendSignMagnitude((acceleration / 1000 / 0x1p-30).rounded(), width: 5, to: &writer)
    Self.appendSignMagnitude((position / 1000 / 0x1p-11).rounded(), width: 27, to: &writer)
  }

  /// A signed field as GLONASS sends it: the sign bit (1 for negative), then the magnitude.
  static func appendSignMagnitude(_ value: Double, width: Int, to writer: inout BitWriter) {
    let magnitude = Int64(value.magnitude)
    precondition(magnitude < 1 << (width - 1), "\(value) does not fit in \(width) bits")
    writer.append(value < 0 ? 1 : 0, width: 1)
    writer.append(magnitude, width: width - 1)
  }

  /// The four-year interval (N4: 1 for 1996–1999, at most 31 for 2116–2119) of `day` (days
  /// since 1980-01-06, Moscow); 0 outside them, which N4's five bits cannot count.
  static func interval(_ day: Int64) -> Int64 {
    guard isCounted(day) else { return 0 }
    return (day - daysToFirstInterval) / 1461 + 1
  }

  /// The day (NT, NA: 1 for the 1st of January of the interval's leap year) of `day` in its
  /// four-year interval; 0 outside the intervals N4 counts.
  static func dayOfInterval(_ day: Int64) -> Int64 {
    guard isCounted(day) else { return 0 }
    return (day - daysToFirstInterval) % 1461 + 1
  }

  /// True for a day in the 31 four-year intervals from 1996 N4 counts.
  static func isCounted(_ day: Int64) -> Bool {
    day >= daysToFirstInterval && day < daysToFirstInterval + 31 * 1461
  }
}
