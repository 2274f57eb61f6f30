import Simulation

// CONTRACT PLACEHOLDER: the route-files work replaces this file. Nothing may ship with it.

/// Route files: GPX, KML, CSV and GeoJSON.
public enum RouteFile {
  /// Reads the route in the file at `path`, whatever its format.
  public static func load(path: String) throws(InputFileError) -> Route {
    throw .unreadable(path: path, reason: "route files are not read yet")
  }
}
