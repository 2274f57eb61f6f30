import Simulation
import UBX

/// Which satellite systems and signals the chip's configuration has it track, the part of
/// CFG-GNSS, CFG-SIGNAL and CFG-SBAS the emulator models: a u-blox 8 tracks the major systems
/// whose CFG-GNSS block is enabled (GPS, Galileo, BeiDou, GLONASS; at most three at once, or the
/// message is refused), a u-blox 9 those whose `CFG-SIGNAL-*_ENA` key is set and that have a
/// signal of theirs enabled (`CFG-SIGNAL-GPS_L1CA_ENA`…), each of which is a GSV group with
/// its NMEA signal ID. SBAS is tracked when its CFG-GNSS block (u-blox 8) or its
/// `CFG-SIGNAL-SBAS_ENA` and `SBAS_L1CA_ENA` keys (u-blox 9) and CFG-SBAS's mode bit "enabled"
/// (on u-blox 9 a view of `SBAS_ENA`) say so, its satellites those of CFG-SBAS's scan mask
/// (u-blox 9: `CFG-SBAS-PRNSCANMASK`; no bit set scans every PRN). A change retracks the sky
/// (`ReceiverEffect.setTracking`), so the systems turned off leave GSV, GSA, GGA's count,
/// NAV-SAT, NAV-SVINFO and the solution, and the ones turned on come in. QZSS and IMES (no
/// satellites in the emulator's sky), the channel counts, CFG-SBAS's usage and the u-blox 8
/// signal masks are stored only. On u-blox 9 a legacy CFG-GNSS sets the keys of the blocks it
/// lists (`signalItems(of:)`), as the chip translates it.
extension UbloxCommandHandler {
  /// The `CFG-SIGNAL-*_ENA` key of each system the sky has, then the keys of the signals whose
  /// GSV groups the F9P profile writes, in the order of its dialect's `signalIDs`, each with
  /// its bit in a legacy CFG-GNSS block's `sigCfgMask` (ZED-F9P interface description: GPS
  /// L1C/A and L2C, GLONASS L1 and L2, Galileo E1 and E5b, BeiDou B1I and B2I; SBAS L1C/A,
  /// which has no GSV group of its own).
  static let signalKeys:
    [(system: Constellation, enable: UInt32, signals: [UInt32], maskBits: [UInt32])] = [
      (.gps, 0x1031_001F, [0x1031_0001, 0x1031_0003], [0x01, 0x10]),
      (.glonass, 0x1031_0025, [0x1031_0018, 0x1031_001A], [0x01, 0x10]),
      (.galileo, 0x1031_0021, [0x1031_0007, 0x1031_000A], [0x01, 0x20]),
      (.beidou, 0x1031_0022, [0x1031_000D, 0x1031_000E], [0x01, 0x10]),
      (.sbas, 0x1031_0020, [0x1031_0005], [0x01]),
    ]

  /// The system of a CFG-GNSS `gnssId`, or nil for one the sky does not have.
  static func constellation(gnssID: UInt8) -> Constellation? {
    switch gnssID {
    case 0: return .gps
    case 1: return .sbas
    case 2: return .galileo
    case 3: return .beidou
    case 6: return .glonass
    default: return nil
    }
  }

  /// The systems the configuration enables, of those the sky has: SBAS only while CFG-SBAS's
  /// mode bit "enabled" is set too.
  var configuredSystems: Set<Constellation> {
    var systems: Set<Constellation>
    if firmware.hasConfigurationDatabase {
      systems = Set(configuredSignals.filter { !$0.value.isEmpty }.keys)
      let sbas = Self.signalKeys.first { $0.system == .sbas }
      let isSet = { (key: UInt32) in value(of: UBXConfigurationKey(key)) ?? 0 != 0 }
      if let sbas, isSet(sbas.enable), sbas.signals.allSatisfy(isSet) { systems.insert(.sbas) }
    } else {
      let gnss = reported(.cfgGNSS).flatMap(
        UBXGNSSConfiguration.init(payload:))
      let enabled = gnss?.blocks.filter(\.isEnabled) ?? []
      systems = Set(enabled.compactMap { Self.constellation(gnssID: $0.gnssID) })
    }
    if sbasSetting.first.map({ $0 & 1 == 0 }) ?? false { systems.remove(.sbas) }
    return systems
  }

  /// CFG-SBAS as the chip reports it (on u-blox 9 the view of its keys).
  var sbasSetting: [UInt8] { reported(.cfgSBAS) ?? [] }

  /// The sky the configuration tracks and, on u-blox 9, its rover's settings
  /// (`ReceiverCommandHandler.powerUpEffects`).
  public var powerUpEffects: [ReceiverEffect] {
    let tracking = ReceiverEffect.setTracking(configuredSystems, sbasPRNs: searchedSBASPRNs)
    guard firmware.hasConfigurationDatabase else { return [tracking] }
    return [tracking, .setRover(configuredRoverSettings), .setBase(configuredBaseSettings)]
  }

  /// The SBAS PRNs the chip searches: those of `configuredSBASPRNs` while it tracks SBAS, none
  /// otherwise.
  var searchedSBASPRNs: Set<Int> {
    configuredSystems.contains(.sbas) ? configuredSBASPRNs : []
  }

  /// The SBAS PRNs CFG-SBAS has the chip search: `scanmode1` bit n for PRN 120 + n, then
  /// `scanmode2` bit n for PRN 152 + n; with no bit set, every PRN ("auto-scan", u-blox 8 / M8
  /// receiver description, UBX-CFG-SBAS).
  var configuredSBASPRNs: Set<Int> {
    let payload = sbasSetting
    guard payload.count >= 8 else { return Set(SBASSatellite.prns) }
    var mask = UInt64(payload[3] & 0x7F) << 32
    for index in 0..<4 { mask |= UInt64(payload[4 + index]) << UInt64(8 * index) }
    guard mask != 0 else { return Set(SBASSatellite.prns) }
    return Set(SBASSatellite.prns.filter { mask >> UInt64($0 - 120) & 1 != 0 })
  }

  /// On u-blox 9, the GSV signal IDs of each enabled system: those of the profile's dialect
  /// whose signal key is set (an entry nil writes the signal field empty). SBAS has no GSV group
  /// of its own (GPS's lists it), so none.
  var configuredSignals: [Constellation: [Int?]] {
    var signals: [Constellation: [Int?]] = [:]
    for (system, enable, keys, _) in Self.signalKeys where !system.isAugmentation {
      guard value(of: UBXConfigurationKey(enable)) ?? 0 != 0 else { continue }
      let ids = profile.dialect.signalIDs[system] ?? [1]
      signals[system] = zip(ids, keys).filter { value(of: UBXConfigurationKey($0.1)) ?? 0 != 0 }
        .map(\.0)
    }
    return signals
  }

  /// On u-blox 9, the `CFG-SIGNAL-*` keys of the systems a legacy CFG-GNSS lists, which it
  /// sets in RAM: each block's enable flag its `_ENA` key, its `sigCfgMask` the keys of its
  /// signals.
  static func signalItems(of setting: UBXGNSSConfiguration) -> [UBXConfigurationItem] {
    setting.blocks.flatMap { block -> [UBXConfigurationItem] in
      guard let system = constellation(gnssID: block.gnssID),
        let (_, enable, keys, bits) = signalKeys.first(where: { $0.system == system })
      else { return [] }
      let mask = block.flags >> 16 & 0xFF
      let items =
        [(enable, block.isEnabled)] + zip(keys, bits).map { ($0.0, mask & $0.1 != 0) }
      return items.map { UBXConfigurationItem(key: UBXConfigurationKey($0.0), value: $0.1 ? 1 : 0) }
    }
  }

  /// Starts the chip tracking `systems` instead of its factory choice, as a chip whose flash
  /// holds that configuration (`--constellations`): u-blox 8's CFG-GNSS blocks enabled or not
  /// in the configuration it powers up with, u-blox 9's `_ENA` keys in flash and RAM; MON-GNSS
  /// reports them. Systems the sky does not have keep their factory setting.
  mutating func startTracking(_ systems: Set<Constellation>) {
    monitor.gnss.enabled = UbloxMonitor.systems(systems)
    if firmware.hasConfigurationDatabase {
      let items = Self.signalKeys.map { keys in
        let on: UInt64 = systems.contains(keys.system) ? 1 : 0
        return UBXConfigurationItem(key: UBXConfigurationKey(keys.enable), value: on)
      }
      configurationDatabase.store(items, in: .flash)
      for item in items { configurationDatabase.setRAM(item) }
      return
    }
    guard
      var gnss = configurationState.defaults[.cfgGNSS, 0].flatMap(
        UBXGNSSConfiguration.init(payload:))
    else { return }
    for index in gnss.blocks.indices {
      guard let system = Self.constellation(gnssID: gnss.blocks[index].gnssID) else { continue }
      gnss.blocks[index].flags &= ~1
      if systems.contains(system) { gnss.blocks[index].flags |= 1 }
    }
    configurationState.defaults[.cfgGNSS, 0] = gnss.payload
    configurationState.current[.cfgGNSS, 0] = gnss.payload
  }
}
