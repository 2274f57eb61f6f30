import Glibc

/// What a symbolic link holds.
enum SymbolicLink {
  /// The target the link at `path` names, as written in it (relative or absolute); nil when
  /// `path` is not a symbolic link or cannot be read.
  ///
  /// The corresponding C function is `readlink(2)`.
  static func target(of path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink(path, &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
