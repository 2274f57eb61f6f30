import Foundation
import InputFiles
import RouteFiles
import Testing

@Suite struct MalformedRouteTests {
  @Test func malformedXMLNamesTheLine() {
    let text = "<gpx>\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\">\n</trk>\n</gpx>\n"
    let found = diagnostics { try parse(text, name: "m.gpx") }
    #expect(found.count == 1)
    #expect(found.first?.hasPrefix("m.gpx:4: malformed XML: ") == true)
  }

  /// libxml2 writes this one over two lines; a diagnostic is one line.
  @Test func bytesThatAreNotUTF8AreOneLine() {
    let bytes = Array("<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>".utf8) + [0xC9, 0xCC, 0xC8, 0xCF]
    let found = diagnostics { try RouteFile.parse(bytes: bytes, name: "u.gpx") }
    #expect(
      found == [
        "u.gpx:2: malformed XML: Input is not proper UTF-8, indicate encoding ! Bytes: 0xC9 0xCC"
          + " 0xC8 0xCF"
      ])
  }

  /// A conversion from the declared encoding that fails is raised by libxml2 without a parser
  /// (it printed "encoding error : …" on standard error): it is the file's diagnostic too.
  @Test func bytesTheDeclaredEncodingCannotConvertAreTheDiagnostic() {
    let bytes =
      Array(
        "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<gpx><wpt lat=\"1\" lon=\"2\"><name>".utf8)
      + [0xFF, 0xFE, 0x80, 0x81] + Array("</name></wpt></gpx>\n".utf8)
    let found = diagnostics { try RouteFile.parse(bytes: bytes, name: "e.gpx") }
    #expect(
      found == [
        "e.gpx:2: malformed XML: input conversion failed due to input error, bytes 0xFF 0xFE"
          + " 0x80 0x81"
      ])
  }

  @Test(arguments: ["garmin-activity.gpx", "cerknicko-jezero.kml", "sample-gx-track.kml"])
  func aTruncatedFileIsRefusedWithALine(_ file: String) throws {
    let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: fixturePath(file))))
    for cut in [60, 700, bytes.count / 3, bytes.count / 2, bytes.count - 8] {
      let found = diagnostics { try RouteFile.parse(bytes: bytes.prefix(cut), name: file) }
      #expect(found.count == 1, "cut at \(cut)")
      #expect(found.first?.contains("malformed XML") == true, "cut at \(cut): \(found)")
      #expect(found.first?.hasPrefix("\(file):") == true)
    }
  }

  @Test func everyBadPointIsReportedInFileOrder() {
    let text = """
      <?xml version="1.0"?>
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
      <trkpt lat="91" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
      <trkpt lat="1" lon="NaN"><time>2020-01-01T00:00:01Z</time></trkpt>
      <trkpt lat="1" lon="2"><ele>1e6</ele><time>2020-01-01T00:00:02Z</time></trkpt>
      <trkpt lon="2"><time>2020-01-01T00:00:03Z</time></trkpt>
      <trkpt lat="1" lon="2"><time>2020-01-01T00:00:05Z</time></trkpt>
      <trkpt lat="1" lon="2"><time>2020-01-01T00:00:04Z</time></trkpt>
      <trkpt lat="1" lon="2"><time>2020-13-01T00:00:04Z</time></trkpt>
      </trkseg></trk></gpx>
      """
    #expect(
      diagnostics { try parse(text, name: "b.gpx") } == [
        "b.gpx:3: latitude 91.0 is outside -90...90",
        "b.gpx:4: longitude 'NaN' is not a number",
        "b.gpx:5: altitude 1000000.0 is outside -1000...100000 m",
        "b.gpx:6: point without latitude: expected a latitude",
        "b.gpx:8: time 2020-01-01T00:00:04Z is before the previous point's"
          + " 2020-01-01T00:00:05Z",
        "b.gpx:9: time '2020-13-01T00:00:04Z': month 13 is outside 1...12",
      ])
  }

  @Test func aTrackMixingTimedAndUntimedPointsIsRefused() {
    let text = """
      <gpx><trk><trkseg>
      <trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
      <trkpt lat="1" lon="3"/>
      </trkseg></trk></gpx>
      """
    #expect(
      diagnostics { try parse(text, name: "x.gpx") } == [
        "x.gpx:3: track mixes 1 timed and 1 untimed points: every point of a track needs a"
          + " time, or none"
      ])
  }

  @Test func aTrackNeedsOneWhenForEachCoord() {
    let text = """
      <kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark>
      <gx:Track><when>2020-01-01T00:00:00Z</when>
      <gx:coord>1 2 3</gx:coord><gx:coord>1 2 4</gx:coord></gx:Track>
      </Placemark></kml>
      """
    #expect(
      diagnostics { try parse(text, name: "t.kml") } == [
        "t.kml:2: gx:Track has 1 <when> and 2 <gx:coord>: expected one <when> for each"
          + " <gx:coord>"
      ])
  }

  @Test func equalTimesKeepTheFirstPoint() throws {
    let text = """
      <gpx><trk><trkseg>
      <trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
      <trkpt lat="1" lon="3"><time>2020-01-01T00:00:00Z</time></trkpt>
      <trkpt lat="1" lon="4"><time>2020-01-01T00:00:01Z</time></trkpt>
      </trkseg></trk></gpx>
      """
    #expect(try parse(text, name: "e.gpx").points.map(\.position.longitude) == [2, 4])
  }

  @Test func onePointIsARoute() throws {
    #expect(try parse("<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>", name: "w.gpx").points.count == 1)
  }

  @Test func emptyTracksAndFilesHaveNoPoints() {
    #expect(
      diagnostics { try parse("<gpx><trk><trkseg/></trk></gpx>", name: "e.gpx") } == [
        "e.gpx: no points: expected <trkpt>, <rtept> or <wpt> elements"
      ])
    #expect(
      diagnostics { try parse("<kml><Document/></kml>", name: "e.kml") } == [
        "e.kml: no points: expected <LineString>, <gx:Track> or <Point> placemarks"
      ])
    #expect(
      diagnostics { try parse(" \n", name: "e.gpx") } == ["e.gpx: no points: the file is empty"])
  }

  @Test func aDocumentTypeIsRefused() {
    let text =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY x \"1\">]>\n<gpx><wpt lat=\"&x;\" lon=\"2\"/></gpx>"
    #expect(
      diagnostics { try parse(text, name: "d.gpx") } == [
        "d.gpx: document type declaration (<!DOCTYPE>): not accepted in a GPX file, whose"
          + " entities are never expanded"
      ])
  }

  @Test func billionLaughsAreRefused() {
    var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\n<!ENTITY a \"aaaaaaaaaa\">\n"
    for level in 1...9 {
      text +=
        "<!ENTITY \(Character(UnicodeScalar(UInt8(97 + level)))) \""
        + String(repeating: "&\(Character(UnicodeScalar(UInt8(96 + level))));", count: 10) + "\">\n"
    }
    text += "]>\n<gpx><wpt lat=\"1\" lon=\"2\"><name>&j;</name></wpt></gpx>\n"
    let found = diagnostics { try parse(text, name: "lol.gpx") }
    #expect(found.count == 1)
    #expect(found.first?.hasPrefix("lol.gpx:") == true)
    #expect(found.first?.contains("entity") == true)
  }

  @Test func theRootMustBeTheDetectedOne() {
    #expect(
      diagnostics {
        try parse("<!--" + String(repeating: "x", count: 5000) + "--><kml/>", name: "x.gpx")
      } == ["x.gpx:1: root element <kml>: expected <gpx> in a GPX file"])
  }

  @Test func reportingStopsAtTheLimit() {
    let bad = String(repeating: "<wpt lat=\"99\" lon=\"2\"/>\n", count: 150)
    let found = diagnostics { try parse("<gpx>\n" + bad + "</gpx>", name: "l.gpx") }
    #expect(found.count == InputFileError.diagnosticLimit)
    #expect(found.last == "l.gpx:101: latitude 99.0 is outside -90...90")
  }

  /// libxml2 2.9 keeps element lines in 16 bits; past 65534 its `xmlGetLineNo` may name the
  /// next line (here the line of the text node after the element).
  @Test func linesPast65535AreCountedWithinOne() {
    let good = String(repeating: "<wpt lat=\"1\" lon=\"2\"/>\n", count: 70_000)
    let found = diagnostics {
      try parse("<gpx>\n" + good + "<wpt lat=\"1\" lon=\"200\"/>\n</gpx>", name: "big.gpx")
    }
    #expect(
      found == ["big.gpx:70002: longitude 200.0 is outside -180...180"]
        || found == ["big.gpx:70003: longitude 200.0 is outside -180...180"])
  }
}
