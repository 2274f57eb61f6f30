import UBX

/// The configuration layers of a u-blox 9 chip beyond what the emulator models: RAM (what
/// the chip runs with), BBR and flash (what it loads at the next power-up), and a transaction
/// of CFG-VALSET/VALDEL changes waiting for "apply".
///
/// A layer holds only what differs from the catalogue: RAM the values that differ from the
/// default, BBR and flash the items written to them (an item not written is absent from that
/// layer, as VALGET reports it). A handful of changed items cost a few hundred bytes per
/// device; every item of the catalogue in all three layers and a transaction as large as the
/// catalogue stay under 40 KiB (`UbloxConfigurationLayer`); the catalogue itself is shared. Items the emulator models (UART1's baud and output,
/// the rate) live in `UbloxCommandHandler`'s state instead of `ram`: their power-up values
/// are kept here, as the emulator's default layer for them.
struct UbloxConfigurationDatabase: Hashable, Sendable {
  /// One change of a transaction, applied when the transaction is.
  enum Change: Hashable, Sendable {
    case set(UBXConfigurationLayers, [UBXConfigurationItem])
    case delete(UBXConfigurationLayers, [UBXConfigurationKey])

    /// The layers this change writes.
    var layers: UBXConfigurationLayers {
      switch self {
      case .set(let layers, _), .delete(let layers, _): return layers
      }
    }

    /// The items this change sets or deletes.
    var itemCount: Int {
      switch self {
      case .set(_, let items): return items.count
      case .delete(_, let keys): return keys.count
      }
    }
  }

  /// The items the chip knows.
  static let catalogue = UBXConfigurationCatalogue.zedF9P

  /// RAM values that differ from the default, for the items the emulator does not model.
  var ram = UbloxConfigurationLayer()
  /// Items written to the battery-backed RAM layer.
  var batteryBacked = UbloxConfigurationLayer()
  /// Items written to the flash layer.
  var flash = UbloxConfigurationLayer()
  /// A transaction under way: the message that began it (VALSET or VALDEL), its layers, and
  /// the changes staged so far.
  struct Transaction: Hashable, Sendable {
    var messageType: UBXMessageType
    var layers: UBXConfigurationLayers
    var changes: [Change]
  }

  /// The transaction under way, or nil when none is.
  var transaction: Transaction?
  /// The modelled state at power-up: the default layer of the modelled items.
  var powerUpOutput: OutputSelection
  var powerUpBaud: Int
  var powerUpRate: UBXNavigationRate

  /// A chip with nothing stored beyond its defaults.
  init(powerUpOutput: OutputSelection, baud: Int, rate: UBXNavigationRate) {
    self.powerUpOutput = powerUpOutput
    powerUpBaud = baud
    powerUpRate = rate
  }

  /// The stored layer a CFG-VALGET layer number names (1 BBR, 2 flash); nil for others.
  func stored(layer: UInt8) -> UbloxConfigurationLayer? {
    switch layer {
    case 1: return batteryBacked
    case 2: return flash
    default: return nil
    }
  }

  /// Writes items to BBR and/or flash.
  mutating func store(_ items: [UBXConfigurationItem], in layers: UBXConfigurationLayers) {
    for item in items {
      if layers.contains(.batteryBacked) { batteryBacked[item.key] = item.value }
      if layers.contains(.flash) { flash[item.key] = item.value }
    }
  }

  /// Deletes items from BBR and/or flash (wildcards already expanded).
  mutating func delete(_ keys: [UBXConfigurationKey], from layers: UBXConfigurationLayers) {
    for key in keys {
      if layers.contains(.batteryBacked) { batteryBacked[key] = nil }
      if layers.contains(.flash) { flash[key] = nil }
    }
  }

  /// Sets a RAM value of an item not modelled, keeping only values that differ from the default.
  mutating func setRAM(_ item: UBXConfigurationItem) {
    let defaultValue = Self.catalogue.definition(of: item.key)?.defaultValue ?? 0
    ram[item.key] = item.value == defaultValue ? nil : item.value
  }

  /// What a power-up loads into RAM, in catalogue order: flash over the defaults, BBR over
  /// flash.
  var powerUpValues: [UBXConfigurationItem] {
    var merged = flash
    for item in batteryBacked.items { merged[item.key] = item.value }
    return merged.items
  }
}
