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
  /// modelled items taking effect. When the stored values are impossible to run (a baud the
  /// emulator lacks), the modelled items keep their power-up state.
  public mutating func loadStoredConfiguration() -> [ReceiverEffect] {
    let database = configurationDatabase
    configurationDatabase.ram = UbloxConfigurationLayer()
    configurationDatabase.transaction = nil
    var modelled = ModelledItems(
      output: database.powerUpOutput, baud: database.powerUpBaud, rate: database.powerUpRate)
    for item in database.powerUpValues where !modelled.set(item) {
      configurationDatabase.setRAM(item)
    }
    if let effects = take(modelled) { return effects }
    return take(
      ModelledItems(
        output: database.powerUpOutput, baud: database.powerUpBaud, rate: database.powerUpRate))
      ?? []
  }
}
