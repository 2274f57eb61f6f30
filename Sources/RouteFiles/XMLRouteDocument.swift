import InputFiles
import Simulation

/// What the XML route readers share: walking the document and reading a point's texts.
enum XMLRouteDocument {
  /// Reads every node of `xml` into `handle`, checking the root element and refusing a document
  /// type; then adds libxml2's own errors to the builder.
  static func walk(
    _ xml: XMLStreamReader, root: StaticString, format: RouteFormat,
    builder: inout RouteBuilder, handle: (XMLStreamReader, inout RouteBuilder) -> Void
  ) throws(InputFileError) {
    var sawRoot = false
    while !builder.isFull, xml.read() {
      switch xml.kind {
      case .documentType:
        // The declaration node has no line of its own.
        builder.report(
          InputDiagnostic(
            InputLocation(file: builder.file),
            "document type declaration (<!DOCTYPE>): not accepted in a \(format) file, whose"
              + " entities are never expanded"), order: 0)
        return
      case .element where !sawRoot:
        sawRoot = true
        guard xml.isNamed(root) else {
          builder.report(
            "root element <\(xml.localName)>: expected <\(root)> in a \(format) file",
            at: xml.line)
          return
        }
      default:
        handle(xml, &builder)
      }
    }
    // A read that failed (a file grown past the size cap) is the file's only problem.
    if let failure = xml.failure { throw failure }
    for diagnostic in xml.diagnostics {
      builder.report(diagnostic, order: diagnostic.location.line ?? Int.max)
    }
  }

  /// A number of a point as read from the file.
  enum NumberField {
    /// Not in the file (or blank, for a number that may be left out).
    case absent
    case value(Double)
    /// The text, which is not a number.
    case invalid(String)

    /// Reads `bytes`; blank text is `absent` unless the number is `required`.
    init(utf8 bytes: UnsafeBufferPointer<UInt8>, required: Bool) {
      if let value = RouteText.number(utf8: bytes) {
        self = .value(value)
      } else {
        let text = String(decoding: bytes, as: UTF8.self)
        self = !required && text.trimmingWhitespace.isEmpty ? .absent : .invalid(text)
      }
    }
  }

  /// A time of a point as read from the file.
  enum TimeField {
    case absent
    case value(UTCInstant)
    /// The text, and what is wrong with it.
    case invalid(String, ISO8601Error)

    /// Reads `bytes`.
    init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
      do { self = .value(try RouteText.time(utf8: bytes)) } catch {
        self = .invalid(String(decoding: bytes, as: UTF8.self), error)
      }
    }
  }

  /// The fields of one point as read from the file.
  struct PointFields {
    var latitude = NumberField.absent
    var longitude = NumberField.absent
    var altitude = NumberField.absent
    var time = TimeField.absent
    var line: Int

    /// The numbers and time, or nil after reporting what is wrong, in the order latitude,
    /// longitude, altitude, time.
    func parse(_ builder: inout RouteBuilder, element: String) -> (
      latitude: Double, longitude: Double, altitude: Double?, time: UTCInstant?
    )? {
      var valid = true
      func number(_ field: NumberField, _ name: String, required: Bool) -> Double? {
        switch field {
        case .value(let value): return value
        case .absent:
          if required {
            builder.report("\(element) without \(name): expected a \(name)", at: line)
            valid = false
          }
        case .invalid(let text):
          builder.report(RouteText.notANumber(name, text), at: line)
          valid = false
        }
        return nil
      }
      let latitude = number(self.latitude, "latitude", required: true)
      let longitude = number(self.longitude, "longitude", required: true)
      let altitude = number(self.altitude, "altitude", required: false)
      var time: UTCInstant?
      switch self.time {
      case .absent: break
      case .value(let instant): time = instant
      case .invalid(let text, let error):
        builder.report("time \(RouteText.quoted(text)): \(error)", at: line)
        valid = false
      }
      guard valid, let latitude, let longitude else { return nil }
      return (latitude, longitude, altitude, time)
    }
  }
}
