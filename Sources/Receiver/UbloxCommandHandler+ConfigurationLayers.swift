import UBX

/// The layers as a whole: saving RAM to BBR and flash, clearing them, and loading them at a
/// power-up (legacy CFG-CFG, and the chip's start).
extension UbloxCommandHandler {
  /// CFG-CFG on u-blox 9, for the CFG dispatch to call after checking the message: clear
  /// deletes every item from the chosen layers, save writes every RAM value that differs from
  /// the default to them, load makes RAM what a power-up would, in that order. Returns the
  /// effects of the load (the acknowledgement is the caller's).
  ///
  /// On u-blox 9 any bit of a mask stands for the whole configuration (the interface
  /// description's legacy fields reference). `deviceMask` is nil for the 12-byte message,
  /// which names BBR and flash; bit 0 is BBR, bits 1 (flash), 2 (EEPROM) and 4 (SPI flash)
  /// the flash layer.
  public mutating func applyLegacyConfigurationCommand(
    clearMask: UInt32, saveMask: UInt32, loadMask: UInt32, deviceMask: UInt8?
  ) -> [ReceiverEffect] {
    var layers: UBXConfigurationLayers = [.batteryBacked, .flash]
    if let deviceMask {
      layers = []
      if deviceMask & 0x01 != 0 { layers.insert(.batteryBacked) }
      if deviceMask & 0x16 != 0 { layers.insert(.flash) }
    }
    if clearMask != 0 {
      configurationDatabase.delete(Self.catalogue.definitions.map(\.key), from: layers)
    }
    if saveMask != 0 {
      let changed = Self.catalogue.definitions.compactMap { definition in
        let value = ramValue(of: definition)
        return value == defaultValue(of: definition)
          ? nil : UBXConfigurationItem(key: definition.key, value: value)
      }
      configurationDatabase.store(changed, in: layers)
    }
    return loadMask != 0 ? loadStoredConfiguration() : []
  }

  /// Makes RAM what a power-up would: the defaults, then flash, then BBR over them, the
  /// modelled items taking effect. A stored item the emulator cannot run (a rate or baud it
  /// lacks) is left out with a warning naming it in `refusedItems`, the rest applied; signals
  /// the chip cannot combine fall back to their system's defaults (`restoreTrackableSignals`).
  public mutating func loadStoredConfiguration() -> [ReceiverEffect] {
    let database = configurationDatabase
    configurationDatabase.ram = UbloxConfigurationLayer()
    configurationDatabase.transaction = nil
    var modelled = database.powerUpItems
    var leftOut: [UBXConfigurationItem] = []
    for item in database.powerUpValues where !modelled.set(item) {
      configurationDatabase.setRAM(item)
    }
    if !modelled.isRunnable {
      modelled = database.powerUpItems
      for item in database.powerUpValues {
        var candidate = modelled
        guard candidate.set(item) else { continue }
        if candidate.isRunnable {
          modelled = candidate
        } else {
          leftOut.append(item)
        }
      }
    }
    for item in leftOut {
      let name = Self.catalogue.definition(of: item.key)?.name ?? "\(item.key)"
      refusedItems.append(
        ChipStateError(
          line: nil,
          "item '\(Self.itemName(item.key))' (\(name)): value \(item.value) is not one the "
            + "emulator can run; it runs on \(modelled.value(of: item.key) ?? 0)"))
    }
    restoreTrackableSignals()
    return take(modelled) ?? []
  }
}
