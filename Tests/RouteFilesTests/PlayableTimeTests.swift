import InputFiles
import RouteFiles
import Testing

/// Times a route or scenario may carry: 1980 (GPS time) to 2199, so that moving one to now or
/// to any start time always fits (a track from 1700 moved to now would not).
@Suite struct PlayableTimeTests {
  @Test(arguments: ["1700-01-01T00:00:00Z", "1979-12-31T23:59:59Z", "2200-01-01T00:00:00Z"])
  func aRoutePointOutsideGPSTimeIsRefusedWithItsLine(time: String) throws {
    let csv = "lat,lon,time\n46,14,\(time)\n46.1,14.1,\(time)\n"
    #expect(throws: InputFileError.self) {
      try RouteFile.parse(bytes: Array(csv.utf8), name: "t.csv")
    }
    do {
      _ = try RouteFile.parse(bytes: Array(csv.utf8), name: "t.csv")
    } catch {
      guard case .invalid(let diagnostics) = error else { throw error }
      #expect(diagnostics.first?.description.hasPrefix("t.csv:2: time ") == true, "\(diagnostics)")
      #expect(
        diagnostics.first?.message.hasSuffix(
          "is outside 1980-01-06 (the start of GPS time) to 2199")
          == true)
    }
  }

  @Test func aScenarioStartingBeforeGPSTimeIsRefusedAtItsPath() throws {
    let json = #"{"start": {"time": "1700-01-01T00:00:00Z", "position": [46, 14]}, "timeline": []}"#
    do {
      _ = try ScenarioFile.parse(bytes: Array(json.utf8), name: "s.json", baseDirectory: "/")
      Issue.record("accepted")
    } catch {
      guard case .invalid(let diagnostics) = error else { throw error }
      #expect(
        diagnostics.map(\.description).contains {
          $0.contains("start.time: time 1700-01-01T00:00:00Z is outside 1980-01-06")
        }, "\(diagnostics)")
    }
  }

  @Test func theGPSEpochAndTheLastDayOf2199AreAccepted() throws {
    let csv = "lat,lon,time\n46,14,1980-01-06T00:00:00Z\n46.1,14.1,2199-12-31T23:59:59Z\n"
    #expect(try RouteFile.parse(bytes: Array(csv.utf8), name: "t.csv").points.count == 2)
  }
}
