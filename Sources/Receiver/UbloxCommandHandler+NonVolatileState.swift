import UBX

/// The battery-backed RAM and flash of a u-blox chip as a state file's records, and a power-up
/// from them (`--state-dir`).
///
/// A CFG message's value is the item `CC-II/NNNN` (class, ID, instance in hex: `06-08/0000` is
/// CFG-RATE, `06-01/f000` the CFG-MSG rates of NMEA GGA), its bytes the payload a poll returns.
/// On u-blox 9 a configuration database item is its key in 8 hex digits (`30210001`), its
/// bytes the value as CFG-VALSET carries it.
extension UbloxCommandHandler: StatefulCommandHandler {
  public var nonVolatileState: ChipState {
    var records: [ChipState.Record] = []
    let layers: [(ChipState.Layer, UbloxConfiguration?)] = [
      (.batteryBacked, configurationState.batteryBacked), (.flash, configurationState.flash),
    ]
    for (layer, configuration) in layers {
      guard let configuration else { continue }
      let slots = configuration.values.keys.sorted {
        ($0.type.messageClass, $0.type.id, $0.instance) < (
          $1.type.messageClass, $1.type.id, $1.instance
        )
      }
      for slot in slots {
        records.append(
          ChipState.Record(
            layer: layer, item: Self.itemName(slot), value: configuration.values[slot] ?? []))
      }
    }
    if firmware.hasConfigurationDatabase {
      let database: [(ChipState.Layer, UbloxConfigurationLayer)] = [
        (.batteryBacked, configurationDatabase.batteryBacked),
        (.flash, configurationDatabase.flash),
      ]
      for (layer, stored) in database {
        for item in stored.items {
          records.append(
            ChipState.Record(
              layer: layer, item: Self.itemName(item.key),
              value: Self.littleEndian(item.value, count: item.key.valueByteCount ?? 8)))
        }
      }
    }
    return ChipState(profileName: profile.name, records: records)
  }

  /// Powers up as after a hardware reset with `state` in battery-backed RAM and flash: the
  /// configuration of battery-backed RAM where it holds one, else flash's, and on u-blox 9 the
  /// database's layers over the defaults. A stored CFG message missing from a layer keeps its
  /// factory value there, except CFG-MSG, whose absence means the message is off.
  public mutating func powerUp(restoring state: ChipState) throws(ChipStateError)
    -> [ReceiverEffect]
  {
    var layers: [ChipState.Layer: UbloxConfiguration] = [:]
    var database = configurationDatabase
    database.batteryBacked = UbloxConfigurationLayer()
    database.flash = UbloxConfigurationLayer()
    refusedItems = []
    var refusedValues: [(ChipState.Record, UBXConfigurationItem)] = []
    for record in state.records {
      if let slot = Self.slot(named: record.item) {
        if let refusal = try checkStored(record, slot: slot) {
          refusedItems.append(refusal)
          continue
        }
        layers[record.layer, default: UbloxConfiguration()][slot.type, slot.instance] =
          record.value
      } else if firmware.hasConfigurationDatabase, let key = Self.key(named: record.item) {
        let item = try Self.storedItem(record, key: key)
        guard Self.catalogue.accepts(item) else {
          refusedValues.append((record, item))
          continue
        }
        database.store([item], in: record.layer == .flash ? .flash : .batteryBacked)
      } else {
        let keys = firmware.hasConfigurationDatabase ? " or a configuration key (8 hex digits)" : ""
        throw ChipStateError(
          line: record.line,
          "item '\(record.item)' (expected a CFG message and instance, CC-II/NNNN\(keys))")
      }
    }
    for (record, item) in refusedValues {
      refusedItems.append(Self.refusal(record, item, in: database))
    }
    configurationState.batteryBacked = layers[.batteryBacked].map(completed)
    configurationState.flash = layers[.flash].map(completed)
    configurationDatabase = database
    var effects = adopt(configurationState.powerUpConfiguration)
    if firmware.hasConfigurationDatabase { effects += loadStoredConfiguration() }
    return effects
  }

  /// The warning for a stored database value the chip does not take, saying what it runs on
  /// instead: the other layer's value when that layer holds one (flash under BBR, BBR over
  /// flash), else the default.
  private static func refusal(
    _ record: ChipState.Record, _ item: UBXConfigurationItem,
    in database: UbloxConfigurationDatabase
  ) -> ChipStateError {
    let name = catalogue.definition(of: item.key)?.name ?? "\(item.key)"
    let (other, otherName) =
      record.layer == .flash
      ? (database.batteryBacked[item.key], "BBR") : (database.flash[item.key], "flash")
    let used = other.map { "its \(otherName) value \($0)" } ?? "its default"
    return ChipStateError(
      line: record.line,
      "item '\(record.item)' (\(name)): value \(item.value) is not one the chip takes; "
        + "it runs on \(used)")
  }

  /// A stored layer with the factory value of each CFG message it lacks (CFG-MSG excepted).
  private func completed(_ layer: UbloxConfiguration) -> UbloxConfiguration {
    var result = layer
    for (slot, value) in configurationState.defaults.values
    where slot.type != .cfgMSG && layer[slot.type, slot.instance] == nil {
      result[slot.type, slot.instance] = value
    }
    return result
  }

  public mutating func takeRefusedItems() -> [ChipStateError] {
    defer { refusedItems.removeAll() }
    return refusedItems
  }

  /// Checks a stored CFG message value: a message this chip stores, and a value a setting of
  /// it could leave (its length, its instance, its fields' ranges). Returns why the chip
  /// leaves out a value of the right form it does not take (a field out of range, a rate it
  /// cannot run), nil when it takes it.
  ///
  /// - Throws: `ChipStateError` for a message it does not store or a value of the wrong form.
  private func checkStored(_ record: ChipState.Record, slot: UbloxConfiguration.Slot)
    throws(ChipStateError) -> ChipStateError?
  {
    let problem = { (reason: String) in
      ChipStateError(line: record.line, "item '\(record.item)': \(reason)")
    }
    let refusal = { (reason: String) in
      problem("\(reason); the chip runs on its default for \(slot.type)")
    }
    guard let entry = configurationState.catalogue.entries[slot.type], !entry.spec.section.isEmpty
    else { throw problem("\(slot.type) is not a message this chip stores") }
    if slot.type == .cfgMSG {
      guard record.value.count == 6 else {
        throw problem("\(record.value.count) bytes (expected 6, a rate for each port)")
      }
      return nil
    }
    if case .lengths = entry.spec.layout, let length = entry.defaults.values.first?.count {
      if slot.type == .cfgNAVX5, configurationState.catalogue.family == .f9,
        record.value.count == 44, slot.instance == 0
      {
        // mockgps before 2026-12-03 gave the F9P's CFG-NAVX5 version 3, 44 bytes; its keys
        // (saved beside it) hold what the record held.
        return refusal("the 44-byte CFG-NAVX5 of an earlier mockgps")
      }
      guard record.value.count == length, slot.instance == 0 else {
        throw problem(
          "\(record.value.count) bytes at instance \(slot.instance) "
            + "(expected \(length) at instance 0)")
      }
      let rate = UBXNavigationRate(payload: record.value)
      guard slot.type != .cfgRATE || rate.flatMap(Self.plan) != nil else {
        return refusal("a rate the chip cannot run")
      }
      return nil
    }
    let values: [(UInt8, [UInt8])]
    do {
      values = try entry.spec.values(of: record.value)
    } catch .outOfRange(_, let field, let value) {
      return refusal("\(field) \(value) is out of range")
    } catch {
      throw problem("\(error)")
    }
    guard values.count == 1, UInt16(values[0].0) == slot.instance else {
      throw problem("expected one value of instance \(slot.instance)")
    }
    return nil
  }

  /// A stored database item: a key the chip knows and a value of its size (whether the chip
  /// takes that value is `UBXConfigurationCatalogue.accepts(_:)`'s to say).
  private static func storedItem(_ record: ChipState.Record, key: UBXConfigurationKey)
    throws(ChipStateError) -> UBXConfigurationItem
  {
    guard let definition = catalogue.definition(of: key) else {
      throw ChipStateError(
        line: record.line, "item '\(record.item)': not a configuration key of this chip")
    }
    let size = key.valueByteCount ?? 8
    let value = record.value.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    guard record.value.count == size else {
      throw ChipStateError(
        line: record.line,
        "item '\(record.item)' (\(definition.name)): expected a value of type "
          + "\(definition.typeName), \(size) byte\(size == 1 ? "" : "s")")
    }
    return UBXConfigurationItem(key: key, value: value)
  }

  /// `06-08/0000`.
  static func itemName(_ slot: UbloxConfiguration.Slot) -> String {
    "\(ChipState.hex([slot.type.messageClass]))-\(ChipState.hex([slot.type.id]))/"
      + ChipState.hex([UInt8(slot.instance >> 8), UInt8(truncatingIfNeeded: slot.instance)])
  }

  /// `30210001`.
  static func itemName(_ key: UBXConfigurationKey) -> String {
    ChipState.hex(littleEndian(UInt64(key.rawValue), count: 4).reversed())
  }

  /// The slot an item names as `CC-II/NNNN`, or nil.
  static func slot(named item: String) -> UbloxConfiguration.Slot? {
    let utf8 = Array(item.utf8)
    guard utf8.count == 10, utf8[2] == UInt8(ascii: "-"), utf8[5] == UInt8(ascii: "/"),
      let messageClass = ChipState.bytes(Substring(item.prefix(2))),
      let id = ChipState.bytes(Substring(item.dropFirst(3).prefix(2))),
      let instance = ChipState.bytes(Substring(item.dropFirst(6)))
    else { return nil }
    return UbloxConfiguration.Slot(
      type: UBXMessageType(messageClass: messageClass[0], id: id[0]),
      instance: UInt16(instance[0]) << 8 | UInt16(instance[1]))
  }

  /// The key an item names in 8 hex digits, or nil.
  static func key(named item: String) -> UBXConfigurationKey? {
    guard item.utf8.count == 8, let bytes = ChipState.bytes(Substring(item)) else { return nil }
    return UBXConfigurationKey(bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
  }

  /// The `count` low bytes of `value`, least significant first.
  static func littleEndian(_ value: UInt64, count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }
}
