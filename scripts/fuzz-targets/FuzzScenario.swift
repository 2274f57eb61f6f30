import InputFiles
import Receiver
import RouteFiles
import Simulation

/// The `scenario` target: `ScenarioFile.parse` on the bytes. A file it refuses must be refused
/// with one-line diagnostics that name the file, no more than the limit. A file it accepts must
/// compile, and its epochs at the start and at each event must come out the same twice (the
/// run depends on the scenario and seed only). Route paths resolve under a folder that does
/// not exist, so no file is read from a relative path.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  let name = "fuzz.json"
  let scenario: Scenario
  do {
    scenario = try ScenarioFile.parse(
      bytes: Array(bytes), name: name, baseDirectory: "/nonexistent/mockgps-fuzz")
  } catch {
    guard case .invalid(let diagnostics) = error else {
      failure("parsing bytes gave \(error), expected .invalid")
    }
    guard !diagnostics.isEmpty, diagnostics.count <= InputFileError.diagnosticLimit else {
      failure("\(diagnostics.count) diagnostics")
    }
    for diagnostic in diagnostics {
      let text = diagnostic.description
      guard text.hasPrefix(name), !diagnostic.message.isEmpty,
        !text.contains(where: \.isNewline)
      else {
        failure("diagnostic is not one line naming the file: \(text.debugDescription)")
      }
    }
    return
  }
  let times = [scenario.startTime] + scenario.timeline.prefix(16).map(\.at)
  func epochs() -> [[UInt8]] {
    let compiled = scenario.compiled()
    let source = SceneSource(compiled)
    return times.map { source.epoch(at: $0).bytes }
  }
  guard epochs() == epochs() else {
    failure("the same scenario gave different bytes")
  }
}

let builtInSeeds: [[UInt8]] = [
  #"{"start": {"time": "2024-07-01T12:00:00Z", "position": [46.05, 14.5, 300]}, "timeline": []}"#,
  #"""
  {"start": {"time": "2024-07-01T12:00:00Z", "position": [46.0569, 14.5058, 295]}, "seed": 7,
   "limits": {"speed": 15, "acceleration": 2, "turn-rate": 20},
   "timeline": [
     {"at": 0, "do": "noise", "sigma": 1.5, "time-constant": 20},
     {"at": 0, "do": "goto", "position": [46.0569, 14.55, 300], "speed": 15},
     {"at": 60, "do": "dop", "scale": 2.5, "for": 10},
     {"at": 70, "do": "fix", "mode": "none"}, {"at": 70, "do": "satellites", "count": 0},
     {"at": 97, "do": "fix", "mode": "dgps", "for": 3},
     {"at": 97, "do": "jump", "distance": 30, "bearing": 120, "for": 15},
     {"at": 100, "do": "clock", "week-rollover": true},
     {"at": 101, "do": "cold-start", "ttff": 5}, {"at": 110, "do": "silence", "for": 1},
     {"at": 120, "do": "corrupt", "rate": 0.5, "style": "truncate"},
     {"at": 130, "do": "route", "file": "r.gpx"}, {"at": 140, "do": "hold"}]}
  """#,
  #"{"start": {"time": "2261-12-31T23:59:59Z", "position": [-90, 180]}, "seed": 0, "timeline": [{"at": 1e9, "do": "clock", "offset": -1e7}]}"#,
  #"{"timeline": [{"at": "x", "do": "fly"}, 1, null], "seed": -1, "start": [], "\u00e9\ud83d\ude97": 1e999}"#,
].map { Array($0.utf8) }
