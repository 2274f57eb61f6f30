import InputFiles

extension ScenarioFile {
  /// The bytes of the file at `path`, refusing a directory, anything but a regular file (as
  /// not being a `kind`, such as `scenario file`) and anything over `maximumBytes`.
  ///
  /// - Throws: `.unreadable` with the system's reason (`No such file or directory`), or
  ///   `.invalid` for a file that is too large (`InputFileError.tooLarge`).
  static func readBytes(path: String, kind: String = "scenario file") throws(InputFileError)
    -> [UInt8]
  {
    try InputFile(path: path, expecting: "a \(kind)").readAll(limit: maximumBytes, kind: kind)
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
}
