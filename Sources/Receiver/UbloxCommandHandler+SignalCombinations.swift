import UBX

/// The signal combinations a u-blox 9 can track, which the ZED-F9P integration manual lists
/// (GNSS signal configuration): each system's second signal only with its first (GPS L2C with
/// L1C/A, GLONASS L2 with L1, Galileo E5b with E1, BeiDou B2I with B1I), and an enabled system
/// with its first signal. A CFG-VALSET or a legacy CFG-GNSS that would leave another
/// combination is refused, nothing applied.
extension UbloxCommandHandler {
  /// True when the `CFG-SIGNAL-*` values `value` gives (RAM as it would be) are a combination
  /// the chip tracks, per system of `signalKeys`.
  static func allowsSignals(_ value: (UBXConfigurationKey) -> UInt64) -> Bool {
    signalKeys.indices.allSatisfy { allowsSignals(ofSystemAt: $0, value) }
  }

  /// True when one system's values (`signalKeys[index]`) are a combination the chip tracks;
  /// SBAS's combinations are not modelled (any is taken).
  static func allowsSignals(ofSystemAt index: Int, _ value: (UBXConfigurationKey) -> UInt64)
    -> Bool
  {
    let keys = signalKeys[index]
    guard !keys.system.isAugmentation else { return true }
    let signals = keys.signals.map { value(UBXConfigurationKey($0)) != 0 }
    guard let first = signals.first else { return true }
    let enabled = value(UBXConfigurationKey(keys.enable)) != 0
    return first || (!signals.dropFirst().contains(true) && !enabled)
  }

  /// True when a stored layer (BBR or flash) holds what a power-up could run: its values over
  /// the defaults give a rate and baud the emulator runs and signals the chip combines.
  static func canPowerUp(
    from layer: UbloxConfigurationLayer, _ database: UbloxConfigurationDatabase
  ) -> Bool {
    var modelled = database.powerUpItems
    for item in layer.items { _ = modelled.set(item) }
    return modelled.isRunnable
      && allowsSignals { layer[$0] ?? catalogue.definition(of: $0)?.defaultValue ?? 0 }
  }

  /// Puts back the defaults of the signal keys of each system whose RAM values the chip
  /// cannot combine (a power-up from stored layers that each passed but not together), with a
  /// warning naming the system in `refusedItems`.
  mutating func restoreTrackableSignals() {
    for index in Self.signalKeys.indices
    where !Self.allowsSignals(ofSystemAt: index, { Self.ramValue($0, in: configurationDatabase) }) {
      let keys = Self.signalKeys[index]
      for key in [keys.enable] + keys.signals {
        configurationDatabase.ram[UBXConfigurationKey(key)] = nil
      }
      let enable = Self.catalogue.definition(of: UBXConfigurationKey(keys.enable))?.name
      let group = enable.map { $0.dropLast("ENA".count) + "*" } ?? "\(keys.system)"
      refusedItems.append(
        ChipStateError(
          line: nil,
          "the stored \(group) values are a combination of signals the chip cannot track; "
            + "it runs on their defaults"))
    }
  }

  /// The RAM value of a key in `database`, its default when RAM does not hold it.
  static func ramValue(_ key: UBXConfigurationKey, in database: UbloxConfigurationDatabase)
    -> UInt64
  {
    database.ram[key] ?? catalogue.definition(of: key)?.defaultValue ?? 0
  }
}
