import InputFiles
import Simulation

/// Reads KML 2.x: `LineString` coordinates (`lon,lat[,alt]` tuples), `gx:Track` (`when` and
/// `gx:coord` pairs) and `Point` placemarks with a `TimeStamp`, in document order.
///
/// Each `LineString` and `gx:Track` is a track; the timestamped `Point` placemarks together make
/// one track, so the timed points GPSBabel writes beside its untimed lines are what plays.
/// `Point` placemarks without a time are waypoints. The name of the first placemark holding a
/// line or track names the route.
struct KMLRouteReader {
  private enum Captured { case coordinates, when, coord, name }

  private struct Placemark {
    var depth: Int
    var point: (text: String, line: Int)?
    var time: String?
    var name: String?
  }

  private struct Track {
    var depth: Int
    var line: Int
    var whens: [(text: String, line: Int)] = []
    var coords: [(text: String, line: Int)] = []
  }

  private let file: String
  private var placemark: Placemark?
  private var lineStringDepth: Int?
  private var pointDepth: Int?
  private var timeStampDepth: Int?
  private var track: Track?
  private var timedPointsTrack: Int?
  private var captured: (field: Captured, depth: Int, line: Int, text: String)?

  init(file: String) {
    self.file = file
  }

  /// Reads every node of `xml` and returns the route.
  mutating func read(_ xml: XMLStreamReader) throws(InputFileError) -> Route {
    var builder = RouteBuilder(file: file)
    try XMLRouteDocument.walk(xml, root: "kml", format: .kml, builder: &builder) { xml, builder in
      self.handle(xml, &builder)
    }
    return try (consume builder).finish(
      emptyMessage: "expected <LineString>, <gx:Track> or <Point> placemarks")
  }

  private mutating func handle(_ xml: XMLStreamReader, _ builder: inout RouteBuilder) {
    let depth = xml.depth
    switch xml.kind {
    case .element:
      if xml.isNamed("Placemark") {
        placemark = xml.isEmptyElement ? nil : Placemark(depth: depth)
      } else if xml.isNamed("LineString") {
        lineStringDepth = depth
      } else if xml.isNamed("Point") {
        pointDepth = depth
      } else if xml.isNamed("TimeStamp") {
        timeStampDepth = depth
      } else if xml.isNamed("Track") {
        track = xml.isEmptyElement ? nil : Track(depth: depth, line: xml.line)
      } else if xml.isNamed("coordinates") {
        capture(.coordinates, xml)
      } else if xml.isNamed("when"), track != nil || timeStampDepth != nil {
        capture(.when, xml)
      } else if xml.isNamed("coord"), track != nil {
        capture(.coord, xml)
      } else if xml.isNamed("name"), let placemark, depth == placemark.depth + 1 {
        capture(.name, xml)
      }
    case .text:
      captured?.text += xml.value
    case .endElement:
      if let captured, captured.depth == depth {
        self.captured = nil
        store(captured.field, captured.text, line: captured.line, &builder)
      } else if track?.depth == depth {
        finishTrack(&builder)
      } else if placemark?.depth == depth {
        finishPlacemark(&builder)
      } else if lineStringDepth == depth {
        lineStringDepth = nil
      } else if pointDepth == depth {
        pointDepth = nil
      } else if timeStampDepth == depth {
        timeStampDepth = nil
      }
    case .documentType, .other:
      break
    }
  }

  private mutating func capture(_ field: Captured, _ xml: XMLStreamReader) {
    guard !xml.isEmptyElement else { return }
    captured = (field, xml.depth, xml.line, "")
  }

  private mutating func store(
    _ field: Captured, _ text: String, line: Int, _ builder: inout RouteBuilder
  ) {
    switch field {
    case .coordinates where lineStringDepth != nil:
      builder.beginTrack()
      if let name = placemark?.name { builder.offerName(name) }
      readLineString(text, line: line, &builder)
    case .coordinates where pointDepth != nil:
      placemark?.point = (text, line)
    case .coordinates: break
    case .when where track != nil: track?.whens.append((text, line))
    case .when: placemark?.time = text
    case .coord: track?.coords.append((text, line))
    case .name: placemark?.name = text
    }
  }

  /// Adds the `lon,lat[,alt]` tuples of a `LineString`, each with the line it is on.
  private func readLineString(_ text: String, line: Int, _ builder: inout RouteBuilder) {
    var tupleLine = line
    var tuple = ""
    for character in text + " " {
      if character == " " || character == "\t" || character.isNewline {
        if !tuple.isEmpty {
          add(tuple, separator: ",", time: nil, line: tupleLine, &builder, to: builder.currentTrack)
          tuple = ""
        }
        if character.isNewline { tupleLine += 1 }
      } else {
        tuple.append(character)
      }
    }
  }

  private mutating func finishTrack(_ builder: inout RouteBuilder) {
    guard let track else { return }
    self.track = nil
    guard track.whens.count == track.coords.count else {
      builder.report(
        "gx:Track has \(track.whens.count) <when> and \(track.coords.count) <gx:coord>:"
          + " expected one <when> for each <gx:coord>", at: track.line)
      return
    }
    builder.beginTrack()
    if let name = placemark?.name { builder.offerName(name) }
    for (when, coord) in zip(track.whens, track.coords) {
      let time: UTCInstant
      do { time = try RouteText.time(when.text) } catch {
        builder.report("time \(RouteText.quoted(when.text)): \(error)", at: when.line)
        continue
      }
      add(
        coord.text, separator: " ", time: time, line: coord.line, &builder, to: builder.currentTrack
      )
    }
  }

  private mutating func finishPlacemark(_ builder: inout RouteBuilder) {
    guard let placemark else { return }
    self.placemark = nil
    guard let point = placemark.point else { return }
    var time: UTCInstant?
    if let text = placemark.time {
      do { time = try RouteText.time(text) } catch {
        builder.report("time \(RouteText.quoted(text)): \(error)", at: point.line)
        return
      }
    }
    if time != nil, timedPointsTrack == nil {
      builder.beginTrack()
      timedPointsTrack = builder.currentTrack
    }
    add(
      point.text.trimmingWhitespace, separator: ",", time: time, line: point.line, &builder,
      to: time == nil ? nil : timedPointsTrack)
  }

  /// Adds one `lon,lat[,alt]` tuple (or `lon lat alt` when `separator` is a space) to a track,
  /// or to the waypoints when `track` is nil.
  private func add(
    _ tuple: String, separator: Character, time: UTCInstant?, line: Int,
    _ builder: inout RouteBuilder, to track: Int?
  ) {
    let parts =
      separator == " "
      ? tuple.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline })
      : tuple.split(separator: separator, omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3 else {
      let shape = separator == "," ? "lon,lat[,alt]" : "'lon lat alt'"
      builder.report("coordinates \(RouteText.quoted(tuple)): expected \(shape)", at: line)
      return
    }
    let names = ["longitude", "latitude", "altitude"]
    var values: [Double] = []
    for (part, name) in zip(parts, names) {
      guard let value = RouteText.number(part) else {
        builder.report(RouteText.notANumber(name, part), at: line)
        return
      }
      values.append(value)
    }
    let altitude = values.count == 3 ? values[2] : nil
    builder.addPoint(
      latitude: values[1], longitude: values[0], altitude: altitude, time: time, at: line,
      track: track)
  }
}
