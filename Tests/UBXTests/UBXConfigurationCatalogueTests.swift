import Testing

@testable import UBX

@Suite struct UBXConfigurationCatalogueTests {
  static let catalogue = UBXConfigurationCatalogue.zedF9P

  @Test func everyLineOfTheZEDF9PTableParsesAndNoKeyRepeats() {
    let lines = UBXConfigurationCatalogue.zedF9PText.split(separator: "\n")
    #expect(Self.catalogue.definitions.count == lines.count)
    #expect(Set(Self.catalogue.definitions.map(\.key)).count == lines.count)
    #expect(Set(Self.catalogue.definitions.map(\.name)).count == lines.count)
    #expect(Self.catalogue.definitions.count > 800)
  }

  @Test func aDefinitionCarriesTypeAndDefault() throws {
    let rate = try #require(Self.catalogue.definition(of: .rateMeasurement))
    #expect(rate.name == "CFG-RATE-MEAS")
    #expect(rate.typeName == "U2")
    #expect(rate.defaultValue == 1000)
    let baud = try #require(Self.catalogue.definition(named: "CFG-UART1-BAUDRATE"))
    #expect(baud.key == .uart1Baud && baud.typeName == "U4" && baud.defaultValue == 38_400)
    let flattening = try #require(Self.catalogue.definition(named: "CFG-NAVSPG-USRDAT_FLAT"))
    #expect(flattening.typeName == "R8")
    #expect(Double(bitPattern: flattening.defaultValue) == 298.257223563)
    let dynamicModel = try #require(Self.catalogue.definition(named: "CFG-NAVSPG-DYNMODEL"))
    #expect(dynamicModel.typeName == "E1" && dynamicModel.defaultValue == 0)
    #expect(Self.catalogue.definition(of: UBXConfigurationKey(0x2091_0FFE)) == nil)
  }

  /// The enumerations whose default is not their first constant, as the HPG 1.32 document's
  /// configuration defaults table gives them; every other enumeration defaults to 0.
  static let enumerationDefaults: [String: UInt64] = [
    "CFG-NAVHPG-DGNSSMODE": 3, "CFG-NAVSPG-FIXMODE": 3, "CFG-NMEA-PROTVER": 42,
    "CFG-RATE-TIMEREF": 1, "CFG-TP-PULSE_LENGTH_DEF": 1, "CFG-TP-DRSTR_TP1": 1,
    "CFG-UART1-STOPBITS": 1, "CFG-UART2-STOPBITS": 1,
  ]

  /// Some defaults of other types, from the same table: the week rollover, the odometer's COG
  /// speed, the antenna supervisor's pins, NMEA's sentences on a port the emulator does not
  /// model, the USB vendor string's first 8 characters ("u-blox A", little-endian).
  @Test func otherItemsDefaultToTheDocumentsDefaults() throws {
    let expected: [String: UInt64] = [
      "CFG-NAVSPG-WKNROLLOVER": 2208, "CFG-ODO-COGMAXSPEED": 10, "CFG-HW-ANT_SUP_SHORT_PIN": 15,
      "CFG-GEOFENCE-PIN": 3, "CFG-MSGOUT-NMEA_ID_GGA_USB": 1, "CFG-SIGNAL-QZSS_L1S_ENA": 0,
      "CFG-SBAS-PRNSCANMASK": 0x72B88, "CFG-USB-VENDOR_STR0": 0x4120_786F_6C62_2D75,
    ]
    for (name, value) in expected {
      let definition = try #require(Self.catalogue.definition(named: name), "\(name)")
      #expect(definition.defaultValue == value, "\(name)")
    }
    #expect(Self.catalogue.definition(named: "CFG-NAVSPG-USE_PPP") == nil, "not in HPG 1.32")
  }

  @Test func theEnumerationsDefaultToTheDocumentsDefaults() {
    let enumerations = Self.catalogue.definitions.filter { $0.kind == .enumeration }
    #expect(enumerations.count == 30)
    for definition in enumerations {
      let expected = Self.enumerationDefaults[definition.name] ?? 0
      #expect(definition.defaultValue == expected, "\(definition.name)")
    }
  }

  @Test func logicalItemsTakeOnlyZeroAndOne() throws {
    let item = try #require(Self.catalogue.definition(named: "CFG-ODO-USE_ODO"))
    #expect(item.accepts(0) && item.accepts(1) && !item.accepts(2))
    let rate = try #require(Self.catalogue.definition(of: .rateMeasurement))
    #expect(rate.accepts(65_535))
  }

  @Test func wildcardsStandForTheirGroupOrEverything() throws {
    let rateGroup = try #require(
      Self.catalogue.definitions(matching: UBXConfigurationKey(0x1021_FFFF)))
    #expect(rateGroup.map(\.name) == ["CFG-RATE-MEAS", "CFG-RATE-NAV", "CFG-RATE-TIMEREF"])
    let everything = try #require(
      Self.catalogue.definitions(matching: UBXConfigurationKey(0x1FFF_FFFF)))
    #expect(everything.count == Self.catalogue.definitions.count)
    #expect(Self.catalogue.definitions(matching: UBXConfigurationKey(0x10EE_FFFF)) == nil)
    #expect(Self.catalogue.definitions(matching: .uart1Baud)?.map(\.key) == [.uart1Baud])
  }

  @Test(arguments: ["30210001 U3 CFG-X", "30210001 L CFG-X", "1021000 L", "zz L CFG-X"])
  func malformedLinesAreLeftOut(line: String) {
    #expect(UBXConfigurationDefinition(line: Substring(line)) == nil)
  }

  @Test func negativeDefaultsAreTwosComplementInTheValueWidth() throws {
    let definition = try #require(
      UBXConfigurationDefinition(line: "20110015 I1 CFG-TEST-SIGNED -5"))
    #expect(definition.defaultValue == 0xFB)
  }
}
