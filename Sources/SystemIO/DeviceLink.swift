import CSystemShims
import Glibc
import Synchronization

/// The stable name of the emulated device: a symbolic link to the pseudo-terminal's slave.
///
/// The link is created atomically (a temporary link renamed into place), replaces only a stale
/// link (to a `/dev/pts` node that no longer exists, or to the slave this emulator has just
/// opened), and is removed only while it still points to this emulator's slave.
public struct DeviceLink: Hashable, Sendable {
  /// Where the link is.
  public let path: String
  /// What it points to.
  public let target: String

  /// What already stands at a path.
  public enum Existing: Hashable, Sendable {
    case nothing
    case link(target: String, targetExists: Bool)
    case regularFile
    case directory
    case other(kind: String)
  }

  /// What to do about what stands at the path.
  public enum Decision: Hashable, Sendable {
    case create
    case replaceStale(previousTarget: String)
    case refuse(reason: String)
  }

  /// Why a link could not be made.
  public enum CreationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Something that is not a stale link of ours is at the path.
    case occupied(path: String, reason: String)
    /// The folder of the link does not exist.
    case directoryMissing(directory: String)
    /// A part of the link's folder path exists but is not a folder (a regular file, say).
    case notADirectory(path: String)
    /// This process may not write in the link's folder.
    case directoryNotWritable(directory: String, path: String)
    /// Any other failure.
    case system(SystemError)

    public var description: String {
      switch self {
      case .occupied(let path, let reason):
        return "'\(path)' \(reason); not touching it (choose another --link)"
      case .directoryMissing(let directory):
        return "cannot create the link: folder '\(directory)' does not exist"
      case .notADirectory(let path):
        return "cannot create the link: '\(path)' is not a folder"
      case .directoryNotWritable(let directory, _):
        return "cannot create a link in '\(directory)': permission denied"
      case .system(let error):
        return error.description
      }
    }

    /// A suggestion for the person, or nil.
    public var hint: String? {
      switch self {
      case .directoryNotWritable(_, let path):
        let name = path.split(separator: "/").last.map(String.init) ?? "ttyMOCKGPS"
        return "run as root, or use --link with a writable path, such as --link /tmp/\(name)"
      case .occupied(let path, let reason) where reason.hasPrefix(Self.liveLinkReason):
        return "if no mockgps runs on it, one crashed and another program has that terminal "
          + "now: remove '\(path)' and start again"
      default:
        return nil
      }
    }

    /// How the reason for refusing a live pseudo-terminal link starts.
    static let liveLinkReason = "is the live link of another mockgps or program"
  }

  /// Decides what may be done at a path, from what stands there. Pure.
  ///
  /// A link to `ownTarget`, the pseudo-terminal slave this process holds open, is stale: no
  /// other process can be using that terminal's number, so the link was left by a crash that
  /// freed the number the kernel has just given us again.
  ///
  /// - Parameters:
  ///   - existing: What stands at the path.
  ///   - ownTarget: The target the new link is to have.
  public static func decide(_ existing: Existing, ownTarget: String) -> Decision {
    switch existing {
    case .nothing:
      return .create
    case .link(let target, _) where target == ownTarget && isPseudoTerminalSlave(target):
      return .replaceStale(previousTarget: target)
    case .link(let target, let targetExists) where isPseudoTerminalSlave(target):
      return targetExists
        ? .refuse(reason: "\(CreationError.liveLinkReason) ('\(target)' is in use)")
        : .replaceStale(previousTarget: target)
    case .link(let target, true):
      return .refuse(reason: "is a link to '\(target)', a device or file that exists")
    case .link(let target, false):
      return .refuse(reason: "is a link to '\(target)' that mockgps did not make")
    case .regularFile:
      return .refuse(reason: "is a regular file")
    case .directory:
      return .refuse(reason: "is a directory")
    case .other(let kind):
      return .refuse(reason: "is a \(kind)")
    }
  }

  /// Decides what may be done at `path`: as `decide(_:ownTarget:)`, except that a link to a
  /// pseudo-terminal newer than the link is stale (`TerminalIdentity.ownership`): its maker went
  /// away and another program took the number since. Only the link is replaced; that
  /// program's terminal is not opened.
  static func decide(at path: String, ownTarget: String) -> Decision {
    let existing = inspect(path)
    let decision = decide(existing, ownTarget: ownTarget)
    guard case .refuse = decision, case .link(let previous, true) = existing,
      isPseudoTerminalSlave(previous), let identity = TerminalIdentity.of(path),
      case .refuse = TerminalIdentity.ownership(of: identity, openedBefore: nil)
    else { return decision }
    return .replaceStale(previousTarget: previous)
  }

  /// True for exactly `/dev/pts/<digits>`, the only targets mockgps links to; not for
  /// `/dev/pts/../../etc/passwd` or `/dev/pts/ptmx`.
  public static func isPseudoTerminalSlave(_ target: String) -> Bool {
    let prefix = "/dev/pts/"
    guard target.hasPrefix(prefix) else { return false }
    let number = target.utf8.dropFirst(prefix.utf8.count)
    return !number.isEmpty
      && number.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }

  /// Looks at what stands at `path` without following a link.
  ///
  /// The corresponding C functions are `lstat(2)`, `readlink(2)` and `stat(2)`.
  public static func inspect(_ path: String) -> Existing {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .nothing }
    switch info.st_mode & S_IFMT {
    case S_IFLNK:
      let target = SymbolicLink.target(of: path) ?? ""
      var targetInfo = stat()
      return .link(target: target, targetExists: stat(path, &targetInfo) == 0)
    case S_IFREG: return .regularFile
    case S_IFDIR: return .directory
    case S_IFCHR: return .other(kind: "character device")
    case S_IFBLK: return .other(kind: "block device")
    case S_IFIFO: return .other(kind: "named pipe")
    case S_IFSOCK: return .other(kind: "socket")
    default: return .other(kind: "special file")
    }
  }

  /// Creates a link at `path` to `target`, or replaces a stale one.
  ///
  /// - Throws: `CreationError`; nothing at `path` is touched unless it was a stale link.
  public static func create(at path: String, pointingTo target: String) throws(CreationError)
    -> DeviceLink
  {
    let decision = decide(at: path, ownTarget: target)
    if case .refuse(let reason) = decision { throw .occupied(path: path, reason: reason) }
    let directory = Self.directory(of: path)
    let temporary = "\(directory)/\(temporaryName())"
    _ = unlink(temporary)
    guard symlink(target, temporary) == 0 else {
      let error = errno
      switch error {
      case EACCES, EPERM, EROFS: throw .directoryNotWritable(directory: directory, path: path)
      case ENOENT: throw .directoryMissing(directory: directory)
      case ENOTDIR: throw .notADirectory(path: firstNonDirectory(in: directory) ?? directory)
      default: throw .system(SystemError("create link", path: temporary, errno: error))
      }
    }
    defer { _ = unlink(temporary) }
    switch decision {
    case .replaceStale(let previous):
      guard case .link(let current, _) = inspect(path), current == previous else {
        throw .occupied(path: path, reason: "changed while the link was being replaced")
      }
      guard rename(temporary, path) == 0 else {
        throw .system(SystemError("replace link", path: path, errno: errno))
      }
    default:
      try moveIntoPlace(temporary, path)
    }
    return DeviceLink(path: path, target: target)
  }

  /// Numbers the temporary links of this process.
  private static let temporaryCount = Atomic<Int>(0)

  /// A name for the temporary link, unique in this process and short whatever the link's name:
  /// `.mockgps-<pid>-<n>.tmp`, so that a link name of up to 255 bytes (`NAME_MAX`) still works.
  static func temporaryName() -> String {
    let number = temporaryCount.wrappingAdd(1, ordering: .relaxed).oldValue
    return ".mockgps-\(getpid())-\(number).tmp"
  }

  /// Renames without replacing anything that appeared in the meantime.
  private static func moveIntoPlace(_ temporary: String, _ path: String) throws(CreationError) {
    if mockgps_rename_noreplace(temporary, path) == 0 { return }
    var error = errno
    if error == EINVAL || error == ENOSYS {
      // A file system without RENAME_NOREPLACE: a hard link of the symlink is just as atomic.
      if linkat(AT_FDCWD, temporary, AT_FDCWD, path, 0) == 0 { return }
      error = errno
    }
    if error == EEXIST {
      throw .occupied(path: path, reason: "appeared while the link was being created")
    }
    throw .system(SystemError("create link", path: path, errno: error))
  }

  /// Removes the link if it still points to `target`; returns whether it did.
  @discardableResult
  public func removeIfStillOurs() -> Bool {
    guard case .link(let current, _) = Self.inspect(path), current == target else { return false }
    return unlink(path) == 0
  }

  /// The first folder along `directory` that exists but is not a folder, or nil.
  ///
  /// The corresponding C function is `stat(2)`.
  static func firstNonDirectory(in directory: String) -> String? {
    var prefix = directory.hasPrefix("/") ? "" : "."
    for component in directory.split(separator: "/") {
      prefix += "/" + component
      var info = stat()
      guard stat(prefix, &info) == 0 else { return nil }
      if info.st_mode & S_IFMT != S_IFDIR {
        return directory.hasPrefix("/") ? prefix : String(prefix.dropFirst(2))
      }
    }
    return nil
  }

  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let directory = String(path[..<slash])
    return directory.isEmpty ? "/" : directory
  }
}
