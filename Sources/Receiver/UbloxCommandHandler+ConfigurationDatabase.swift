import UBX

/// CFG-VALSET, CFG-VALGET and CFG-VALDEL of u-blox 9 on the whole configuration database
/// (`UBXConfigurationCatalogue.zedF9P`), with its RAM, BBR, flash and default layers and its
/// transactions.
///
/// A message naming a key the chip does not know, a logical value other than 0 and 1, a value
/// an enumeration or a rate does not allow (`UBXConfigurationCatalogue+Ranges`) or leaving
/// signals enabled in a combination the chip cannot track (`+SignalCombinations`) is refused
/// with ACK-NAK as a whole, nothing applied, as the interface description says of VALSET and
/// VALGET (ZED-F9P, UBX-18010854).
/// The items the emulator models take effect through the handler's state (`+ModelledItems`);
/// every other item is stored and read back.
extension UbloxCommandHandler {
  /// The most key-value pairs a CFG-VALSET may carry, a CFG-VALGET may ask for and its answer
  /// carries; a client asks for the rest of a wildcard's items with the `position` field.
  static let valuesPerAnswer = 64

  /// The chip's items.
  static var catalogue: UBXConfigurationCatalogue { UbloxConfigurationDatabase.catalogue }

  /// CFG-VALSET: stored in the layers of its mask; RAM takes effect now, BBR and flash at the
  /// next power-up. Within a transaction the change waits for "apply". Refused, changing
  /// nothing: more than 64 pairs, a mask without a layer, an unknown key, a logical value
  /// other than 0 or 1 (interface description, UBX-CFG-VALSET), a value its item does not
  /// allow.
  mutating func setValues(_ frame: UBXFrame) -> [ReceiverEffect] {
    guard let valueSet = UBXValueSet(payload: frame.payload) else { return Self.refuse(frame) }
    let layers = valueSet.layerSet.intersection([.ram, .batteryBacked, .flash])
    let valid =
      !layers.isEmpty && valueSet.items.count <= Self.valuesPerAnswer
      && valueSet.items.allSatisfy(Self.catalogue.accepts)
    return stage(
      valid ? .set(layers, valueSet.items) : nil, layers: layers, valueSet.transaction, frame)
  }

  /// CFG-VALDEL: deletes items (a group with a wildcard key) from BBR and/or flash; refused for
  /// an unknown key or a mask naming neither.
  mutating func deleteValues(_ frame: UBXFrame) -> [ReceiverEffect] {
    guard Self.isKeyListLength(frame.payload.count) else { return refuseForLength(frame) }
    guard let request = UBXValueDelete(payload: frame.payload) else {
      return Self.refuse(frame)
    }
    let layers = request.layerSet.intersection([.batteryBacked, .flash])
    var keys: [UBXConfigurationKey]? = layers.isEmpty ? nil : []
    for key in request.keys {
      guard let matched = Self.catalogue.definitions(matching: key) else {
        keys = nil
        break
      }
      keys? += matched.map(\.key)
    }
    return stage(keys.map { .delete(layers, $0) }, layers: layers, request.transaction, frame)
  }

  /// A CFG message other than the one of the transaction under way cancels it ("any request
  /// for another UBX-CFG message type, including VALDEL and VALGET, cancels any started
  /// transaction").
  mutating func noteConfigurationMessage(_ type: UBXMessageType) {
    if configurationDatabase.transaction?.messageType != type {
      configurationDatabase.transaction = nil
    }
  }

  /// Applies a change now, or stages it in a transaction: "begin" (re)starts one, "continue"
  /// adds to it, "apply" adds and commits all of it or, when the result is impossible, none.
  /// A refused message (`change` nil, a transition without a transaction begun, layers other
  /// than the transaction's, a transaction grown past the number of known items, which the
  /// document calls its effective limit) cancels the transaction, as does a transaction-less
  /// message, which is then applied alone.
  mutating func stage(
    _ change: UbloxConfigurationDatabase.Change?, layers: UBXConfigurationLayers,
    _ transaction: UBXConfigurationTransaction, _ frame: UBXFrame
  ) -> [ReceiverEffect] {
    let open = configurationDatabase.transaction
    configurationDatabase.transaction = nil
    guard let change else { return Self.refuse(frame) }
    switch transaction {
    case .none:
      guard let effects = commit([change]) else { return Self.refuse(frame) }
      return [Self.acknowledge(frame)] + effects
    case .begin:
      configurationDatabase.transaction = UbloxConfigurationDatabase.Transaction(
        messageType: frame.messageType, layers: layers, changes: [change])
      return [Self.acknowledge(frame)]
    case .continue, .apply:
      guard var open, open.messageType == frame.messageType, open.layers == layers else {
        return Self.refuse(frame)
      }
      open.changes.append(change)
      guard open.changes.reduce(0, { $0 + $1.itemCount }) <= Self.catalogue.definitions.count
      else { return Self.refuse(frame) }
      if transaction == .continue {
        configurationDatabase.transaction = open
        return [Self.acknowledge(frame)]
      }
      guard let effects = commit(open.changes) else { return Self.refuse(frame) }
      return [Self.acknowledge(frame)] + effects
    }
  }

  /// Applies changes together: nil, changing nothing, when the RAM they leave, or a BBR or
  /// flash layer they set, is impossible (a baud or rate the emulator cannot run, signals the
  /// chip cannot combine): a stored value is checked as the power-up that loads it would be.
  mutating func commit(_ changes: [UbloxConfigurationDatabase.Change]) -> [ReceiverEffect]? {
    var database = configurationDatabase
    var modelled = ModelledItems(output: output, baud: baud, rate: rate)
    for change in changes {
      switch change {
      case .set(let layers, let items):
        database.store(items, in: layers)
        guard layers.contains(.ram) else { continue }
        for item in items where !modelled.set(item) { database.setRAM(item) }
      case .delete(let layers, let keys):
        database.delete(keys, from: layers)
      }
    }
    let stored = changes.reduce(into: UBXConfigurationLayers()) { layers, change in
      if case .set(let written, _) = change { layers.formUnion(written) }
    }
    guard Self.allowsSignals({ Self.ramValue($0, in: database) }),
      !stored.contains(.batteryBacked) || Self.canPowerUp(from: database.batteryBacked, database),
      !stored.contains(.flash) || Self.canPowerUp(from: database.flash, database),
      let effects = take(modelled)
    else { return nil }
    configurationDatabase = database
    if changes.contains(where: { !$0.layers.isDisjoint(with: [.batteryBacked, .flash]) }) {
      nonVolatileWrites += 1
    }
    return effects
  }

  /// CFG-VALGET: the values of one layer (0 RAM, 1 BBR, 2 flash, 7 default) of the keys asked
  /// for, wildcards expanded in table order, from `position` on and at most 64 of them. An item
  /// not written to BBR or flash is absent from that layer. Refused: more than 64 keys or an
  /// unknown one (interface description, UBX-CFG-VALGET), another layer, or an answer with no
  /// item at all.
  mutating func getValues(_ frame: UBXFrame) -> [ReceiverEffect] {
    guard Self.isKeyListLength(frame.payload.count) else { return refuseForLength(frame) }
    guard let request = UBXValueGet(payload: frame.payload),
      request.keys.count <= Self.valuesPerAnswer
    else { return Self.refuse(frame) }
    var definitions: [UBXConfigurationDefinition] = []
    for key in request.keys {
      guard let matched = Self.catalogue.definitions(matching: key) else {
        return Self.refuse(frame)
      }
      definitions += matched
    }
    guard let values = values(of: definitions, layer: request.layer) else {
      return Self.refuse(frame)
    }
    let page = values.dropFirst(Int(request.position)).prefix(Self.valuesPerAnswer)
    guard !page.isEmpty else { return Self.refuse(frame) }
    return [.reply(request.answer(Array(page)).bytes), Self.acknowledge(frame)]
  }

  /// The items of one VALGET layer that it holds, or nil for a layer number that is none.
  func values(of definitions: [UBXConfigurationDefinition], layer: UInt8)
    -> [UBXConfigurationItem]?
  {
    switch layer {
    case 0:
      return definitions.map { UBXConfigurationItem(key: $0.key, value: ramValue(of: $0)) }
    case 7:
      return definitions.map { UBXConfigurationItem(key: $0.key, value: defaultValue(of: $0)) }
    default:
      guard let stored = configurationDatabase.stored(layer: layer) else { return nil }
      return definitions.compactMap { definition in
        stored[definition.key].map { UBXConfigurationItem(key: definition.key, value: $0) }
      }
    }
  }

  /// The value the chip runs with: the modelled state, or what RAM holds, or the default.
  func ramValue(of definition: UBXConfigurationDefinition) -> UInt64 {
    ModelledItems(output: output, baud: baud, rate: rate).value(of: definition.key)
      ?? configurationDatabase.ram[definition.key] ?? definition.defaultValue
  }

  /// The default layer's value: the power-up state for a modelled item (the profile's output,
  /// the baud and rate the emulator was started with), the catalogue's default otherwise.
  func defaultValue(of definition: UBXConfigurationDefinition) -> UInt64 {
    configurationDatabase.powerUpItems.value(of: definition.key) ?? definition.defaultValue
  }

  /// The current value of a key, or nil for a key this chip does not know.
  func value(of key: UBXConfigurationKey) -> Int? {
    Self.catalogue.definition(of: key).map { Int(clamping: ramValue(of: $0)) }
  }

  /// Takes the modelled items' new state, with its effects (output, rate, then baud, so the
  /// acknowledgement before them still goes out at the old speed); nil when it is impossible.
  mutating func take(_ modelled: ModelledItems) -> [ReceiverEffect]? {
    guard let plan = Self.plan(modelled.rate), let pacing = modelled.pacing else { return nil }
    var effects = apply(output: modelled.output)
    if modelled.rate != rate {
      rate = modelled.rate
      effects.append(.setRate(plan))
    }
    return effects + apply(baud: pacing)
  }

  /// True for a length CFG-VALGET and CFG-VALDEL can have: a 4-byte header, then whole 4-byte
  /// keys.
  static func isKeyListLength(_ count: Int) -> Bool { count >= 4 && count % 4 == 0 }

  /// ACK-NAK for a message of a length it cannot have, noted as an input fault.
  mutating func refuseForLength(_ frame: UBXFrame) -> [ReceiverEffect] {
    refuse(frame, because: .wrongLength(frame.messageType, count: frame.payload.count))
  }
}
