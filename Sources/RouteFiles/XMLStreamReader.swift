import CLibXML2
import Glibc
import InputFiles

/// libxml2's streaming reader (`xmlTextReader`) over a file or bytes: one node at a time, so
/// memory does not grow with the file.
///
/// The parser never touches the network (`XML_PARSE_NONET`), never loads a DTD and never
/// substitutes entities (no `XML_PARSE_NOENT`); huge text nodes and deep nesting stay refused (no
/// `XML_PARSE_HUGE`). A document type declaration stops the reading: no route format has one,
/// and refusing it shuts the door on entity expansion attacks (libxml2 2.9.14 already stops a
/// "billion laughs" while reading the declarations). libxml2's first error is kept with its line.
final class XMLStreamReader {
  /// The node kinds the route readers look at (`xmlReaderTypes`).
  enum NodeKind {
    case element, endElement, text, documentType, other
  }

  private static let initialized: Void = xmlInitParser()
  /// `XML_PARSE_COMPACT` keeps short texts inside their node instead of in a buffer of their own
  /// (as `xmllint` does by default); the reader only reads the tree, never changes it.
  private static let options = Int32(
    XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOCDATA.rawValue
      | XML_PARSE_COMPACT.rawValue)

  private let reader: xmlTextReaderPtr
  private var memory: UnsafeMutableBufferPointer<CChar>?
  private let errors: ErrorBox
  /// The file libxml2 reads through `readInput`, for a file source.
  private var input: Input?

  /// A read of the file that failed (past its size cap, or the system's error): the reading
  /// stopped there.
  var failure: InputFileError? { input?.failure }
  let file: String

  /// The first error libxml2 reported, if any.
  var diagnostics: [InputDiagnostic] { errors.diagnostics }

  /// Opens a reader, or nil when libxml2 cannot make one (out of memory).
  init?(_ source: ByteSource, file: String) {
    _ = Self.initialized
    let errors = ErrorBox(file: file)
    self.errors = errors
    // Creating the reader reads the start of the document (its encoding).
    let box = Unmanaged.passUnretained(errors).toOpaque()
    mockgps_xml_capture_errors(box, Self.errorHandler)
    defer { mockgps_xml_release_errors() }
    switch source {
    case .file(let file):
      // Read through `InputFile`, which enforces its size cap on every read.
      let input = Input(file: file)
      guard
        let reader = xmlReaderForIO(
          Self.readInput, nil, Unmanaged.passUnretained(input).toOpaque(), nil, nil,
          Self.options)
      else { return nil }
      self.reader = reader
      self.input = input
    case .memory(let bytes):
      let copy = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(bytes.count, 1))
      _ = copy.initialize(from: bytes.lazy.map { CChar(bitPattern: $0) })
      guard bytes.count <= Int(Int32.max),
        let reader = xmlReaderForMemory(
          copy.baseAddress, Int32(bytes.count), nil, nil, Self.options)
      else {
        copy.deallocate()
        return nil
      }
      self.reader = reader
      memory = copy
    }
    self.file = file
    xmlTextReaderSetStructuredErrorHandler(reader, Self.errorHandler, box)
  }

  /// Gives libxml2 the next bytes of the `Input` the context points at; -1 when the read fails.
  private static let readInput: xmlInputReadCallback = { context, buffer, length in
    guard let context, let buffer, length > 0 else { return length == 0 ? 0 : -1 }
    let input = Unmanaged<Input>.fromOpaque(context).takeUnretainedValue()
    do throws(InputFileError) {
      let bytes = try input.file.bytes(at: input.offset, count: Int(length))
      bytes.withUnsafeBytes { raw in
        if let base = raw.baseAddress {
          UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: raw.count)
        }
      }
      input.offset += bytes.count
      return Int32(bytes.count)
    } catch {
      input.failure = error
      return -1
    }
  }

  /// Hands libxml2's errors to the `ErrorBox` the context points at.
  private static let errorHandler: xmlStructuredErrorFunc = { context, error in
    guard let context, let error else { return }
    Unmanaged<ErrorBox>.fromOpaque(context).takeUnretainedValue().add(error.pointee)
  }

  deinit {
    xmlFreeTextReader(reader)
    memory?.deallocate()
  }

  /// Moves to the next node: false at the end or after an error (see `diagnostics`).
  ///
  /// Errors libxml2 raises without a parser context (an encoding conversion that fails) go to
  /// its thread's global handlers, which would print them on standard error: while the reader
  /// reads, they are this reader's (`mockgps_xml_capture_errors`), and the error one of its
  /// diagnostics.
  func read() -> Bool {
    mockgps_xml_capture_errors(Unmanaged.passUnretained(errors).toOpaque(), Self.errorHandler)
    defer { mockgps_xml_release_errors() }
    let status = xmlTextReaderRead(reader)
    kind = status == 1 ? Self.kind(of: xmlTextReaderNodeType(reader)) : .other
    if status < 0 {
      if errors.diagnostics.isEmpty {
        errors.diagnostics.append(
          InputDiagnostic(InputLocation(file: file, line: parserLine), "malformed XML"))
      } else if errors.diagnostics[0].location.line == nil {
        errors.diagnostics[0].location.line = parserLine
      }
    }
    return status == 1
  }

  /// The kind of the node the reader is on.
  private(set) var kind = NodeKind.other

  private static func kind(of type: Int32) -> NodeKind {
    switch UInt32(type) {
    case XML_READER_TYPE_ELEMENT.rawValue: return .element
    case XML_READER_TYPE_END_ELEMENT.rawValue: return .endElement
    case XML_READER_TYPE_TEXT.rawValue, XML_READER_TYPE_CDATA.rawValue,
      XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue:
      return .text
    case XML_READER_TYPE_DOCUMENT_TYPE.rawValue: return .documentType
    default: return .other
    }
  }

  /// The depth of the node: 0 for the root element.
  var depth: Int { Int(xmlTextReaderDepth(reader)) }

  /// True for an element written `<x/>`, which has no end element node.
  var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }

  /// True when the node's local name (without namespace prefix) is `name`.
  func isNamed(_ name: StaticString) -> Bool {
    guard let local = xmlTextReaderConstLocalName(reader) else { return false }
    return strcmp(
      UnsafeRawPointer(local).assumingMemoryBound(to: CChar.self),
      UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
  }

  /// The node's local name.
  var localName: String {
    xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
  }

  /// The text of a text node, or of the attribute the reader is on.
  var value: String {
    xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? ""
  }

  /// Calls `body` with the UTF-8 bytes of `value`, borrowed from libxml2 without a copy.
  func withValue<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    guard let text = xmlTextReaderConstValue(reader) else {
      return body(UnsafeBufferPointer(start: nil, count: 0))
    }
    return body(UnsafeBufferPointer(start: text, count: Int(xmlStrlen(text))))
  }

  /// The line of the current node's start, from 1.
  ///
  /// Exact up to line 65534. libxml2 2.9 keeps an element's line in 16 bits; past that,
  /// `xmlGetLineNo` (with `XML_PARSE_BIG_LINES`) takes it from the next text node, which may be
  /// one line further.
  var line: Int {
    guard let node = xmlTextReaderCurrentNode(reader) else { return parserLine }
    let line = xmlGetLineNo(node)
    return line > 0 ? line : parserLine
  }

  /// The line the parser has reached, which may be ahead of the current node.
  var parserLine: Int { Int(xmlTextReaderGetParserLineNumber(reader)) }

  /// Moves from an element to its next attribute, whose name and value the reader then gives;
  /// false after the last one. `moveToElement()` goes back to the element.
  func moveToNextAttribute() -> Bool {
    xmlTextReaderMoveToNextAttribute(reader) == 1
  }

  /// Moves back from an attribute to its element.
  func moveToElement() {
    xmlTextReaderMoveToElement(reader)
  }

  /// Keeps libxml2's first error; the C callback reaches it through an opaque pointer.
  ///
  /// Well-formedness errors are fatal: libxml2 stops at the first, and the errors it reports in
  /// the same step only repeat it in other words ("AttValue: ' expected", "attributes construct
  /// error", "Couldn't find end of Start Tag").
  /// A file libxml2 reads from its start, and the first read that failed.
  private final class Input {
    /// The file.
    let file: InputFile
    /// The next byte to give libxml2.
    var offset = 0
    /// The first read that failed.
    var failure: InputFileError?

    /// Reads `file` from its start.
    init(file: InputFile) { self.file = file }
  }

  private final class ErrorBox {
    let file: String
    var diagnostics: [InputDiagnostic] = []

    init(file: String) { self.file = file }

    func add(_ error: xmlError) {
      guard error.level.rawValue >= XML_ERR_ERROR.rawValue, diagnostics.isEmpty else { return }
      // Some messages run over two lines ("Input is not proper UTF-8…\nBytes: 0xC9…").
      let message =
        error.message.map {
          String(cString: $0).split(whereSeparator: \.isNewline).map(\.trimmingWhitespace)
            .joined(separator: " ")
        } ?? "error"
      diagnostics.append(
        InputDiagnostic(
          InputLocation(file: file, line: error.line > 0 ? Int(error.line) : nil),
          "malformed XML: \(message)"))
    }
  }
}
