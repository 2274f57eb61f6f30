import Foundation
import RouteFiles
import Testing

@Suite struct RouteFormatTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var text: String
    var fileName: String
    var format: RouteFormat?
    var testDescription: String { "\(fileName): \(text.prefix(40).debugDescription)" }
  }

  static let cases: [Case] = [
    Case(
      text: "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- x -->\n<gpx version=\"1.1\">", fileName: "a.txt",
      format: .gpx),
    Case(
      text: "  \n<gpx:gpx xmlns:gpx=\"http://www.topografix.com/GPX/1/1\">", fileName: "a",
      format: .gpx),
    Case(
      text: "<?xml version=\"1.0\"?><kml xmlns=\"http://www.opengis.net/kml/2.2\">",
      fileName: "a.gpx", format: .kml),
    Case(text: "<!DOCTYPE kml><kml>", fileName: "a.xml", format: .kml),
    Case(text: "<html><body>", fileName: "a.gpx", format: nil),
    Case(text: "\n{\"type\": \"LineString\"}", fileName: "a.csv", format: .geoJSON),
    Case(text: "Latitude;Longitude;Ele\n1;2;3", fileName: "a.json", format: .csv),
    Case(text: "time\tlng\tlat\n", fileName: "a", format: .csv),
    Case(text: "\"No\",\"LAT\",\"LON\"\r\n", fileName: "a", format: .csv),
    Case(text: "name,city\nx,y", fileName: "a.csv", format: nil),
    Case(text: "[1, 2]", fileName: "a.geojson", format: nil),
    Case(text: "", fileName: "a.gpx", format: nil),
    // The root is past what is looked at: the extension breaks the tie.
    Case(
      text: "<!--" + String(repeating: "x", count: 5000) + "--><kml>", fileName: "a.KML",
      format: .kml),
    Case(
      text: "<!--" + String(repeating: "x", count: 5000) + "--><gpx>", fileName: "a.txt",
      format: nil),
  ]

  @Test(arguments: cases)
  func theContentDecidesTheFormat(_ testCase: Case) {
    let prefix = Array(testCase.text.utf8.prefix(RouteFormat.detectionPrefixLength))
    #expect(RouteFormat.detect(prefix: prefix, fileName: testCase.fileName) == testCase.format)
  }

  @Test func aGPXNamedTxtAndAKMLNamedGPXLoadByTheirContent() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let gpx = folder.appendingPathComponent("track.txt")
    let kml = folder.appendingPathComponent("track.gpx")
    try FileManager.default.copyItem(atPath: fixturePath("route.gpx"), toPath: gpx.path)
    try FileManager.default.copyItem(atPath: fixturePath("sample-gx-track.kml"), toPath: kml.path)
    #expect(try RouteFile.load(path: gpx.path).points.count == 55)
    #expect(try RouteFile.load(path: kml.path).points.count == 45)
  }

  @Test func unknownContentNamesTheAcceptedFormats() {
    #expect(
      diagnostics { try parse("hello\nworld\n", name: "x.gpx") } == [
        "x.gpx:1: unknown content: expected GPX or KML (XML with root <gpx> or <kml>), GeoJSON"
          + " (starting with '{') or CSV (a header line naming latitude and longitude columns)"
      ])
  }
}
