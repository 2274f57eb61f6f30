import Glibc

/// The process's current directory, against which relative paths are resolved.
public enum WorkingDirectory {
  /// `path` made absolute against the current directory (unchanged when already absolute, or
  /// when the current directory cannot be read).
  ///
  /// The corresponding C function is `getcwd(3)`.
  public static func absolute(_ path: String) -> String {
    guard !path.hasPrefix("/") else { return path }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return path }
    let folder = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return (folder.hasSuffix("/") ? folder : folder + "/") + path
  }

  /// `path` made absolute (`absolute`) and comparable: `//` and `/./` collapsed. `..` is kept:
  /// through a symbolic link it is not lexical.
  public static func normalized(_ path: String) -> String {
    let parts = absolute(path).split(separator: "/").filter { $0 != "." }
    return "/" + parts.joined(separator: "/")
  }
}
