import Foundation

/// Where the tests find the real data files: the receiver logs, routes and almanac in `shared/`.
///
/// `shared/` lies beside the repository (`../shared`); set `MOCKGPS_SHARED_DIR` to use another.
public enum Fixtures {
  /// The repository's root folder.
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The `shared/` folder.
  public static var sharedDirectory: URL {
    if let override = ProcessInfo.processInfo.environment["MOCKGPS_SHARED_DIR"] {
      return URL(fileURLWithPath: override)
    }
    return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")
  }

  /// gpsd's regression logs from real receivers.
  public static var gpsdLogsDirectory: URL {
    sharedDirectory.appendingPathComponent("fixtures/gpsd-logs")
  }

  /// Every `*.log` file of gpsd's regression logs, sorted by name.
  public static func gpsdLogs() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(
      at: gpsdLogsDirectory, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "log" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  /// The lines of a file, split on LF with CR removed, numbered from 1.
  public static func lines(of url: URL) throws -> [(number: Int, text: String)] {
    let data = try Data(contentsOf: url)
    return data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated().map { index, bytes in
        var text = Array(bytes)
        if text.last == UInt8(ascii: "\r") { text.removeLast() }
        return (index + 1, String(decoding: text, as: UTF8.self))
      }
  }
}
