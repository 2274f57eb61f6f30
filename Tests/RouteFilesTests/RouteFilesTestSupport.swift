import Foundation
import InputFiles
import RouteFiles
import Simulation
import TestFixtures
import Testing

/// The path of a real route file in `Tests/Fixtures/routes/`.
func fixturePath(_ name: String) -> String {
  Fixtures.routesDirectory.appendingPathComponent(name).path
}

/// The diagnostics `body` throws as lines of text, or a failed expectation when it succeeds or
/// fails another way.
func diagnostics(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Route
) -> [String] {
  do {
    let route = try body()
    Issue.record(
      "expected an error, got \(route.points.count) points", sourceLocation: sourceLocation)
    return []
  } catch {
    guard case .invalid(let found) = error as? InputFileError else {
      Issue.record("expected .invalid, got \(error)", sourceLocation: sourceLocation)
      return []
    }
    return found.map(\.description)
  }
}

/// Parses text as the bytes of a file called `name`.
func parse(_ text: String, name: String) throws(InputFileError) -> Route {
  try RouteFile.parse(bytes: Array(text.utf8), name: name)
}

/// A fresh folder under the system's temporary folder, removed by the caller.
func temporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("mockgps-routefiles-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// A UTC time from ISO 8601 text known to be valid.
func instant(_ text: String) throws -> UTCInstant {
  try UTCInstant(iso8601: text)
}
