/// The configuration items a u-blox 9 chip knows: key, type, name and default value of each,
/// in the order of the chip's interface description (by group, then item).
///
/// One catalogue per chip is shared by every emulated device (`zedF9P`); a device keeps only
/// the values that differ from it. The table is text, one item a line (`30210001 U2
/// CFG-RATE-MEAS 1000`), parsed once on first use: about 800 items compile in a moment as a
/// string, where as many literals would not.
public struct UBXConfigurationCatalogue: Sendable {
  /// Every item, in table order.
  public let definitions: [UBXConfigurationDefinition]
  /// The index in `definitions` of each key.
  private let indexByKey: [UInt32: Int]
  /// The values allowed for the items that take fewer than their type holds, by key
  /// (`+Ranges`); an item not listed takes any value of its type.
  let allowedValues: [UInt32: [ClosedRange<UInt64>]]

  /// The ZED-F9P with firmware HPG 1.32 (`UBXConfigurationKeys+ZEDF9P.swift` gives the sources,
  /// `UBXConfigurationCatalogue+Ranges.swift` the values of its enumerations and rates).
  public static let zedF9P = UBXConfigurationCatalogue(text: zedF9PText, ranges: zedF9PRangesText)

  /// Parses a table of lines `ID TYPE NAME [DEFAULT]` and one of `NAME VALUE…` (`+Ranges`); a
  /// line that does not parse is left out (the catalogue's tests check that every line of the
  /// shipped tables parses).
  init(text: String, ranges: String = "") {
    var definitions: [UBXConfigurationDefinition] = []
    for line in text.split(separator: "\n") {
      if let definition = UBXConfigurationDefinition(line: line) { definitions.append(definition) }
    }
    self.definitions = definitions
    indexByKey = Dictionary(
      definitions.enumerated().map { ($0.element.key.rawValue, $0.offset) },
      uniquingKeysWith: { first, _ in first })
    allowedValues = Self.allowedValues(text: ranges, definitions: definitions)
  }

  /// True when the chip takes `item`: its key is known, a logical value is 0 or 1, and a
  /// restricted item's value is one its table allows.
  public func accepts(_ item: UBXConfigurationItem) -> Bool {
    guard let definition = definition(of: item.key), definition.accepts(item.value) else {
      return false
    }
    return allowedValues[item.key.rawValue]?.contains { $0.contains(item.value) } ?? true
  }

  /// The item with this key, or nil for a key the chip does not know.
  public func definition(of key: UBXConfigurationKey) -> UBXConfigurationDefinition? {
    indexByKey[key.rawValue].map { definitions[$0] }
  }

  /// The position in `definitions` of the item with this key, or nil.
  public func index(of key: UBXConfigurationKey) -> Int? {
    indexByKey[key.rawValue]
  }

  /// The item with this name (`CFG-RATE-MEAS`), or nil.
  public func definition(named name: String) -> UBXConfigurationDefinition? {
    definitions.first { $0.name == name }
  }

  /// The items a key of CFG-VALGET or CFG-VALDEL stands for: itself, or with item ID `0xfff`
  /// every item of its group, or with group `0xff` as well every item; nil for an unknown key.
  ///
  /// These are the wildcards of the interface description's configuration chapter; gpsd's
  /// ubxtool asks for `0x1fffffff` (everything) and `0x1023ffff` (group CFG-ANA).
  public func definitions(matching key: UBXConfigurationKey) -> [UBXConfigurationDefinition]? {
    guard key.isWildcard else { return definition(of: key).map { [$0] } }
    if key.group == 0xFF { return definitions }
    let group = definitions.filter { $0.key.group == key.group }
    return group.isEmpty ? nil : group
  }
}

/// One configuration item of a chip: its key, type, name and default value.
public struct UBXConfigurationDefinition: Hashable, Sendable {
  /// How an item's value reads: the letter of its type in the interface description.
  public enum Kind: Character, Sendable {
    case logical = "L"
    case unsigned = "U"
    case signed = "I"
    case bitfield = "X"
    case enumeration = "E"
    case real = "R"
  }

  public var key: UBXConfigurationKey
  public var kind: Kind
  /// The name, such as `CFG-RATE-MEAS`.
  public var name: String
  /// The default as the value's little-endian bytes read unsigned (a real's IEEE bits, a
  /// negative number's two's complement in the value's width).
  public var defaultValue: UInt64

  /// The type as the interface description writes it: `L`, `U2`, `I4`, `R8`…
  public var typeName: String {
    kind == .logical ? "L" : "\(kind.rawValue)\(key.valueByteCount ?? 0)"
  }

  /// True when `value` fits the item: a logical item takes only 0 and 1.
  public func accepts(_ value: UInt64) -> Bool {
    kind != .logical || value <= 1
  }

  /// Parses `ID TYPE NAME [DEFAULT]`; nil when a field is missing or does not fit the key's size.
  init?(line: Substring) {
    let fields = line.split(separator: " ")
    guard fields.count == 3 || fields.count == 4, let raw = UInt32(fields[0], radix: 16),
      let letter = fields[1].first, let kind = Kind(rawValue: letter)
    else { return nil }
    let key = UBXConfigurationKey(raw)
    guard let width = key.valueByteCount, (kind == .logical) == (fields[1] == "L"),
      (kind == .logical) == ((raw >> 28) & 0x07 == 1),
      kind == .logical || fields[1].dropFirst() == "\(width)"
    else { return nil }
    var value: UInt64 = 0
    if fields.count == 4 {
      guard let parsed = Self.value(fields[3], kind: kind, width: width) else { return nil }
      value = parsed
    }
    self.key = key
    self.kind = kind
    name = String(fields[2])
    defaultValue = value
  }

  /// A default written in decimal (a real with a point) as the value's bytes.
  private static func value(_ text: Substring, kind: Kind, width: Int) -> UInt64? {
    switch kind {
    case .real:
      guard let number = Double(text) else { return nil }
      return width == 4 ? UInt64(Float(number).bitPattern) : number.bitPattern
    case .signed:
      guard let number = Int64(text) else { return nil }
      let mask: UInt64 = width == 8 ? .max : (1 << UInt64(8 * width)) - 1
      return UInt64(bitPattern: number) & mask
    default:
      return UInt64(text)
    }
  }
}

extension UBXConfigurationKey {
  /// The group ID, bits 16–23 (`0x21` for CFG-RATE).
  public var group: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 16) }

  /// The item ID within the group, bits 0–11.
  public var item: UInt16 { UInt16(truncatingIfNeeded: rawValue) & 0x0FFF }

  /// True for a key asking for a whole group (item ID `0xfff`) or for everything.
  public var isWildcard: Bool { item == 0x0FFF }
}
