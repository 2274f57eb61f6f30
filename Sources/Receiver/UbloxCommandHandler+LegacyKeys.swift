import UBX

/// On u-blox 9, the fields of the legacy CFG-NAV5, CFG-SBAS and CFG-TP5 (`+LegacyTimePulse`)
/// that the configuration database holds are views of their keys, as the ZED-F9P interface description's table of legacy
/// message fields gives them: a poll reports the keys' values in those fields, and a setting
/// (after the message's own rules, such as CFG-NAV5's apply mask) sets the keys, so that a
/// `CFG-NAVSPG-DYNMODEL` set with VALSET is the dynamic model a CFG-NAV5 poll reports and the
/// other way round. A value a key does not take is refused whole, nothing applied. The fields
/// without a key (CFG-NAV5's drLimit, CFG-SBAS's maxSBAS) are stored as sent; CFG-NAV5's static
/// hold is CFG-MOT-GNSSSPEED_THRS and GNSSDIST_THRS.
extension UbloxCommandHandler {
  /// Bits of a legacy payload that a key holds.
  struct LegacyKeyField: Sendable {
    /// The key.
    var key: UInt32
    /// The little-endian integer of the payload the bits are in: its byte offset and width.
    var offset: Int
    var width: Int
    /// The bits in that integer: the first and how many.
    var bit = 0
    var bitCount: Int? = nil
    /// Where the bits go in the key's value.
    var keyShift = 0

    /// The number of bits.
    var count: Int { bitCount ?? width * 8 }
    /// The mask of `count` bits.
    var mask: UInt64 { count >= 64 ? .max : (1 << UInt64(count)) - 1 }
  }

  /// The fields of each legacy message that u-blox 9 keeps in keys.
  static let legacyKeyFields: [UBXMessageType: [LegacyKeyField]] = [
    .cfgNAV5: [
      LegacyKeyField(key: 0x2011_0021, offset: 2, width: 1),  // dynModel: CFG-NAVSPG-DYNMODEL
      LegacyKeyField(key: 0x2011_0011, offset: 3, width: 1),  // fixMode: FIXMODE
      LegacyKeyField(key: 0x4011_00C1, offset: 4, width: 4),  // fixedAlt: CONSTR_ALT
      LegacyKeyField(key: 0x4011_00C2, offset: 8, width: 4),  // fixedAltVar: CONSTR_ALTVAR
      LegacyKeyField(key: 0x2011_00A4, offset: 12, width: 1),  // minElev: INFIL_MINELEV
      LegacyKeyField(key: 0x3011_00B1, offset: 14, width: 2),  // pDop: OUTFIL_PDOP
      LegacyKeyField(key: 0x3011_00B2, offset: 16, width: 2),  // tDop: OUTFIL_TDOP
      LegacyKeyField(key: 0x3011_00B3, offset: 18, width: 2),  // pAcc: OUTFIL_PACC
      LegacyKeyField(key: 0x3011_00B4, offset: 20, width: 2),  // tAcc: OUTFIL_TACC
      // staticHoldThresh: CFG-MOT-GNSSSPEED_THRS.
      LegacyKeyField(key: 0x2025_0038, offset: 22, width: 1),
      LegacyKeyField(key: 0x2011_00C4, offset: 23, width: 1),  // dgnssTimeout: CONSTR_DGNSSTO
      LegacyKeyField(key: 0x2011_00AA, offset: 24, width: 1),  // cnoThreshNumSVs: INFIL_NCNOTHRS
      LegacyKeyField(key: 0x2011_00AB, offset: 25, width: 1),  // cnoThresh: INFIL_CNOTHRS
      // staticHoldMaxDist: CFG-MOT-GNSSDIST_THRS.
      LegacyKeyField(key: 0x3025_003B, offset: 28, width: 2),
      LegacyKeyField(key: 0x2011_001C, offset: 30, width: 1),  // utcStandard: UTCSTANDARD
    ],
    .cfgSBAS: [
      // mode: enabled (CFG-SIGNAL-SBAS_ENA), test (CFG-SBAS-USE_TESTMODE).
      LegacyKeyField(key: 0x1031_0020, offset: 0, width: 1, bit: 0, bitCount: 1),
      LegacyKeyField(key: 0x1036_0002, offset: 0, width: 1, bit: 1, bitCount: 1),
      // usage: range, diffCorr, integrity (CFG-SBAS-USE_RANGING, _DIFFCORR, _INTEGRITY).
      LegacyKeyField(key: 0x1036_0003, offset: 1, width: 1, bit: 0, bitCount: 1),
      LegacyKeyField(key: 0x1036_0004, offset: 1, width: 1, bit: 1, bitCount: 1),
      LegacyKeyField(key: 0x1036_0005, offset: 1, width: 1, bit: 2, bitCount: 1),
      // scanmode1 (PRN 120–151) and scanmode2 (PRN 152–158): CFG-SBAS-PRNSCANMASK.
      LegacyKeyField(key: 0x5036_0006, offset: 4, width: 4),
      LegacyKeyField(key: 0x5036_0006, offset: 3, width: 1, bitCount: 7, keyShift: 32),
    ],
  ]

  /// The legacy messages whose instances are views of keys on u-blox 9, with those instances.
  static let legacyKeyInstances: [(type: UBXMessageType, instances: [UInt16])] = [
    (.cfgNAV5, [0]), (.cfgSBAS, [0]), (.cfgTP5, [0]), (.cfgNMEA, [0]),
  ]

  /// A legacy payload as u-blox 9 reports it: `stored` with the fields its keys hold set from
  /// their current values; `stored` elsewhere, and for a message without such fields.
  func legacyView(_ type: UBXMessageType, instance: UInt16 = 0, of stored: [UInt8]?)
    -> [UInt8]?
  {
    if type == .cfgTP5 { return timePulseView(instance, of: stored) }
    if type == .cfgNMEA { return nmeaView(of: stored) }
    guard firmware.hasConfigurationDatabase, var payload = stored,
      let fields = Self.legacyKeyFields[type]
    else { return stored }
    for field in fields where field.offset + field.width <= payload.count {
      let definition = Self.catalogue.definition(of: UBXConfigurationKey(field.key))
      let keyValue = definition.map(ramValue(of:)) ?? 0
      var integer = Self.littleEndian(payload, field.offset, field.width)
      integer &= ~(field.mask << UInt64(field.bit))
      integer |= ((keyValue >> UInt64(field.keyShift)) & field.mask) << UInt64(field.bit)
      Self.write(integer, into: &payload, at: field.offset, width: field.width)
    }
    return payload
  }

  /// The keys the fields of a legacy `payload` (instance `instance`) set on u-blox 9, each
  /// once, in the order of the fields.
  static func legacyItems(_ type: UBXMessageType, instance: UInt16, from payload: [UInt8])
    -> [UBXConfigurationItem]
  {
    if type == .cfgTP5 { return timePulseItems(instance, from: payload) }
    var values: [UInt32: UInt64] = [:]
    var order: [UInt32] = []
    for field in legacyKeyFields[type] ?? [] where field.offset + field.width <= payload.count {
      let bits =
        (littleEndian(payload, field.offset, field.width) >> UInt64(field.bit)) & field.mask
      if values[field.key] == nil { order.append(field.key) }
      values[field.key, default: 0] |= bits << UInt64(field.keyShift)
    }
    return order.map {
      UBXConfigurationItem(key: UBXConfigurationKey($0), value: values[$0, default: 0])
    }
  }

  /// On u-blox 9, sets in RAM the keys of the fields of a legacy message's instances (as merged
  /// by its message's rules); nothing elsewhere.
  ///
  /// - Throws: `UBXConfigurationError.outOfRange` naming the first key that does not take its
  ///   value; then nothing is set.
  mutating func setLegacyKeys(
    _ type: UBXMessageType, from instances: [(instance: UInt16, payload: [UInt8])]
  ) throws(UBXConfigurationError) {
    guard firmware.hasConfigurationDatabase else { return }
    let items = instances.flatMap {
      Self.legacyItems(type, instance: $0.instance, from: $0.payload)
    }
    guard !items.isEmpty else { return }
    if let refused = items.first(where: { !Self.catalogue.accepts($0) }) {
      throw .outOfRange(
        type, field: Self.catalogue.definition(of: refused.key)?.name ?? "key",
        value: refused.value)
    }
    var database = configurationDatabase
    for item in items { database.setRAM(item) }
    guard Self.allowsSignals({ Self.ramValue($0, in: database) }) else {
      throw .inconsistent(type, reason: "a signal combination the chip cannot track")
    }
    configurationDatabase = database
  }

  /// The little-endian unsigned integer of `width` bytes at `offset`.
  static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> UInt64 {
    (0..<width).reduce(0) { $0 | UInt64(bytes[offset + $1]) << UInt64(8 * $1) }
  }
}
