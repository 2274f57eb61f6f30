import UBX

/// On u-blox 9, TIMEPULSE's block of the legacy CFG-TP5 (instance 0) is a view of the CFG-TP-*
/// keys, as the ZED-F9P interface description's table of legacy message fields gives them
/// (TIMEPULSE2's, which the HPG 1.32 document gives no keys, is stored as sent). Its
/// fields change key with its flags: `freqPeriod` is CFG-TP-FREQ_TPx when `isFreq` is set
/// (CFG-TP-PULSE_DEF 1), CFG-TP-PERIOD_TPx when not; `pulseLenRatio` is CFG-TP-LEN_TPx in µs
/// when `isLength` is set (CFG-TP-PULSE_LENGTH_DEF 1), CFG-TP-DUTY_TPx otherwise, a ratio in
/// units of 2⁻³² where the key holds percent. `rfGroupDelay` and the timing chips' `syncMode` have no key
/// on the F9P: they are stored as sent.
extension UbloxCommandHandler {
  /// The keys of one time pulse.
  struct TimePulseKeys: Sendable {
    var period: UInt32
    var periodLocked: UInt32
    var frequency: UInt32
    var frequencyLocked: UInt32
    var length: UInt32
    var lengthLocked: UInt32
    var duty: UInt32
    var dutyLocked: UInt32
    var userDelay: UInt32
    /// The flags' bits 0–6 other than `isFreq` and `isLength`, by bit.
    var flags: [(bit: Int, key: UInt32)]
    /// CFG-TP-TIMEGRID_TPx: the flags' `gridUtcGnss`, bits 7–10.
    var timeGrid: UInt32

    /// TIMEPULSE (CFG-TP5 instance 0).
    static let first = TimePulseKeys(
      period: 0x4005_0002, periodLocked: 0x4005_0003, frequency: 0x4005_0024,
      frequencyLocked: 0x4005_0025, length: 0x4005_0004, lengthLocked: 0x4005_0005,
      duty: 0x5005_002A, dutyLocked: 0x5005_002B, userDelay: 0x4005_0006,
      flags: [
        (0, 0x1005_0007), (1, 0x1005_0008), (2, 0x1005_0009), (5, 0x1005_000A),
        (6, 0x1005_000B),
      ],
      timeGrid: 0x2005_000C)
    /// The keys of CFG-TP5 instance `index`: TIMEPULSE's; nil for TIMEPULSE2, which the
    /// ZED-F9P (one time pulse pin) has no keys for: its block is stored as sent.
    static func of(_ index: UInt16) -> TimePulseKeys? {
      index == 0 ? first : nil
    }
  }

  /// CFG-TP-ANT_CABLEDELAY (ns), CFG-TP-PULSE_DEF (0 period, 1 frequency) and
  /// CFG-TP-PULSE_LENGTH_DEF (0 ratio, 1 length).
  static let antennaCableDelayKey: UInt32 = 0x3005_0001
  static let pulseDefinitionKey: UInt32 = 0x2005_0023
  static let pulseLengthDefinitionKey: UInt32 = 0x2005_0030

  /// The flags' `isFreq` and `isLength` bits.
  static let isFrequencyBit: UInt32 = 1 << 3
  static let isLengthBit: UInt32 = 1 << 4

  /// A ratio of CFG-TP5 (units of 2⁻³²) as the percent a DUTY key holds, and back: a percent
  /// no ratio holds (a VALSET sets any real) as the nearest one, NaN as 0.
  static func dutyPercent(ratio: UInt32) -> Double { Double(ratio) * 100 / 4_294_967_296 }
  static func ratio(dutyPercent percent: Double) -> UInt32 {
    let scaled = (percent / 100 * 4_294_967_296).rounded()
    guard scaled > 0 else { return 0 }
    guard scaled < 4_294_967_295 else { return .max }
    return UInt32(scaled)
  }

  /// A CFG-TP5 block as u-blox 9 reports it: `stored` with the fields the keys hold set from
  /// their current values; `stored` elsewhere.
  func timePulseView(_ index: UInt16, of stored: [UInt8]?) -> [UInt8]? {
    guard firmware.hasConfigurationDatabase, var block = stored, block.count == 32,
      let keys = TimePulseKeys.of(index)
    else { return stored }
    func value(_ key: UInt32) -> UInt64 {
      Self.catalogue.definition(of: UBXConfigurationKey(key)).map(ramValue(of:)) ?? 0
    }
    let isFrequency = value(Self.pulseDefinitionKey) == 1
    let isLength = value(Self.pulseLengthDefinitionKey) == 1
    func pulse(_ lengthKey: UInt32, _ dutyKey: UInt32) -> UInt64 {
      guard !isLength else { return value(lengthKey) }
      return UInt64(Self.ratio(dutyPercent: Double(bitPattern: value(dutyKey))))
    }
    Self.write(value(Self.antennaCableDelayKey), into: &block, at: 4, width: 2)
    Self.write(value(isFrequency ? keys.frequency : keys.period), into: &block, at: 8, width: 4)
    Self.write(
      value(isFrequency ? keys.frequencyLocked : keys.periodLocked), into: &block, at: 12,
      width: 4)
    Self.write(pulse(keys.length, keys.duty), into: &block, at: 16, width: 4)
    Self.write(pulse(keys.lengthLocked, keys.dutyLocked), into: &block, at: 20, width: 4)
    Self.write(value(keys.userDelay), into: &block, at: 24, width: 4)
    var flags = UInt32(truncatingIfNeeded: Self.littleEndian(block, 28, 4)) & ~0x7FF
    for (bit, key) in keys.flags where value(key) == 1 { flags |= 1 << UInt32(bit) }
    if isFrequency { flags |= Self.isFrequencyBit }
    if isLength { flags |= Self.isLengthBit }
    flags |= UInt32(truncatingIfNeeded: value(keys.timeGrid) & 0xF) << 7
    Self.write(UInt64(flags), into: &block, at: 28, width: 4)
    return block
  }

  /// The keys a CFG-TP5 block sets on u-blox 9, in the order of its fields; none for a block
  /// of another length or instance.
  static func timePulseItems(_ index: UInt16, from block: [UInt8]) -> [UBXConfigurationItem] {
    guard block.count == 32, let keys = TimePulseKeys.of(index) else { return [] }
    let flags = UInt32(truncatingIfNeeded: littleEndian(block, 28, 4))
    let isFrequency = flags & isFrequencyBit != 0
    let isLength = flags & isLengthBit != 0
    func item(_ key: UInt32, _ value: UInt64) -> UBXConfigurationItem {
      UBXConfigurationItem(key: UBXConfigurationKey(key), value: value)
    }
    func pulse(_ offset: Int, _ lengthKey: UInt32, _ dutyKey: UInt32) -> UBXConfigurationItem {
      let raw = littleEndian(block, offset, 4)
      guard !isLength else { return item(lengthKey, raw) }
      return item(dutyKey, dutyPercent(ratio: UInt32(truncatingIfNeeded: raw)).bitPattern)
    }
    var items = [
      item(antennaCableDelayKey, littleEndian(block, 4, 2)),
      item(isFrequency ? keys.frequency : keys.period, littleEndian(block, 8, 4)),
      item(isFrequency ? keys.frequencyLocked : keys.periodLocked, littleEndian(block, 12, 4)),
      pulse(16, keys.length, keys.duty),
      pulse(20, keys.lengthLocked, keys.dutyLocked),
      item(keys.userDelay, littleEndian(block, 24, 4)),
    ]
    items += keys.flags.map { item($0.key, UInt64(flags >> UInt32($0.bit) & 1)) }
    items += [
      item(pulseDefinitionKey, isFrequency ? 1 : 0),
      item(pulseLengthDefinitionKey, isLength ? 1 : 0),
      item(keys.timeGrid, UInt64(flags >> 7 & 0xF)),
    ]
    return items
  }

  /// Writes the low `width` bytes of `value` little-endian at `offset`.
  static func write(_ value: UInt64, into bytes: inout [UInt8], at offset: Int, width: Int) {
    for index in 0..<width {
      bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt64(8 * index))
    }
  }
}
