import Simulation

/// What the XML route readers share: walking the document and reading a point's texts.
enum XMLRouteDocument {
  /// Reads every node of `xml` into `handle`, checking the root element and refusing a document
  /// type; then adds libxml2's own errors to the builder.
  static func walk(
    _ xml: XMLStreamReader, root: StaticString, format: RouteFormat,
    builder: inout RouteBuilder, handle: (XMLStreamReader, inout RouteBuilder) -> Void
  ) {
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
    for diagnostic in xml.diagnostics {
      builder.report(diagnostic, order: diagnostic.location.line ?? Int.max)
    }
  }

  /// The texts of one point as found in the file.
  struct PointText {
    var latitude: String?
    var longitude: String?
    var altitude: String?
    var time: String?
    var line: Int

    /// The numbers and time, or nil after reporting what is wrong.
    func parse(_ builder: inout RouteBuilder, element: String) -> (
      latitude: Double, longitude: Double, altitude: Double?, time: UTCInstant?
    )? {
      var valid = true
      func number(_ text: String?, _ name: String, required: Bool) -> Double? {
        guard let text, !(text.trimmingWhitespace.isEmpty && !required) else {
          if required {
            builder.report("\(element) without \(name): expected a \(name)", at: line)
            valid = false
          }
          return nil
        }
        guard let value = RouteText.number(text) else {
          builder.report("\(name) \(RouteText.quoted(text)) is not a number", at: line)
          valid = false
          return nil
        }
        return value
      }
      let latitude = number(self.latitude, "latitude", required: true)
      let longitude = number(self.longitude, "longitude", required: true)
      let altitude = number(self.altitude, "altitude", required: false)
      var time: UTCInstant?
      if let text = self.time {
        do { time = try RouteText.time(text) } catch {
          builder.report("time \(RouteText.quoted(text)): \(error)", at: line)
          valid = false
        }
      }
      guard valid, let latitude, let longitude else { return nil }
      return (latitude, longitude, altitude, time)
    }
  }
}
