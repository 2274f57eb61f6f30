import UBX

/// On u-blox 9, the fields of the legacy CFG messages that the configuration database holds
/// are views of their keys, as the ZED-F9P interface description's table of legacy message
/// fields gives them (`legacyKeyFields`, `+LegacyTimePulse` for CFG-TP5,
/// `+NMEAConfiguration` for CFG-NMEA, `+LegacyGNSS` for CFG-GNSS): a poll reports the keys'
/// values in those fields, and a setting (after the message's own rules, such as CFG-NAV5's
/// and CFG-NAVX5's apply masks) sets the keys, so that a `CFG-NAVSPG-DYNMODEL` set with VALSET
/// is the dynamic model a CFG-NAV5 poll reports and the other way round. A value a key does
/// not take is refused whole, nothing applied. CFG-PRT's TX-ready field follows the one
/// interface CFG-TXREADY-* serves (`+LegacyTXReady`). Fields without a key (CFG-NAV5's drLimit,
/// CFG-SBAS's maxSBAS, CFG-PWR, the protocol masks' RTCM 2 bit) are stored as sent; UART1's
/// baud and output protocols are the handler's own (`+ReportedConfiguration`).
extension UbloxCommandHandler {
  /// Bits of a legacy payload that a key holds.
  struct LegacyKeyField: Sendable {
    /// A bit of the payload a field depends on: the field is read only when the bit has this
    /// value; and, when it `selectsKey` (CFG-TMODE3's `lla` choosing ECEF or LLH keys), also
    /// written into a view only then. Otherwise (an apply mask, CFG-ANT's `reconfig`) a view
    /// always shows the key.
    struct Condition: Sendable {
      var offset: Int
      var bit: Int
      var isSet = true
      var selectsKey = false
    }

    /// The key.
    var key: UInt32
    /// The instance of the message (CFG-PRT's port, CFG-INF's protocol) the bits are in.
    var instance: UInt16 = 0
    /// The little-endian integer of the payload the bits are in: its byte offset and width.
    var offset: Int
    var width: Int
    /// The bits in that integer: the first and how many.
    var bit = 0
    var bitCount: Int? = nil
    /// Where the bits go in the key's value.
    var keyShift = 0
    /// The bit the field depends on.
    var condition: Condition? = nil
    /// The key's value for each value of the bits, where they differ (CFG-PRT's `charLen`
    /// 3 is CFG-UART1-DATABITS 0); a value of the bits not listed is refused.
    var translation: [(bits: UInt64, key: UInt64)]? = nil
    /// False for bits a view leaves alone, which the key's value alone cannot give
    /// (CFG-GEOFENCE's fence count sets four keys).
    var isViewed = true
    /// True when 0 in the bits stands for the key's default (CFG-NAVX5's `wknRollover`).
    var zeroIsDefault = false

    /// The number of bits.
    var count: Int { bitCount ?? width * 8 }
    /// The mask of `count` bits.
    var mask: UInt64 { count >= 64 ? .max : (1 << UInt64(count)) - 1 }
    /// The field, for another instance.
    func at(_ instance: UInt16) -> LegacyKeyField {
      var copy = self
      copy.instance = instance
      return copy
    }

    /// True when `payload` holds the field and its condition, if any, is met.
    func isPresent(in payload: [UInt8], forView: Bool) -> Bool {
      guard offset + width <= payload.count else { return false }
      guard let condition, !forView || condition.selectsKey else { return true }
      guard condition.offset < payload.count else { return false }
      return (payload[condition.offset] >> UInt8(condition.bit) & 1 == 1) == condition.isSet
    }
  }

  /// The legacy messages whose instances are views of keys on u-blox 9, with those instances.
  static let legacyKeyInstances: [(type: UBXMessageType, instances: [UInt16])] =
    legacyKeyFields.keys.sorted { $0.id < $1.id }.map { type in
      (type, Set(legacyKeyFields[type, default: []].map(\.instance)).sorted())
    } + [(.cfgTP5, [0]), (.cfgNMEA, [0])]

  /// A legacy payload as u-blox 9 reports it: `stored` with the fields its keys hold set from
  /// their current values; `stored` elsewhere, and for a message without such fields.
  func legacyView(_ type: UBXMessageType, instance: UInt16 = 0, of stored: [UInt8]?)
    -> [UInt8]?
  {
    if type == .cfgTP5 { return timePulseView(instance, of: stored) }
    if type == .cfgNMEA { return nmeaView(of: stored) }
    guard firmware.hasConfigurationDatabase, let stored,
      let fields = Self.legacyKeyFields[type]
    else { return stored }
    func value(_ key: UInt32) -> UInt64 {
      Self.catalogue.definition(of: UBXConfigurationKey(key)).map(ramValue(of:)) ?? 0
    }
    var payload = Self.legacyShape(type, of: stored, value: value)
    for field in fields
    where field.instance == instance && field.isViewed
      && field.isPresent(in: payload, forView: true)
    {
      let keyBits = value(field.key) >> UInt64(field.keyShift)
      var bits = keyBits & field.mask
      if let translation = field.translation {
        guard let legacy = translation.first(where: { $0.key == keyBits })?.bits else { continue }
        bits = legacy
      }
      var integer = Self.littleEndian(payload, field.offset, field.width)
      integer &= ~(field.mask << UInt64(field.bit))
      integer |= bits << UInt64(field.bit)
      Self.write(integer, into: &payload, at: field.offset, width: field.width)
    }
    if type == .cfgPRT { payload = Self.txReadyView(instance, of: payload, value: value) }
    return Self.legacyFinish(type, payload, value: value)
  }

  /// The keys the fields of a legacy `payload` (instance `instance`) set on u-blox 9, each
  /// once, in the order of the fields.
  ///
  /// - Throws: `UBXConfigurationError.outOfRange` for bits no value of their key stands for.
  static func legacyItems(_ type: UBXMessageType, instance: UInt16, from payload: [UInt8])
    throws(UBXConfigurationError) -> [UBXConfigurationItem]
  {
    if type == .cfgTP5 { return timePulseItems(instance, from: payload) }
    let padded = type == .cfgRINV ? padded(payload, to: remoteInventoryCapacity) : payload
    var values: [UInt32: UInt64] = [:]
    var order: [UInt32] = []
    for field in legacyKeyFields[type] ?? []
    where field.instance == instance && field.isPresent(in: padded, forView: false) {
      var bits =
        (littleEndian(padded, field.offset, field.width) >> UInt64(field.bit)) & field.mask
      let definition = catalogue.definition(of: UBXConfigurationKey(field.key))
      if let translation = field.translation {
        guard let key = translation.first(where: { $0.bits == bits })?.key else {
          throw .outOfRange(type, field: definition?.name ?? "key", value: bits)
        }
        bits = key
      } else if field.zeroIsDefault, bits == 0 {
        bits = definition?.defaultValue ?? 0
      }
      if values[field.key] == nil { order.append(field.key) }
      values[field.key, default: 0] |= bits << UInt64(field.keyShift)
    }
    if type == .cfgRINV {
      order.append(remoteInventorySizeKey)
      values[remoteInventorySizeKey] = UInt64(max(payload.count - 1, 0))
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
    var items: [UBXConfigurationItem] = []
    let servedInterface = Self.ramValue(
      UBXConfigurationKey(Self.txReadyInterfaceKey), in: configurationDatabase)
    for (instance, payload) in instances {
      items += try Self.legacyItems(type, instance: instance, from: payload)
      if type == .cfgPRT {
        items += Self.txReadyItems(instance, from: payload, servedInterface: servedInterface)
      }
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

  /// `bytes` with zeros appended up to `count`.
  static func padded(_ bytes: [UInt8], to count: Int) -> [UInt8] {
    bytes + [UInt8](repeating: 0, count: max(count - bytes.count, 0))
  }
}
