import UBX

/// How the chip's configuration has it write NMEA, the part of CFG-NMEA (u-blox 8) and the
/// `CFG-NMEA-*` keys (u-blox 9) the emulator models: the NMEA version, the main talker, GSV under
/// the main talker, and the most satellites a GSV group lists; on u-blox 9 also the GSV signal
/// groups of the signals enabled (`+TrackedSystems`). A change switches the encoder's dialect
/// (`ReceiverEffect.setDialect`). The factory setting writes the profile's dialect, which its
/// capture fixes; NMEA 2.1 is written as 2.3 (the dialect has no 2.1, whose RMC, GLL and VTG
/// lack the mode field). The filters, the compatibility, consideration, 82-character and
/// high-precision flags, the satellite numbering and the BeiDou talker are stored only. On
/// u-blox 9 a legacy CFG-NMEA sets the keys of the fields it carries (`translateToNMEAKeys(_:)`).
extension UbloxCommandHandler {
  /// The talkers of `mainTalkerId` (CFG-NMEA) and `CFG-NMEA-MAINTALKERID`; 0 leaves the talker
  /// to the systems tracked.
  static let mainTalkers: [Int: String] = [1: "GP", 2: "GL", 3: "GN", 4: "GA", 5: "GB", 7: "GQ"]

  /// The versions of CFG-NMEA's `nmeaVersion` (hexadecimal: 0x41 is 4.1) and of
  /// `CFG-NMEA-PROTVER` (decimal: 41 is 4.1, 42 is 4.11).
  static let legacyVersions: [Int: NMEADialect.Version] = [
    0x21: .v23, 0x23: .v23, 0x40: .v40, 0x41: .v410, 0x4B: .v411,
  ]
  static let keyVersions: [Int: NMEADialect.Version] = [
    21: .v23, 23: .v23, 40: .v40, 41: .v410, 42: .v411,
  ]
  /// CFG-NMEA's `nmeaVersion` code of each `CFG-NMEA-PROTVER` value (u-blox 9: 0x4B, 4.11, is
  /// 42).
  static let legacyVersionCodes: [UInt64: UInt8] = [
    21: 0x21, 23: 0x23, 40: 0x40, 41: 0x41, 42: 0x4B,
  ]

  /// The keys of u-blox 9's NMEA settings the emulator models.
  static let protocolVersionKey = UBXConfigurationKey(0x2093_0001)
  static let maximumSatellitesKey = UBXConfigurationKey(0x2093_0002)
  static let mainTalkerKey = UBXConfigurationKey(0x2093_0031)
  static let gsvTalkerKey = UBXConfigurationKey(0x2093_0032)

  /// The dialect the configuration has the chip write.
  var configuredDialect: NMEADialect {
    var dialect = profile.dialect
    let settings: (version: Int, factoryVersion: Int, satellites: Int, main: Int, gsv: Int)
    let versions: [Int: NMEADialect.Version]
    if firmware.hasConfigurationDatabase {
      let factory = Self.catalogue.definition(of: Self.protocolVersionKey)?.defaultValue ?? 0
      settings = (
        value(of: Self.protocolVersionKey) ?? 0, Int(clamping: factory),
        value(of: Self.maximumSatellitesKey) ?? 0, value(of: Self.mainTalkerKey) ?? 0,
        value(of: Self.gsvTalkerKey) ?? 0
      )
      versions = Self.keyVersions
      dialect.signalIDs = configuredSignals
    } else {
      let factory = configurationState.catalogue.entries[.cfgNMEA]?.defaults[0] ?? []
      let current = reported(.cfgNMEA) ?? factory
      func byte(_ bytes: [UInt8], _ offset: Int) -> Int {
        offset < bytes.count ? Int(bytes[offset]) : 0
      }
      settings = (
        byte(current, 1), byte(factory, 1), byte(current, 2), byte(current, 9), byte(current, 10)
      )
      versions = Self.legacyVersions
    }
    if settings.version != settings.factoryVersion, let version = versions[settings.version] {
      dialect.version = version
    }
    dialect.mainTalker = Self.mainTalkers[settings.main]
    dialect.gsvUsesMainTalker = settings.gsv == 1
    dialect.gsvSatelliteLimit = settings.satellites > 0 ? settings.satellites : nil
    return dialect
  }

  /// On u-blox 9, the `CFG-NMEA-*` keys in RAM a legacy CFG-NMEA sets, as the chip translates
  /// it: of the fields the message carries (4 bytes: version and satellite limit; 12 and 20
  /// bytes: the talkers too), the version's code as the key's (0x40 is 40, 0x4B is 42).
  mutating func translateToNMEAKeys(_ payload: [UInt8]) {
    guard payload.count >= 4,
      let version = Self.legacyVersionCodes.first(where: { $0.value == payload[1] })?.key
    else { return }
    var items = [
      (Self.protocolVersionKey, version), (Self.maximumSatellitesKey, UInt64(payload[2])),
    ]
    if payload.count >= 12 {
      items += [(Self.mainTalkerKey, UInt64(payload[9])), (Self.gsvTalkerKey, UInt64(payload[10]))]
    }
    for (key, value) in items {
      configurationDatabase.setRAM(UBXConfigurationItem(key: key, value: value))
    }
  }

  /// On u-blox 9, CFG-NMEA as the chip reports it: `stored` with the version, satellite limit
  /// and talkers the keys hold (the other fields stored as sent).
  func nmeaView(of stored: [UInt8]?) -> [UInt8]? {
    guard firmware.hasConfigurationDatabase, var payload = stored, payload.count >= 4 else {
      return stored
    }
    let key = { (key: UBXConfigurationKey) in UInt64(clamping: value(of: key) ?? 0) }
    payload[1] = Self.legacyVersionCodes[key(Self.protocolVersionKey)] ?? payload[1]
    payload[2] = UInt8(truncatingIfNeeded: key(Self.maximumSatellitesKey))
    if payload.count >= 12 {
      payload[9] = UInt8(truncatingIfNeeded: key(Self.mainTalkerKey))
      payload[10] = UInt8(truncatingIfNeeded: key(Self.gsvTalkerKey))
    }
    return payload
  }
}
