import Geodesy
import RouteFiles
import Simulation
import Testing

@Suite struct GeoJSONRouteTests {
  @Test func aBareLineString() throws {
    let route = try parse(
      #"{"type": "LineString", "coordinates": [[14.25, 45.5, 100], [15, 46]]}"#, name: "a.json")
    #expect(route.points.map(\.position.latitude) == [45.5, 46])
    #expect(route.points.map(\.position.altitudeMeters) == [100, 0])
  }

  @Test func featuresAndLinesJoinInOrderWithTheirTimes() throws {
    let text = #"""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"name": "one", "coordTimes": [
          "2020-01-01T00:00:00Z", "2020-01-01T00:00:01Z"]},
         "geometry": {"type": "LineString", "coordinates": [[1, 2], [1, 2.5]]}},
        {"type": "Feature", "properties": null, "geometry": null},
        {"type": "Feature", "properties": {"times": [["2020-01-01T00:00:02Z"],
          ["2020-01-01T00:00:03Z"]]},
         "geometry": {"type": "MultiLineString", "coordinates": [[[1, 3]], [[1, 3.5]]]}},
        {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [9, 9]}}
      ]}
      """#
    let route = try parse(text, name: "a.geojson")
    #expect(route.points.map(\.position.latitude) == [2, 2.5, 3, 3.5])
    #expect(route.isTimed)
    #expect(route.points.last?.time == (try instant("2020-01-01T00:00:03Z")))
  }

  @Test func pointFeaturesAreTheRouteWhenThereIsNoLine() throws {
    let text = #"""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 2]}},
        {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [3, 4]}}
      ]}
      """#
    #expect(try parse(text, name: "p.json").points.map(\.position.longitude) == [1, 3])
  }

  /// Each error names the line and column of the value (of a position, for a coordinate out of
  /// range: positions are kept packed) and its JSON path.
  @Test func errorsNameTheLineAndTheJSONPath() {
    let text = #"""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2], [1, 95]]}},
        {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": []}},
        {"type": "Feature", "properties": {"coordTimes": ["2020-01-01T00:00:00Z"]},
         "geometry": {"type": "LineString", "coordinates": [[1, 2], [1, 3]]}},
        {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, "2"], [1]]}}
      ]}
      """#
    #expect(
      diagnostics { try parse(text, name: "g.json") } == [
        "g.json:2:82: features[0].geometry.coordinates[1][1]: latitude 95.0 is outside -90...90",
        "g.json:3:44: features[1].geometry.type: geometry type 'Polygon': expected LineString,"
          + " MultiLineString or Point",
        "g.json:4:52: features[2].properties.coordTimes: 1 times for 2 positions: expected one time a"
          + " position",
        "g.json:6:78: features[3].geometry.coordinates[0][1]: a string: expected a number",
        "g.json:6:84: features[3].geometry.coordinates[1]: an array: expected a position [lon, lat]"
          + " or [lon, lat, alt]",
      ])
  }

  @Test func malformedJSONIsOneErrorWithItsLineAndColumn() {
    let found = diagnostics {
      try parse(#"{"type": "LineString", "coordinates": [[1, 2],"#, name: "t.json")
    }
    #expect(found == ["t.json:1:47: malformed JSON: expected a value, got the end of the file"])
    let broken = diagnostics {
      try parse("{\"type\": \"LineString\",\n  \"coordinates\": [[1, 2] [3, 4]]}", name: "u.json")
    }
    #expect(
      broken == ["u.json:2:26: malformed JSON: expected ',' or ']' after an element, got '['"])
  }
}
