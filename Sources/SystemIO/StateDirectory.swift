import Glibc

/// A directory the operator named for files a program keeps between runs (`--state-dir`),
/// opened once and used through its descriptor: its files are read without following a
/// symbolic link at their name and replaced atomically, and the directory and its files are
/// refused when others could change them under a process that may run as root.
///
/// The directory must be owned by the effective user or root and writable by no one else (not
/// even with the sticky bit: a shared directory lets others squat the names). A file must be a
/// regular file of the effective user with a single link (not a hard link planted to another
/// file) that no one else may write. New files are created mode 0600.
public final class StateDirectory: Sendable {
  /// Why a directory or a file in it cannot be used.
  public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// A call failed (a missing directory, an unreadable file).
    case system(SystemError)
    /// The directory is not safe to keep state in: the path and why.
    case unsafeDirectory(path: String, reason: String)
    /// The file is not one this program wrote: the path and why.
    case foreignFile(path: String, reason: String)

    public var description: String {
      switch self {
      case .system(let error): return error.description
      case .unsafeDirectory(let path, let reason): return "\(path): \(reason)"
      case .foreignFile(let path, let reason): return "\(path): \(reason)"
      }
    }
  }

  /// The directory as the operator named it.
  public let path: String
  private let descriptor: FileDescriptor

  /// Opens and checks the directory at `path`. A symbolic link on the way is followed only
  /// when root or the effective user owns it, and every folder on the way (through the links)
  /// must be one that no one else may change: owned by root or the effective user, and
  /// writable by no one else unless its sticky bit keeps them from replacing what is not
  /// theirs (as `/tmp`'s does). Otherwise another user who may write one of those folders
  /// could point a root mockgps at a directory of their choosing.
  ///
  /// The corresponding C functions are `lstat(2)`, `readlink(2)`, `open(2)` with
  /// `O_DIRECTORY`, `fstat(2)` and `faccessat(2)`.
  public init(path: String) throws(Refusal) {
    self.path = path
    try Self.checkWay(to: WorkingDirectory.absolute(path), shown: path, links: 0)
    do {
      descriptor = try FileDescriptor.open(path, flags: O_RDONLY | O_DIRECTORY)
    } catch {
      throw .system(error)
    }
    let status: stat
    do {
      status = try Self.status(of: descriptor.rawValue, path: path)
    } catch {
      throw .system(error)
    }
    let mode = status.st_mode
    if status.st_uid != geteuid() && status.st_uid != 0 {
      let expected = geteuid() == 0 ? "root" : "user \(geteuid()) or root"
      throw .unsafeDirectory(
        path: path, reason: "owned by user \(status.st_uid) (expected \(expected))")
    }
    if mode & (S_IWGRP | S_IWOTH) != 0 {
      throw .unsafeDirectory(
        path: path,
        reason: "mode \(Self.octal(mode)) (expected no group or other write permission)")
    }
    // A directory this process cannot write would take the chip's saves and keep nothing.
    if faccessat(descriptor.rawValue, ".", W_OK, AT_EACCESS) != 0 {
      throw .unsafeDirectory(path: path, reason: "not writable by user \(geteuid())")
    }
  }

  /// Checks every folder that holds a component of the absolute `path`, and every symbolic
  /// link among its components, following the links (at most 16 deep).
  private static func checkWay(to path: String, shown: String, links: Int) throws(Refusal) {
    guard links <= 16 else {
      throw .unsafeDirectory(path: shown, reason: "too many symbolic links on the way")
    }
    var folder = ""
    for component in path.split(separator: "/") where component != "." {
      try checkFolder(folder.isEmpty ? "/" : folder, shown: shown)
      let next = folder + "/" + component
      var status = stat()
      guard lstat(next, &status) == 0 else { return }  // open(2) names what is missing
      if status.st_mode & S_IFMT == S_IFLNK {
        guard status.st_uid == 0 || status.st_uid == geteuid() else {
          throw .unsafeDirectory(
            path: shown,
            reason: "\(next) is a symbolic link of user \(status.st_uid) (expected root's or "
              + "user \(geteuid())'s)")
        }
        guard let target = SymbolicLink.target(of: next) else { return }
        let resolved =
          target.hasPrefix("/") ? target : (folder.isEmpty ? "" : folder) + "/" + target
        try checkWay(to: resolved, shown: shown, links: links + 1)
        var real = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(next, &real) != nil else { return }
        folder = String(
          decoding: real.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if folder == "/" { folder = "" }
      } else {
        folder = next
      }
    }
  }

  /// Refuses a folder on the way that someone else may change.
  private static func checkFolder(_ folder: String, shown: String) throws(Refusal) {
    var status = stat()
    guard lstat(folder, &status) == 0 else { return }
    if status.st_uid != 0 && status.st_uid != geteuid() {
      throw .unsafeDirectory(
        path: shown, reason: "\(folder) on the way is owned by user \(status.st_uid)")
    }
    if status.st_mode & (S_IWGRP | S_IWOTH) != 0 && status.st_mode & S_ISVTX == 0 {
      throw .unsafeDirectory(
        path: shown,
        reason: "\(folder) on the way has mode \(octal(status.st_mode)) (others may replace "
          + "what it holds)")
    }
  }

  /// The path of a file of the directory, for messages.
  public func path(of name: String) -> String {
    path.hasSuffix("/") ? path + name : path + "/" + name
  }

  /// The bytes of the file `name`, at most `limit` of them; nil when there is no such file.
  ///
  /// - Throws: `.foreignFile` for a symbolic link, anything but a regular file, a file of
  ///   another user, with another link or that others may write, or one larger than `limit`;
  ///   `.system` when it cannot be read.
  public func read(_ name: String, limit: Int) throws(Refusal) -> [UInt8]? {
    let shown = path(of: name)
    let raw = openat(
      descriptor.rawValue, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard raw >= 0 else {
      let error = errno
      if error == ENOENT { return nil }
      if error == ELOOP {
        throw .foreignFile(path: shown, reason: "a symbolic link (expected a regular file)")
      }
      throw .system(SystemError("open", path: shown, errno: error))
    }
    let file = FileDescriptor(owning: raw)
    let status: stat
    do {
      status = try Self.status(of: file.rawValue, path: shown)
    } catch {
      throw .system(error)
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw .foreignFile(path: shown, reason: "not a regular file")
    }
    guard status.st_uid == geteuid() else {
      throw .foreignFile(
        path: shown, reason: "owned by user \(status.st_uid) (expected user \(geteuid()))")
    }
    guard status.st_nlink == 1 else {
      throw .foreignFile(
        path: shown, reason: "\(status.st_nlink) hard links (expected a file of its own)")
    }
    guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
      throw .foreignFile(
        path: shown,
        reason: "mode \(Self.octal(status.st_mode)) (expected no group or other write permission)")
    }
    guard status.st_size <= limit else {
      throw .foreignFile(
        path: shown, reason: "\(status.st_size) bytes (expected at most \(limit))")
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let result: FileDescriptor.TransferResult
      do {
        result = try file.read(into: &buffer)
      } catch {
        throw .system(SystemError("read", path: shown, errno: error.errno))
      }
      guard case .transferred(let count) = result, count > 0 else { break }
      bytes += buffer.prefix(count)
      guard bytes.count <= limit else {
        throw .foreignFile(path: shown, reason: "larger than \(limit) bytes")
      }
    }
    return bytes
  }

  /// Replaces the file `name` with `bytes` atomically: a reader sees the old file or the new
  /// one, never a part, even after a crash or power loss. The bytes go to a new temporary file
  /// (mode 0600, created exclusively, never through a link), which is synced, renamed over
  /// the name, and the directory synced.
  ///
  /// The corresponding C functions are `openat(2)`, `fsync(2)` and `renameat(2)`.
  public func replace(_ name: String, with bytes: [UInt8]) throws(SystemError) {
    let temporary = ".\(name).\(getpid()).tmp"
    let shown = path(of: temporary)
    let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
    var raw = openat(descriptor.rawValue, temporary, flags, 0o600)
    if raw < 0, errno == EEXIST {
      // Left by a run of this process ID that ended mid-write.
      _ = unlinkat(descriptor.rawValue, temporary, 0)
      raw = openat(descriptor.rawValue, temporary, flags, 0o600)
    }
    guard raw >= 0 else { throw SystemError("create", path: shown, errno: errno) }
    let file = FileDescriptor(owning: raw)
    do throws(SystemError) {
      var written = 0
      while written < bytes.count {
        guard case .transferred(let count) = try file.write(bytes[written...]), count > 0 else {
          throw SystemError("write", path: shown, errno: EIO)
        }
        written += count
      }
      try systemCall("sync", path: shown) { fsync(file.rawValue) }
      try systemCall("rename", path: shown) {
        renameat(descriptor.rawValue, temporary, descriptor.rawValue, name)
      }
    } catch {
      _ = unlinkat(descriptor.rawValue, temporary, 0)
      throw SystemError(error.operation, path: error.path ?? shown, errno: error.errno)
    }
    try systemCall("sync", path: path) { fsync(descriptor.rawValue) }
  }

  /// `0777`: the permission bits in octal, as `ls` and `chmod` write them.
  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode & 0o7777, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private static func status(of descriptor: Int32, path: String) throws(SystemError) -> stat {
    var status = stat()
    try systemCall("stat", path: path) { fstat(descriptor, &status) }
    return status
  }
}
