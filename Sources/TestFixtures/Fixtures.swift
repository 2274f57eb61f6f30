import Foundation

/// Where the tests find the real data files: gpsd's receiver logs, and the routes and almanac in
/// `Tests/Fixtures/`.
///
/// The logs are `test/daemon/` of the source package of the installed gpsd, which
/// `scripts/install-deps --test` unpacks into `~/.cache/mockgps/` and `scripts/test` names in
/// `MOCKGPS_GPSD_LOGS`. The routes and almanac are part of the repository.
public enum Fixtures {
  /// A data file the tests need is not there.
  public struct MissingError: Error, CustomStringConvertible {
    public var description: String
  }

  /// The repository's root folder.
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The data files kept in the repository (`Tests/Fixtures/`).
  public static var repositoryFixturesDirectory: URL {
    repositoryRoot.appendingPathComponent("Tests/Fixtures")
  }

  /// Real GPX and KML tracks and routes (`Tests/Fixtures/routes/`).
  public static var routesDirectory: URL {
    repositoryFixturesDirectory.appendingPathComponent("routes")
  }

  /// A GPS almanac in YUMA format (`Tests/Fixtures/almanac/`).
  public static var almanacDirectory: URL {
    repositoryFixturesDirectory.appendingPathComponent("almanac")
  }

  /// gpsd's regression logs from real receivers, with gpsd's expected output (`*.log.chk`).
  ///
  /// `MOCKGPS_GPSD_LOGS` when set, else the link `~/.cache/mockgps/gpsd-logs` that
  /// `scripts/install-deps --test` points at the logs of the installed gpsd.
  ///
  /// - Throws: `MissingError` naming `scripts/install-deps --test` when the folder holds no log.
  public static func gpsdLogsDirectory() throws -> URL {
    let environment = ProcessInfo.processInfo.environment
    let directory: URL
    if let path = environment["MOCKGPS_GPSD_LOGS"], !path.isEmpty {
      directory = URL(fileURLWithPath: path)
    } else {
      let cache =
        environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
      // A link: resolved, since listing a link's URL lists nothing.
      directory = cache.appendingPathComponent("mockgps/gpsd-logs").resolvingSymlinksInPath()
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    guard names.contains(where: { $0.hasSuffix(".log") }) else {
      throw MissingError(
        description: "no gpsd regression logs in '\(directory.path)': run "
          + "'scripts/install-deps --test' (or scripts/test), or set MOCKGPS_GPSD_LOGS")
    }
    return directory
  }

  /// One of gpsd's regression logs, by file name.
  public static func gpsdLog(_ name: String) throws -> URL {
    try gpsdLogsDirectory().appendingPathComponent(name)
  }

  /// Every `*.log` file of gpsd's regression logs, sorted by name.
  public static func gpsdLogs() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(
      at: gpsdLogsDirectory(), includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "log" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  /// The NMEA lines of a log: those that start with `$` or `!` and are 7-bit ASCII, numbered
  /// from 1 as in `lines(of:)`.
  ///
  /// NMEA 0183 is ASCII, so a line with a byte of 0x80 or above is binary data that happens to
  /// follow a newline with `$` or `!` (a UBX, GREIS or SiRF frame in the binary logs), not a
  /// sentence. Control characters are kept: a NUL-padded or escape-garbled sentence is a broken
  /// NMEA line that a parser must reject.
  public static func nmeaLines(of url: URL) throws -> [(number: Int, text: String)] {
    try lines(of: url).filter { line in
      (line.text.hasPrefix("$") || line.text.hasPrefix("!"))
        && line.text.utf8.allSatisfy { $0 < 0x80 }
    }
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

extension Fixtures {
  /// Writes a CSV route of about `bytes` bytes at `path`, 64 KiB at a time: the test process
  /// never holds the file (a suite running beside may be measuring its resident memory). 8 MB
  /// take seconds to load in a debug build, long enough to tell a stall apart.
  public static func writeLargeCSVRoute(at path: String, bytes: Int) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? file.close() }
    var chunk = "lat,lon,alt\n"
    var written = 0
    var index = 0
    while written < bytes {
      let step = Double(index) * 1e-6
      chunk += "\(51 + step),\(-0.1 + step),\(40 + index % 100)\n"
      index += 1
      if chunk.utf8.count >= 64 << 10 || written + chunk.utf8.count >= bytes {
        try file.write(contentsOf: Data(chunk.utf8))
        written += chunk.utf8.count
        chunk.removeAll(keepingCapacity: true)
      }
    }
  }
}
