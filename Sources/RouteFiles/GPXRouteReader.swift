import InputFiles
import Simulation

/// Reads GPX 1.0 and 1.1: every `trk` (its segments joined) and `rte` in order, or the `wpt`
/// list when the file has neither. A point's `ele` is its altitude and its `time` its time; the
/// first `name` of a `trk` or `rte` names the route.
struct GPXRouteReader {
  private enum Captured { case elevation, time, name }

  private let file: String
  /// The depth of the point element being read, if any; its fields are in `point`.
  private var pointDepth: Int?
  /// The point being read, kept in place (not in an optional) so that it is never copied.
  private var point = XMLRouteDocument.PointFields(line: 0)
  private var pointIsWaypoint = false
  private var containerDepth: Int?
  private var captured: (field: Captured, depth: Int)?
  /// The text of the captured element so far, kept between elements to reuse its storage.
  private var text: [UInt8] = []

  init(file: String) {
    self.file = file
  }

  /// Reads every node of `xml` and returns the route.
  mutating func read(_ xml: XMLStreamReader) throws(InputFileError) -> Route {
    var builder = RouteBuilder(file: file)
    try XMLRouteDocument.walk(xml, root: "gpx", format: .gpx, builder: &builder) { xml, builder in
      self.handle(xml, &builder)
    }
    return try (consume builder).finish(emptyMessage: "expected <trkpt>, <rtept> or <wpt> elements")
  }

  private mutating func handle(_ xml: XMLStreamReader, _ builder: inout RouteBuilder) {
    switch xml.kind {
    case .element:
      let depth = xml.depth
      if let pointDepth {
        guard depth == pointDepth + 1 else { return }
        if xml.isNamed("ele") { capture(.elevation, xml) }
        if xml.isNamed("time") { capture(.time, xml) }
      } else if xml.isNamed("trkpt") || xml.isNamed("rtept") || xml.isNamed("wpt") {
        pointIsWaypoint = xml.isNamed("wpt")
        point = Self.coordinates(xml)
        pointDepth = depth
        if xml.isEmptyElement { finishPoint(&builder) }
      } else if xml.isNamed("trk") || xml.isNamed("rte") {
        builder.beginTrack()
        containerDepth = xml.isEmptyElement ? nil : depth
      } else if let containerDepth, depth == containerDepth + 1, xml.isNamed("name") {
        capture(.name, xml)
      }
    case .text:
      if captured != nil { xml.withValue { text.append(contentsOf: $0) } }
    case .endElement:
      let depth = xml.depth
      if let captured, captured.depth == depth {
        self.captured = nil
        text.withUnsafeBufferPointer { store(captured.field, $0, &builder) }
      } else if pointDepth == depth {
        finishPoint(&builder)
      } else if containerDepth == depth {
        containerDepth = nil
      }
    case .documentType, .other:
      break
    }
  }

  /// The `lat` and `lon` attributes of the point element the reader is on, and its line.
  private static func coordinates(_ xml: XMLStreamReader) -> XMLRouteDocument.PointFields {
    var fields = XMLRouteDocument.PointFields(line: xml.line)
    while xml.moveToNextAttribute() {
      if xml.isNamed("lat") {
        fields.latitude = xml.withValue { .init(utf8: $0, required: true) }
      } else if xml.isNamed("lon") {
        fields.longitude = xml.withValue { .init(utf8: $0, required: true) }
      }
    }
    xml.moveToElement()
    return fields
  }

  private mutating func capture(_ field: Captured, _ xml: XMLStreamReader) {
    guard !xml.isEmptyElement else { return }
    captured = (field, xml.depth)
    text.removeAll(keepingCapacity: true)
  }

  private mutating func store(
    _ field: Captured, _ text: UnsafeBufferPointer<UInt8>, _ builder: inout RouteBuilder
  ) {
    switch field {
    case .elevation where pointDepth != nil: point.altitude = .init(utf8: text, required: false)
    case .time where pointDepth != nil: point.time = .init(utf8: text)
    case .elevation, .time: break
    case .name: builder.offerName(String(decoding: text, as: UTF8.self))
    }
  }

  private mutating func finishPoint(_ builder: inout RouteBuilder) {
    guard pointDepth != nil else { return }
    pointDepth = nil
    guard let parsed = point.parse(&builder, element: pointIsWaypoint ? "wpt" : "point")
    else { return }
    builder.addPoint(
      latitude: parsed.latitude, longitude: parsed.longitude, altitude: parsed.altitude,
      time: parsed.time, at: point.line, waypoint: pointIsWaypoint)
  }
}
