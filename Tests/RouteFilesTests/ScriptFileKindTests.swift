import Foundation
import RouteFiles
import Testing

/// `check` and `run` tell a scenario, a config, a GeoJSON route and an almanac apart by one
/// function, from the JSON object's own keys wherever they stand.
@Suite struct ScriptFileKindTests {
  static func kind(_ text: String) -> ScriptFileKind {
    ScriptFileKind.detect(prefix: Array(text.utf8))
  }

  @Test func aTypeNestedInAScenarioIsNotGeoJSONs() {
    #expect(
      Self.kind(
        #"{"start": {"time": "2024-07-01T12:00:00Z", "position": [1, 2]}, "timeline": "#
          + #"[{"at": 0, "do": "fault", "type": "silence"}]}"#) == .scenario)
    #expect(Self.kind(#"{"comment": "a \"type\": here", "timeline": []}"#) == .scenario)
    #expect(Self.kind(#"{"comment": {"type": "x"}, "timeline": []}"#) == .scenario)
  }

  @Test func theKeysCountAfterTheFirst64KiB() throws {
    let comment = String(repeating: "x", count: 70_000)
    #expect(Self.kind(#"{"comment": "\#(comment)", "start": {}, "timeline": []}"#) == .scenario)
    #expect(Self.kind(#"{"comment": "\#(comment)", "devices": []}"#) == .config)
    #expect(Self.kind(#"{"name": "\#(comment)", "type": "FeatureCollection"}"#) == .route)
    // Read from a file: past the first read of 64 KiB too.
    let path = NSTemporaryDirectory() + "mockgps-kind-\(UUID().uuidString).json"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try #"{"comment": "\#(comment)", "timeline": [{"at": 0, "type": 1}]}"#.write(
      toFile: path, atomically: true, encoding: .utf8)
    #expect(ScriptFileKind.detect(path: path) == .scenario)
  }

  @Test func theKeysBeforeABreakStillDecide() {
    #expect(Self.kind(#"{"timeline": [{"at": 0,, "#) == .scenario)
    #expect(Self.kind(#"{"devices": [{"link": "/tmp/a" "#) == .config)
    #expect(Self.kind(#"{"comment": "x" "timeline": []}"#) == .route)
  }

  @Test func geoJSONConfigsAndOtherFilesAreToldApart() {
    #expect(Self.kind(#"{"type": "FeatureCollection", "features": []}"#) == .route)
    #expect(Self.kind(#"{"devices": [{"link": "/tmp/a", "type": "x"}]}"#) == .config)
    #expect(Self.kind("\u{FEFF} \n{\"devices\": []}") == .config)
    #expect(Self.kind("lat,lon\n1,2\n") == .route)
    #expect(Self.kind("<gpx></gpx>") == .route)
    #expect(Self.kind("{}") == .route)
    #expect(Self.kind("[]") == .route)
  }
}
