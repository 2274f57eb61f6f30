import Glibc

extension ScenarioFile {
  /// The bytes of the file at `path`, refusing a directory, anything but a regular file (as
  /// not being `kind`) and anything over `maximumBytes`.
  ///
  /// - Throws: `.unreadable` with the system's reason (`No such file or directory`), or
  ///   `.invalid` for a file that is too large.
  static func readBytes(path: String, expecting kind: String = "a scenario file")
    throws(InputFileError) -> [UInt8]
  {
    let file = try InputFileOpening.open(path, expecting: kind)
    let descriptor = file.descriptor
    defer { close(descriptor) }
    guard file.size <= maximumBytes else { throw tooLarge(path, byteCount: file.size) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw InputFileOpening.systemError(path) }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
      guard bytes.count <= maximumBytes else { throw tooLarge(path, byteCount: bytes.count) }
    }
  }

  /// The folder that holds `path`, against which the scenario's relative paths are resolved.
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `path` if absolute, else `path` under `directory`.
  static func resolve(_ path: String, against directory: String) -> String {
    path.hasPrefix("/")
      ? path : directory.hasSuffix("/") ? directory + path : "\(directory)/\(path)"
  }

  static func tooLarge(_ name: String, byteCount: Int) -> InputFileError {
    .invalid([
      InputDiagnostic(
        InputLocation(file: name),
        "the file holds \(byteCount) bytes or more; expected at most \(maximumBytes) (16 MiB)")
    ])
  }
}
