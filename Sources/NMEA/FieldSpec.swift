/// How one named field (or a fixed group of adjacent fields) of a sentence is read and written.
///
/// Parsing and encoding both use the same `FieldSpec`, so the two directions cannot drift apart.
/// The set of field kinds is small and closed: decimal numbers, text codes, times, dates,
/// coordinates, and the repeating satellite groups of GSV.
public struct FieldSpec<Body>: Sendable {
  /// The field's name in error messages: `latitude`, `hdop`.
  public let name: String
  /// What the text must look like, for error messages: `ddmm.mmmm`.
  public let expected: String
  /// Decodes from the fields that remain and returns how many it consumed.
  let decode: @Sendable (inout Body, ArraySlice<String>) -> DecodeResult
  /// How the value's fields are written (`SentenceWriter.write(_:of:)`).
  @usableFromInline let encoding: FieldEncoding
  /// How many fields an absent value still occupies.
  @usableFromInline let emptyWidth: Int
  /// The property the field holds, for `SentenceSpec.fieldNumber(of:)`; nil for a group whose
  /// width varies (GSV's satellites), whose width says nothing of where later fields are.
  let keyPath: (AnyKeyPath & Sendable)?

  enum DecodeResult {
    case consumed(Int)
    case invalid(String)
  }

  /// Creates a field; `keyPath` is nil for a group of varying width.
  init(
    name: String, expected: String,
    decode: @escaping @Sendable (inout Body, ArraySlice<String>) -> DecodeResult,
    encoding: FieldEncoding,
    emptyWidth: Int,
    keyPath: (AnyKeyPath & Sendable)? = nil
  ) {
    self.name = name
    self.expected = expected
    self.decode = decode
    self.encoding = encoding
    self.emptyWidth = emptyWidth
    self.keyPath = keyPath
  }
}

extension FieldSpec {
  /// A field that holds one value of a type that reads and writes itself as one field.
  static func single<Value>(
    _ keyPath: WritableKeyPath<Body, Value?> & Sendable, name: String, expected: String,
    encoding: (_ offset: Int) -> FieldEncoding, parse: @escaping @Sendable (String) -> Value?
  ) -> FieldSpec {
    FieldSpec(
      name: name, expected: expected,
      decode: { body, fields in
        guard let text = fields.first else { return .consumed(0) }
        if text.isEmpty { return .consumed(1) }
        guard let value = parse(text) else { return .invalid(text) }
        body[keyPath: keyPath] = value
        return .consumed(1)
      },
      encoding: encoding(FieldEncoding.offset(of: keyPath, field: name)),
      emptyWidth: 1, keyPath: keyPath)
  }

  /// A decimal number (`1.05`, `-12.3`, `08`).
  public static func decimal(
    _ keyPath: WritableKeyPath<Body, NMEADecimal?> & Sendable, _ name: String
  ) -> FieldSpec {
    single(
      keyPath, name: name, expected: "a decimal number", encoding: FieldEncoding.decimal,
      parse: { NMEADecimal($0) })
  }

  /// A code or free text kept as written (`A`, `M`, `0000`).
  public static func text(_ keyPath: WritableKeyPath<Body, String?> & Sendable, _ name: String)
    -> FieldSpec
  {
    single(keyPath, name: name, expected: "text", encoding: FieldEncoding.text, parse: { $0 })
  }

  /// A UTC time of day, `hhmmss.ss`.
  public static func time(_ keyPath: WritableKeyPath<Body, NMEATime?> & Sendable) -> FieldSpec {
    single(
      keyPath, name: "time", expected: "hhmmss.ss", encoding: FieldEncoding.time,
      parse: { NMEATime($0) })
  }

  /// A date, `ddmmyy`.
  public static func date(_ keyPath: WritableKeyPath<Body, NMEADate?> & Sendable) -> FieldSpec {
    single(
      keyPath, name: "date", expected: "ddmmyy", encoding: FieldEncoding.date,
      parse: { NMEADate($0) })
  }

  /// A latitude or longitude: the value field and its hemisphere field.
  public static func coordinate(
    _ keyPath: WritableKeyPath<Body, NMEACoordinate?> & Sendable, _ axis: NMEACoordinate.Axis
  ) -> FieldSpec {
    let name = axis == .latitude ? "latitude" : "longitude"
    let expected = axis == .latitude ? "ddmm.mmmm and N or S" : "dddmm.mmmm and E or W"
    return FieldSpec(
      name: name, expected: expected,
      decode: { body, fields in
        let value = fields.first ?? ""
        let hemisphere = fields.dropFirst().first ?? ""
        let width = min(2, fields.count)
        if value.isEmpty && hemisphere.isEmpty { return .consumed(width) }
        guard let coordinate = NMEACoordinate(value: value, hemisphere: hemisphere, axis: axis)
        else { return .invalid("\(value),\(hemisphere)") }
        body[keyPath: keyPath] = coordinate
        return .consumed(width)
      },
      encoding: .coordinate(offset: FieldEncoding.offset(of: keyPath, field: name)),
      emptyWidth: 2, keyPath: keyPath)
  }

  /// A fixed number of decimal fields, such as the twelve satellite slots of GSA.
  public static func decimals(
    _ keyPath: WritableKeyPath<Body, [NMEADecimal?]> & Sendable, count: Int, _ name: String
  ) -> FieldSpec {
    FieldSpec(
      name: name, expected: "\(count) decimal numbers",
      decode: { body, fields in
        switch decodeDecimals(fields.prefix(count)) {
        case .success(let values):
          body[keyPath: keyPath] = values
          return .consumed(values.count)
        case .failure(let invalid):
          return .invalid(invalid.text)
        }
      },
      encoding: .decimals(offset: FieldEncoding.offset(of: keyPath, field: name), count: count),
      emptyWidth: count, keyPath: keyPath)
  }
}

/// The text of a field that is not a decimal number.
struct InvalidFieldText: Error {
  let text: String
}

/// Decodes decimal fields, empty ones as nil; fails on the first that is not a number.
func decodeDecimals(_ fields: ArraySlice<String>) -> Result<[NMEADecimal?], InvalidFieldText> {
  var values: [NMEADecimal?] = []
  for text in fields {
    if text.isEmpty {
      values.append(nil)
    } else if let value = NMEADecimal(text) {
      values.append(value)
    } else {
      return .failure(InvalidFieldText(text: text))
    }
  }
  return .success(values)
}

/// The field layout of one sentence type: its fields in order, and how many must be present.
public struct SentenceSpec<Body>: Sendable {
  /// The sentence type without talker, such as `GGA`.
  public let type: String
  /// The fewest fields (after the address) a sentence may have to be accepted.
  public let minimumFields: Int
  /// How many fields are always written; fields past these are written only when present.
  public let standardFields: Int
  /// The fields in order.
  public let fields: [FieldSpec<Body>]
  /// The first field of a proprietary sentence (`$PUBX,00,…`: talker `P`, `type` the rest of
  /// the address), which names the message (`00`): a line of another message of the same
  /// address is not this type. Nil for the standard sentences.
  public let proprietaryID: String?
  /// True for a proprietary sentence.
  public var isProprietary: Bool { proprietaryID != nil }

  /// Creates a layout.
  public init(
    type: String, minimumFields: Int, standardFields: Int, fields: [FieldSpec<Body>],
    proprietaryID: String? = nil
  ) {
    self.type = type
    self.minimumFields = minimumFields
    self.standardFields = standardFields
    self.fields = fields
    self.proprietaryID = proprietaryID
  }

  /// The number of the field that holds the property at `keyPath` (from 1, after the address:
  /// a coordinate's value field, its hemisphere is the next), or nil when no field holds it.
  ///
  /// So that code reading or writing fields in place (a replay's time shift, a passthrough's
  /// override) takes its field numbers from the table that parses and encodes them.
  public func fieldNumber(of keyPath: PartialKeyPath<Body>) -> Int? {
    var number = 1
    for field in fields {
      guard let held = field.keyPath else { return nil }
      if held as AnyKeyPath == keyPath as AnyKeyPath { return number }
      number += field.emptyWidth
    }
    return nil
  }
}
