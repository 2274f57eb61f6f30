import Receiver
import Testing

@testable import UBX

/// CFG-VALSET and the F9P's legacy CFG-GNSS refuse, whole and changing nothing, a value its
/// item does not allow (an enumeration's constants, the rates' limits) and a signal
/// combination the ZED-F9P cannot track.
@Suite struct UbloxValueValidityTests {
  /// VALSET and VALGET frames by item name.
  typealias Frames = UbloxConfigurationFrames

  /// A VALSET and whether the chip takes it.
  struct Case: CustomTestStringConvertible, Sendable {
    /// The items by name, with their values.
    let values: [(String, UInt64)]
    /// True when the chip ACKs the VALSET.
    let accepted: Bool
    var testDescription: String {
      values.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    }
  }

  /// Enumerations, rates and signal combinations, each side of the line.
  static let cases: [Case] = [
    .init(values: [("CFG-NAVSPG-DYNMODEL", 99)], accepted: false),
    .init(values: [("CFG-NAVSPG-DYNMODEL", 1)], accepted: false),
    .init(values: [("CFG-NAVSPG-DYNMODEL", 4)], accepted: true),
    // Wrist-worn is the F9P's last model; motorbike and e-scooter are other protocols'.
    .init(values: [("CFG-NAVSPG-DYNMODEL", 9)], accepted: true),
    .init(values: [("CFG-NAVSPG-DYNMODEL", 10)], accepted: false),
    .init(values: [("CFG-NAVSPG-DYNMODEL", 12)], accepted: false),
    .init(values: [("CFG-NAVSPG-UTCSTANDARD", 9)], accepted: true),
    .init(values: [("CFG-NAVSPG-UTCSTANDARD", 4)], accepted: false),
    // NavIC: a time grid for the pulse, but no time to align measurements to before 29.00.
    .init(values: [("CFG-TP-TIMEGRID_TP1", 5)], accepted: true),
    .init(values: [("CFG-TP-TIMEGRID_TP1", 6)], accepted: false),
    .init(values: [("CFG-RATE-TIMEREF", 4)], accepted: true),
    .init(values: [("CFG-RATE-TIMEREF", 5)], accepted: false),
    .init(values: [("CFG-NAVSPG-FIXMODE", 0)], accepted: false),
    .init(values: [("CFG-NMEA-PROTVER", 42)], accepted: true),
    .init(values: [("CFG-NMEA-PROTVER", 50)], accepted: false),
    .init(values: [("CFG-UART1-PARITY", 3)], accepted: false),
    // 20 ms × 10 is a 5 Hz solution the emulator could run; the chip measures every 25 ms at best.
    .init(values: [("CFG-RATE-MEAS", 20), ("CFG-RATE-NAV", 10)], accepted: false),
    .init(values: [("CFG-RATE-MEAS", 25), ("CFG-RATE-NAV", 8)], accepted: true),
    .init(
      values: [("CFG-SIGNAL-GPS_L1CA_ENA", 0), ("CFG-SIGNAL-GPS_L2C_ENA", 1)], accepted: false),
    .init(
      values: [("CFG-SIGNAL-GPS_L1CA_ENA", 0), ("CFG-SIGNAL-GPS_L2C_ENA", 0)], accepted: false),
    .init(
      values: [
        ("CFG-SIGNAL-GPS_ENA", 0), ("CFG-SIGNAL-GPS_L1CA_ENA", 0), ("CFG-SIGNAL-GPS_L2C_ENA", 0),
      ], accepted: true),
    .init(values: [("CFG-SIGNAL-GAL_E1_ENA", 0)], accepted: false),
    .init(values: [("CFG-SIGNAL-BDS_B2_ENA", 0)], accepted: true),
  ]

  @Test(arguments: cases)
  func aValueItsItemDoesNotAllowRefusesTheWholeVALSET(_ c: Case) throws {
    var handler = UbloxCommandHandler(profile: .ubloxF9P)
    // A valid item alongside: it must not be applied when the message is refused.
    let values = c.values + [("CFG-MSGOUT-UBX_NAV_PVT_UART1", 1)]
    let effects = handler.handle(.ubx(Frames.valset(values)))
    if c.accepted {
      #expect(effects.first == UbloxCommandHandlerTests.ack(.cfgVALSET))
    } else {
      #expect(effects == [UbloxCommandHandlerTests.nak(.cfgVALSET)])
      #expect(handler.output.ubx[.navPVT] == nil)
      let names = c.values.map(\.0)
      let readBack = handler.handle(.ubx(Frames.valget(names: names)))
      let defaults = names.map { Frames.catalogue.definition(named: $0)?.defaultValue }
      #expect(Frames.answer(readBack)?.map(\.value) == defaults.compactMap { $0 })
    }
  }

  @Test func everyEnumerationOfTheCatalogueHasItsConstantsAndEveryDefaultIsAllowed() {
    let catalogue = UBXConfigurationCatalogue.zedF9P
    let names = UBXConfigurationCatalogue.zedF9PRangesText.split(separator: "\n").flatMap {
      $0.split(separator: ":").last?.split(separator: " ") ?? []
    }
    #expect(names.count == 32)
    #expect(catalogue.allowedValues.count == names.count)
    for definition in catalogue.definitions where definition.kind == .enumeration {
      #expect(catalogue.allowedValues[definition.key.rawValue] != nil, "\(definition.name)")
    }
    for definition in catalogue.definitions {
      let item = UBXConfigurationItem(key: definition.key, value: definition.defaultValue)
      #expect(catalogue.accepts(item), "\(definition.name)")
    }
  }

  /// A legacy CFG-GNSS block for GPS, enabled, with a `sigCfgMask`.
  static func gps(mask: UInt32) -> UBXFrame {
    let setting = UBXGNSSConfiguration(
      hardwareChannels: 0, channelsInUse: 0xFF,
      blocks: [.init(gnssID: 0, reservedChannels: 8, maximumChannels: 16, flags: 1 | mask << 16)])
    return UBXFrame(.cfgGNSS, payload: setting.payload)
  }

  @Test(arguments: [(UInt32(0x00), false), (0x10, false), (0x01, true), (0x11, true)])
  func theF9PsLegacyCFGGNSSRefusesASignalMaskItCannotTrack(_ mask: UInt32, _ accepted: Bool) {
    var handler = UbloxCommandHandler(profile: .ubloxF9P)
    let effects = handler.handle(.ubx(Self.gps(mask: mask)))
    let answer = accepted ? UbloxCommandHandlerTests.ack : UbloxCommandHandlerTests.nak
    #expect(effects.first == answer(.cfgGNSS))
    let readBack = handler.handle(
      .ubx(Frames.valget(names: ["CFG-SIGNAL-GPS_L1CA_ENA", "CFG-SIGNAL-GPS_L2C_ENA"])))
    let expected: [UInt64] = accepted ? [UInt64(mask & 1), UInt64(mask >> 4 & 1)] : [1, 1]
    #expect(Frames.answer(readBack)?.map(\.value) == expected)
  }

  /// The legacy CFG-RATE on the F9P keeps to the limits of the keys it sets: 20 ms × 10 is a
  /// 5 Hz solution, but the chip measures every 25 ms at best.
  @Test func theF9PsLegacyCFGRATEKeepsToItsKeysLimits() {
    var handler = UbloxCommandHandler(profile: .ubloxF9P)
    let fast = UBXNavigationRate(measurementPeriodMilliseconds: 20, measurementsPerEpoch: 10)
    #expect(handler.handle(.ubx(fast.frame)) == [UbloxCommandHandlerTests.nak(.cfgRATE)])
    #expect(handler.rate.measurementPeriodMilliseconds == 1000)
    let allowed = UBXNavigationRate(measurementPeriodMilliseconds: 25, measurementsPerEpoch: 8)
    #expect(handler.handle(.ubx(allowed.frame)).first == UbloxCommandHandlerTests.ack(.cfgRATE))
  }
}
