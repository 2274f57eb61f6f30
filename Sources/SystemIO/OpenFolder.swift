import Glibc

/// A folder opened once, at start, to resolve paths beneath it for as long as it lives: a
/// request names a file by its absolute path, whose text after the folder's is opened beneath
/// this descriptor (`FileAccessIdentity.openForReadingWithoutMagicLinks(_:beneath:)`). The
/// folder's name is not looked up again, so a folder (or one above it) swapped for a link
/// later leads nowhere new.
public final class OpenFolder: Sendable {
  /// The folder's path as given, and its real path then: the spellings a request's path may
  /// start with.
  public let spellings: [String]
  private let descriptor: FileDescriptor

  /// Opens the folder at `path` (following links as they stand now).
  ///
  /// - Throws: `SystemError` when it is not a folder that can be opened.
  public init(path: String) throws(SystemError) {
    descriptor = try FileAccessIdentity.openFolder(path)
    var spellings = [path]
    if let resolved = realpath(path, nil) {
      let real = String(cString: resolved)
      free(resolved)
      if real != path { spellings.append(real) }
    }
    self.spellings = spellings
  }

  /// The folder as given.
  public var path: String { spellings[0] }

  /// `path` without the folder in front, compared as text with each spelling (no link is
  /// resolved); nil when it does not start with the folder or names the folder itself.
  public func relativePath(of path: String) -> String? {
    spellings.lazy.compactMap { Self.relativePath(of: path, under: $0) }.first
  }

  /// Opens `relativePath` for reading beneath the folder (see
  /// `FileAccessIdentity.openForReadingWithoutMagicLinks(_:beneath:)`): the descriptor, or -1
  /// with errno set.
  public func openForReading(_ relativePath: String) -> Int32 {
    FileAccessIdentity.openForReadingWithoutMagicLinks(relativePath, beneath: descriptor)
  }

  /// `path` without the folder `directory` in front, compared as text; nil when it does not
  /// start with the folder or names the folder itself.
  static func relativePath(of path: String, under directory: String) -> String? {
    var folder = Substring(directory)
    while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
    let prefix = folder == "/" ? "/" : folder + "/"
    guard path.hasPrefix(prefix) else { return nil }
    let rest = path.dropFirst(prefix.count).drop { $0 == "/" }
    return rest.isEmpty ? nil : String(rest)
  }
}
