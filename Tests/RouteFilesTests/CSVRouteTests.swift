import Geodesy
import RouteFiles
import Simulation
import Testing

@Suite struct CSVRouteTests {
  @Test func separatorsAliasesQuotesAndBlankLines() throws {
    let texts = [
      "lat,lon,alt\n45.5,14.25,100\n\n46,15,\n",
      "\"Longitude\";\"Latitude\";Elevation\r\n14.25;45.5;100\r\n   \r\n15;46;\r\n",
      "name\tLNG\tLATITUDE\tALTITUDE\n\"a\tb\"\t14.25\t45.5\t100\n\"say \"\"hi\"\"\"\t15\t46\t",
    ]
    for text in texts {
      let route = try parse(text, name: "r.csv")
      #expect(route.points.map(\.position.latitude) == [45.5, 46])
      #expect(route.points.map(\.position.longitude) == [14.25, 15])
      #expect(route.points.map(\.position.altitudeMeters) == [100, 0])
      #expect(!route.isTimed)
    }
  }

  @Test func timesInISO8601OrAsGPSBabelsDateAndTimeColumns() throws {
    let iso = try parse(
      "lat,lon,time\n1,2,2020-01-01T00:00:00Z\n1,2.1,2020-01-01T02:00:01+02:00\n", name: "a.csv")
    #expect(
      iso.points.map(\.time) == [
        try instant("2020-01-01T00:00:00Z"), try instant("2020-01-01T00:00:01Z"),
      ])
    let unicsv = try parse(
      "No,Latitude,Longitude,Altitude,Date,Time\n1,37.241738,-121.972324,104.0,2017/07/29,14:46:35\n",
      name: "b.csv")
    #expect(unicsv.points.first?.time == (try instant("2017-07-29T14:46:35Z")))
  }

  @Test func everyBadRowIsReportedWithItsLine() {
    let text = """
      lat,lon,time
      91,2,2020-01-01T00:00:00Z
      1,abc,2020-01-01T00:00:01Z
      1,2,"2020-01-01T00:00:02Z
      1,2
      1,2,yesterday
      1,2,2020-01-01T00:00:05Z
      1,2,2020-01-01T00:00:04Z
      """
    #expect(
      diagnostics { try parse(text, name: "r.csv") } == [
        "r.csv:2: latitude 91.0 is outside -90...90",
        "r.csv:3: longitude 'abc' is not a number",
        "r.csv:4: unterminated quote: expected a closing '\"' on the same line",
        "r.csv:5: 2 fields, expected at least 3 as the header says",
        "r.csv:6: time 'yesterday': expected a UTC time YYYY-MM-DDTHH:MM:SS[.fraction]Z",
        "r.csv:8: time 2020-01-01T00:00:04Z is before the previous point's"
          + " 2020-01-01T00:00:05Z",
      ])
  }

  @Test func longOrMultilineTextIsQuotedOnOneShortLine() {
    let long = String(repeating: "x", count: 50)
    #expect(
      diagnostics { try parse("lat,lon\n\(long),2\n\"1\n", name: "q.csv") } == [
        "q.csv:2: latitude '\(long.prefix(40))…' is not a number",
        "q.csv:3: unterminated quote: expected a closing '\"' on the same line",
      ])
    #expect(
      diagnostics { try parse("<gpx><wpt lat=\"1&#10;2\" lon=\"2\"/></gpx>", name: "q.gpx") } == [
        "q.gpx:1: latitude '1\\n2' is not a number"
      ])
  }

  @Test func aFileWithOnlyAHeaderHasNoPoints() {
    #expect(
      diagnostics { try parse("lat,lon\n\n", name: "r.csv") } == [
        "r.csv: no points: expected a header line and one row a point"
      ])
  }
}
