import Glibc

/// The device and inode of a directory entry: which file a path names now.
public struct FileIdentity: Hashable, Sendable {
  public var device: UInt64
  public var inode: UInt64

  /// The entry at `path` itself (a symbolic link is not followed), when it is of `kind` (a
  /// file type of `st_mode`: `S_IFSOCK`, `S_IFLNK`…); nil when there is none or it is another
  /// kind.
  public static func ofEntry(at path: String, kind: mode_t) -> FileIdentity? {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == kind else { return nil }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }
}
