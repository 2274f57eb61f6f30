/// A sentence type with a table-driven field layout.
///
/// Conforming types declare `spec` once; `init(_:)` and `raw` are derived from it.
public protocol SentenceBody: Hashable, Sendable {
  /// The field layout of this type.
  static var spec: SentenceSpec<Self> { get }
  /// An empty sentence: every field absent.
  init()
  /// The talker: `GP`, `GN`, `GL`, …
  var talker: String { get set }
  /// Fields after the last known one, kept as written (some receivers append their own).
  var extraFields: [String] { get set }
  /// How many fields the sentence was read with, so that present but empty trailing fields are
  /// written again; nil writes the standard layout.
  var fieldCount: Int? { get set }
}

extension SentenceBody {
  /// Decodes a parsed sentence of this type.
  ///
  /// - Throws: `SentenceError.unexpectedType`, `.tooFewFields` or `.invalidField`.
  public init(_ raw: RawSentence) throws(SentenceError) {
    let spec = Self.spec
    guard raw.type == spec.type, (raw.talker == "P") == spec.isProprietary else {
      throw .unexpectedType(expected: spec.type, found: raw.address)
    }
    if let id = spec.proprietaryID, raw.fields.first != id {
      throw .unexpectedType(
        expected: "P\(spec.type),\(id)", found: "\(raw.address),\(raw.fields.first ?? "")")
    }
    guard raw.fields.count >= spec.minimumFields else {
      throw .tooFewFields(
        sentence: raw.address, expected: spec.minimumFields, found: raw.fields.count)
    }
    self.init()
    talker = raw.talker
    fieldCount = raw.fields.count
    var remaining = raw.fields[...]
    for field in spec.fields {
      switch field.decode(&self, remaining) {
      case .consumed(let count):
        remaining = remaining.dropFirst(count)
      case .invalid(let value):
        throw .invalidField(
          sentence: raw.address, field: field.name, value: value, expected: field.expected)
      }
    }
    extraFields = Array(remaining)
  }

  /// Parses and decodes one line of text.
  public init(parsing line: some StringProtocol) throws(SentenceError) {
    try self.init(RawSentence(parsing: line))
  }

  /// The sentence with every field encoded, as address and fields.
  ///
  /// Inlinable so that encoders in other modules get it specialized for their sentence type:
  /// unspecialized, each sentence spends most of its cost looking up generic metadata.
  @inlinable public var raw: RawSentence {
    var writer = SentenceWriter(keepingFields: true)
    writeFields(to: &writer)
    return RawSentence(address: talker + Self.spec.type, fields: writer.fields)
  }

  /// The sentence as it goes on the wire, `$`, address, fields, checksum and CR LF, written
  /// straight into one buffer: the bytes of `raw.line`, without building its fields as text.
  @inlinable public var lineBytes: [UInt8] {
    SentenceWriter.withLineRoom { room in
      var writer = SentenceWriter(startDelimiter: UInt8(ascii: "$"), room: room)
      writer.append(talker)
      writer.append(Self.spec.type)
      writeFields(to: &writer)
      return writer.finishedLine()
    }
  }

  /// Writes every field.
  ///
  /// Fields past `fieldCount` (or `standardFields`) are written up to the last one present.
  @inlinable func writeFields(to writer: inout SentenceWriter) {
    let spec = Self.spec
    let required = fieldCount ?? spec.standardFields
    let first = writer.fieldCount
    // `end` keeps what the sentence holds: up to the last present field, and absent ones while
    // fewer than `required` fields come before them.
    var end = writer.mark
    withUnsafePointer(to: self) { body in
      // Through a buffer, so that a field is read in place rather than copied with its names.
      spec.fields.withUnsafeBufferPointer { fields in
        for index in fields.indices {
          let start = writer.fieldCount - first
          if writer.write(fields[index].encoding, of: body) {
            end = writer.mark
          } else {
            writer.appendEmptyFields(fields[index].emptyWidth)
            if start < required { end = writer.mark }
          }
        }
      }
    }
    if extraFields.isEmpty {
      writer.rewind(to: end)
    } else {
      for text in extraFields { writer.appendField(text) }
    }
  }
}
