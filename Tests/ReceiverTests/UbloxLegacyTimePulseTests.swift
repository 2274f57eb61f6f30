import Testing
import UBX

@testable import Receiver

/// The F9P's legacy CFG-TP5 (TIMEPULSE) is a view of the CFG-TP-* keys (the ZED-F9P interface description's
/// table of legacy message fields): its fields change key with its `isFreq` and `isLength`
/// flags, and a ratio in 2⁻³² is the percent of a DUTY key.
@Suite struct UbloxLegacyTimePulseTests {
  typealias Cases = UbloxConfigurationTests
  typealias Frames = UbloxConfigurationFrames
  typealias Keys = UbloxLegacyKeysViewTests

  /// A CFG-TP5 block.
  static func block(
    _ index: UInt8, cableDelay: Int16 = 0, frequencyOrPeriod: UInt32, locked: UInt32,
    pulse: UInt32, pulseLocked: UInt32, userDelay: Int32 = 0, flags: UInt32
  ) -> UBXFrame {
    var writer = UBXPayloadWriter()
    writer.u1(index)
    writer.u1(1)
    writer.zeros(2)
    writer.i2(cableDelay)
    writer.i2(0)
    writer.u4(frequencyOrPeriod)
    writer.u4(locked)
    writer.u4(pulse)
    writer.u4(pulseLocked)
    writer.i4(userDelay)
    writer.u4(flags)
    return UBXFrame(.cfgTP5, payload: writer.bytes)
  }

  /// The little-endian U4 at `offset`.
  static func u4(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << UInt32(8 * $1) }
  }

  @Test func aFreshF9PReportsTheTimePulseKeysDefaults() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let tp = try #require(Cases.poll(&handler, .cfgTP5, [0]))
    #expect(tp[4] == 50 && tp[5] == 0, "CFG-TP-ANT_CABLEDELAY 50 ns")
    #expect(Self.u4(tp, 8) == 1_000_000, "PERIOD_TP1, since PULSE_DEF is period")
    #expect(Self.u4(tp, 12) == 1_000_000, "PERIOD_LOCK_TP1")
    #expect(Self.u4(tp, 16) == 0, "LEN_TP1, since PULSE_LENGTH_DEF is length")
    #expect(Self.u4(tp, 20) == 100_000, "LEN_LOCK_TP1")
    // active, lockGnssFreq, lockedOtherSet, isLength, alignToTow, polarity; grid UTC (0).
    #expect(Self.u4(tp, 28) == 0x77)
  }

  @Test func aPulseByFrequencyAndDutyCycleSetsThoseKeysAndReadsBack() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    // 10 Hz at 25 % unlocked, 10 Hz at 50 % locked; active, locked set, isFreq, GPS grid,
    // cable delay -3 ns, user delay -20 ns.
    let setting = Self.block(
      0, cableDelay: -3, frequencyOrPeriod: 10, locked: 10, pulse: 1 << 30, pulseLocked: 1 << 31,
      userDelay: -20, flags: 0x01 | 0x04 | 0x08 | 1 << 7)
    #expect(handler.handle(.ubx(setting)) == [Cases.ack(.cfgTP5)])
    #expect(Keys.key(&handler, "CFG-TP-PULSE_DEF") == 1)
    #expect(Keys.key(&handler, "CFG-TP-PULSE_LENGTH_DEF") == 0)
    #expect(Keys.key(&handler, "CFG-TP-FREQ_TP1") == 10)
    #expect(Keys.key(&handler, "CFG-TP-PERIOD_TP1") == 1_000_000, "the period is not the field")
    #expect(Keys.key(&handler, "CFG-TP-DUTY_TP1") == 25.0.bitPattern)
    #expect(Keys.key(&handler, "CFG-TP-DUTY_LOCK_TP1") == 50.0.bitPattern)
    #expect(Keys.key(&handler, "CFG-TP-ANT_CABLEDELAY") == 0xFFFD)
    #expect(Keys.key(&handler, "CFG-TP-USER_DELAY_TP1") == 0xFFFF_FFEC)
    #expect(Keys.key(&handler, "CFG-TP-SYNC_GNSS_TP1") == 0)
    #expect(Keys.key(&handler, "CFG-TP-POL_TP1") == 0)
    #expect(Keys.key(&handler, "CFG-TP-TIMEGRID_TP1") == 1)
    #expect(Cases.poll(&handler, .cfgTP5, [0]) == setting.payload)
  }

  @Test func keysSetByValsetAreWhatCFGTP5Reports() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let valset = Frames.valset([
      ("CFG-TP-PERIOD_TP1", 500_000), ("CFG-TP-TP1_ENA", 0), ("CFG-TP-TIMEGRID_TP1", 4),
      ("CFG-TP-PULSE_LENGTH_DEF", 0), ("CFG-TP-DUTY_TP1", 12.5.bitPattern),
    ])
    #expect(handler.handle(.ubx(valset)) == [Cases.ack(.cfgVALSET)])
    let tp = try #require(Cases.poll(&handler, .cfgTP5, [0]))
    #expect(Self.u4(tp, 8) == 500_000)
    #expect(Self.u4(tp, 16) == 1 << 29, "12.5 % as a ratio in 2⁻³²")
    #expect(Self.u4(tp, 28) == 0x66 | 4 << 7, "not active, not isLength, Galileo's grid")
  }

  /// TIMEPULSE2 has no keys on the ZED-F9P (the HPG 1.32 document lists none): its block is
  /// stored as sent, and changes nothing of TIMEPULSE's keys.
  @Test func theSecondPulseIsStoredAsSent() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let fresh = try #require(Cases.poll(&handler, .cfgTP5, [1]))
    #expect(Self.u4(fresh, 8) == 1_000_000 && Self.u4(fresh, 28) == 0x76, "the stored default")
    let setting = Self.block(
      1, cableDelay: 50, frequencyOrPeriod: 200_000, locked: 100_000, pulse: 1_000,
      pulseLocked: 2_000, flags: 0x01 | 0x10 | 0x20 | 1 << 7)
    #expect(handler.handle(.ubx(setting)) == [Cases.ack(.cfgTP5)])
    #expect(Cases.poll(&handler, .cfgTP5, [1]) == setting.payload)
    #expect(Keys.key(&handler, "CFG-TP-PERIOD_TP1") == 1_000_000, "TIMEPULSE is left alone")
    #expect(Keys.key(&handler, "CFG-TP-TIMEGRID_TP1") == 0)
    #expect(try #require(Cases.poll(&handler, .cfgTP5, [0]))[28] == 0x77)
  }

  @Test func aGridTheKeyDoesNotTakeIsRefusedWithNothingApplied() {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let setting = Self.block(
      0, frequencyOrPeriod: 250_000, locked: 250_000, pulse: 0, pulseLocked: 100_000,
      flags: 0x77 | 6 << 7)
    #expect(handler.handle(.ubx(setting)) == [Cases.nak(.cfgTP5)], "0–5: UTC to NavIC")
    #expect(Keys.key(&handler, "CFG-TP-PERIOD_TP1") == 1_000_000)
    #expect(Keys.key(&handler, "CFG-TP-TIMEGRID_TP1") == 0)
  }

  @Test func theM8KeepsCFGTP5AsSent() {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.m8)
    let setting = Self.block(
      0, frequencyOrPeriod: 250_000, locked: 250_000, pulse: 0, pulseLocked: 100_000,
      flags: 0x77 | 7 << 7)
    #expect(handler.handle(.ubx(setting)) == [Cases.ack(.cfgTP5)])
    #expect(Cases.poll(&handler, .cfgTP5, [0]) == setting.payload)
  }

  /// A DUTY key holds any real a VALSET gives it: a CFG-TP5 poll reports one that is not a
  /// percent as the nearest ratio there is (NaN as 0), where it was a trap (a Double out of
  /// Int64's range converted).
  @Test(arguments: [
    (Double.nan, UInt32(0)), (-1e300, 0), (-5, 0), (1e300, .max), (.infinity, .max), (150, .max),
    (100, .max), (0, 0), (50, 1 << 31),
  ])
  func aDutyKeyThatIsNoPercentIsReportedAsTheNearestRatio(percent: Double, ratio: UInt32) throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let valset = Frames.valset([
      ("CFG-TP-PULSE_LENGTH_DEF", 0), ("CFG-TP-DUTY_TP1", percent.bitPattern),
      ("CFG-TP-DUTY_LOCK_TP1", percent.bitPattern),
    ])
    #expect(handler.handle(.ubx(valset)) == [Cases.ack(.cfgVALSET)])
    let tp = try #require(Cases.poll(&handler, .cfgTP5, [0]))
    #expect(Self.u4(tp, 16) == ratio && Self.u4(tp, 20) == ratio)
  }
}
