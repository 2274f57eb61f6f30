import Simulation

/// Reads GPX 1.0 and 1.1: every `trk` (its segments joined) and `rte` in order, or the `wpt`
/// list when the file has neither. A point's `ele` is its altitude and its `time` its time; the
/// first `name` of a `trk` or `rte` names the route.
struct GPXRouteReader {
  private enum Captured { case elevation, time, name }

  private struct PendingPoint {
    var latitude: String?
    var longitude: String?
    var elevation: String?
    var time: String?
    let line: Int
    let depth: Int
    let isWaypoint: Bool
  }

  private let file: String
  private var point: PendingPoint?
  private var containerDepth: Int?
  private var captured: (field: Captured, depth: Int, text: String)?

  init(file: String) {
    self.file = file
  }

  /// Reads every node of `xml` and returns the route.
  mutating func read(_ xml: XMLStreamReader) throws(InputFileError) -> Route {
    var builder = RouteBuilder(file: file)
    XMLRouteDocument.walk(xml, root: "gpx", format: .gpx, builder: &builder) { xml, builder in
      self.handle(xml, &builder)
    }
    return try builder.finish(emptyMessage: "expected <trkpt>, <rtept> or <wpt> elements")
  }

  private mutating func handle(_ xml: XMLStreamReader, _ builder: inout RouteBuilder) {
    switch xml.kind {
    case .element:
      let depth = xml.depth
      if let point {
        guard depth == point.depth + 1 else { return }
        if xml.isNamed("ele") { capture(.elevation, xml) }
        if xml.isNamed("time") { capture(.time, xml) }
      } else if xml.isNamed("trk") || xml.isNamed("rte") {
        builder.beginTrack()
        containerDepth = xml.isEmptyElement ? nil : depth
      } else if xml.isNamed("trkpt") || xml.isNamed("rtept") || xml.isNamed("wpt") {
        let attributes = xml.attributes(["lat", "lon"])
        point = PendingPoint(
          latitude: attributes[0], longitude: attributes[1], line: xml.line, depth: depth,
          isWaypoint: xml.isNamed("wpt"))
        if xml.isEmptyElement { finishPoint(&builder) }
      } else if let containerDepth, depth == containerDepth + 1, xml.isNamed("name") {
        capture(.name, xml)
      }
    case .text:
      captured?.text += xml.value
    case .endElement:
      let depth = xml.depth
      if let captured, captured.depth == depth {
        store(captured.field, captured.text, &builder)
        self.captured = nil
      } else if let point, point.depth == depth {
        finishPoint(&builder)
      } else if containerDepth == depth {
        containerDepth = nil
      }
    case .documentType, .other:
      break
    }
  }

  private mutating func capture(_ field: Captured, _ xml: XMLStreamReader) {
    guard !xml.isEmptyElement else { return }
    captured = (field, xml.depth, "")
  }

  private mutating func store(_ field: Captured, _ text: String, _ builder: inout RouteBuilder) {
    switch field {
    case .elevation: point?.elevation = text
    case .time: point?.time = text
    case .name: builder.offerName(text)
    }
  }

  private mutating func finishPoint(_ builder: inout RouteBuilder) {
    guard let point else { return }
    self.point = nil
    let values = XMLRouteDocument.PointText(
      latitude: point.latitude, longitude: point.longitude, altitude: point.elevation,
      time: point.time, line: point.line)
    guard let parsed = values.parse(&builder, element: point.isWaypoint ? "wpt" : "point")
    else { return }
    builder.addPoint(
      latitude: parsed.latitude, longitude: parsed.longitude, altitude: parsed.altitude,
      time: parsed.time, at: point.line, waypoint: point.isWaypoint)
  }
}
