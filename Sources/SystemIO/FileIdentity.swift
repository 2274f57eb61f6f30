import Glibc

/// The device and inode of a directory entry: which file a path names now.
public struct FileIdentity: Hashable, Sendable {
  public var device: UInt64
  public var inode: UInt64

  /// The entry at `path` itself (a symbolic link is not followed), when it is of `kind` (a
  /// file type of `st_mode`: `S_IFSOCK`, `S_IFLNK`…); nil when there is none or it is another
  /// kind.
  public static func ofEntry(at path: String, kind: mode_t) -> FileIdentity? {
    FileEntryStamp.ofEntry(at: path, kind: kind)?.identity
  }
}

/// A directory entry as it is now: which file (`identity`), when its inode last changed and
/// its size. A file system may give a new file the inode number of one just removed (ext4
/// does, for a symbolic link removed and made again), so the identity alone does not tell a
/// new entry from the old one; its change time does.
public struct FileEntryStamp: Hashable, Sendable {
  public var identity: FileIdentity
  public var changeSeconds: Int
  public var changeNanoseconds: Int
  public var size: Int64

  /// The entry at `path` itself (a symbolic link is not followed), when it is of `kind` (see
  /// `FileIdentity.ofEntry(at:kind:)`).
  public static func ofEntry(at path: String, kind: mode_t) -> FileEntryStamp? {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == kind else { return nil }
    return FileEntryStamp(
      identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
      changeSeconds: info.st_ctim.tv_sec, changeNanoseconds: info.st_ctim.tv_nsec,
      size: Int64(info.st_size))
  }
}
