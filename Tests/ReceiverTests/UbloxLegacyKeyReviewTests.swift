import Testing
import UBX

@testable import Receiver

/// Defects the review of the F9P's legacy views found (fixed).
@Suite struct UbloxLegacyKeyReviewTests {
  typealias Cases = UbloxConfigurationTests
  typealias Frames = UbloxConfigurationFrames

  /// The HPG 1.32 table of legacy fields maps CFG-PRT's txReady (`en`, `pol`, `pin`) of the
  /// I2C and SPI ports to CFG-TXREADY-ENABLED, POLARITY and PIN (CFG-TXREADY-INTERFACE naming
  /// the port: I2C 0, SPI 1): the port they serve reports them, a block enabling TX ready on
  /// the other port moves them there.
  @Test func theTXReadyFieldOfCFGPRTIsTheTXREADYKeys() {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let set = Frames.valset([
      ("CFG-TXREADY-INTERFACE", 0), ("CFG-TXREADY-ENABLED", 1), ("CFG-TXREADY-POLARITY", 1),
      ("CFG-TXREADY-PIN", 6),
    ])
    #expect(handler.handle(.ubx(set)) == [Cases.ack(.cfgVALSET)])
    let i2c = Cases.poll(&handler, .cfgPRT, [0]) ?? []
    // en (bit 0) 1, pol (bit 1) 1, pin (bits 6…2) 6.
    #expect(i2c.count == 20 && i2c[2] & 0x7F == 0x1B)
    #expect((Cases.poll(&handler, .cfgPRT, [4]) ?? [])[2] & 1 == 0, "SPI: not served")
    // SPI's block enables TX ready on pin 9, threshold 3 (×8 bytes): the keys move to SPI.
    var spi = Cases.poll(&handler, .cfgPRT, [4]) ?? []
    let field: UInt16 = 1 | 9 << 2 | 3 << 7
    spi[2] = UInt8(field & 0xFF)
    spi[3] = UInt8(field >> 8)
    #expect(handler.handle(.ubx(UBXFrame(.cfgPRT, payload: spi))) == [Cases.ack(.cfgPRT)])
    #expect(UbloxLegacyKeysViewTests.key(&handler, "CFG-TXREADY-INTERFACE") == 1)
    #expect(UbloxLegacyKeysViewTests.key(&handler, "CFG-TXREADY-PIN") == 9)
    #expect(UbloxLegacyKeysViewTests.key(&handler, "CFG-TXREADY-THRESHOLD") == 3)
    #expect((Cases.poll(&handler, .cfgPRT, [0]) ?? [])[2] & 1 == 0, "I2C: no longer served")
    // I2C's block with TX ready off leaves SPI's alone.
    let i2cOff = Cases.poll(&handler, .cfgPRT, [0]) ?? []
    #expect(handler.handle(.ubx(UBXFrame(.cfgPRT, payload: i2cOff))) == [Cases.ack(.cfgPRT)])
    #expect(UbloxLegacyKeysViewTests.key(&handler, "CFG-TXREADY-ENABLED") == 1)
  }

  /// The build before the legacy views saved the F9P's CFG-NAVX5 as version 3 (44 bytes); a
  /// state file it wrote with CFG-CFG (ubxtool's `-p SAVE` saves every section) now stops a
  /// power-up (`mockgps run --state-dir` exited 65): the record is left out with a warning,
  /// as a stored value the chip does not take is.
  @Test func aStateWithTheFormerCFGNAVX5StillPowersUp() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    var former = [UInt8](repeating: 0, count: 44)
    former[0] = 3
    former[10] = 3
    former[11] = 32
    former[12] = 6
    former[30] = 100
    let state = ChipState(
      profileName: UbloxCommandHandlerTests.f9.name,
      records: [ChipState.Record(layer: .flash, item: "06-23/0000", value: former)])
    _ = try handler.powerUp(restoring: state)
    #expect(Cases.poll(&handler, .cfgNAVX5)?.count == 40)
  }
}
