import CSystemShims
import Glibc

/// Unix stream sockets on a path: a listener that is private from the moment its path exists,
/// that replaces only a stale socket and removes only its own, and a client's connection.
public enum UnixSocket {
  /// The longest path `sockaddr_un` holds, in bytes without the terminating NUL.
  public static let maximumPathLength = 107

  /// Why a socket could not be listened on or connected to.
  public enum SocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another process listens on the path.
    case live(path: String)
    /// Something that is not a socket stands at the path; it is never removed.
    case notASocket(path: String, kind: String)
    /// The path is longer than a socket address holds.
    case pathTooLong(path: String)
    /// The folder of a socket is not private to this user (or is a link).
    case unsafeDirectory(path: String, reason: String)
    /// Nothing listens on the path (for a client: no file, or a stale socket).
    case nothingListening(path: String)
    /// Any other failure.
    case system(SystemError)

    public var description: String {
      switch self {
      case .live(let path):
        return "'\(path)' is the live control socket of another process; not touching it"
      case .notASocket(let path, let kind):
        return "'\(path)' is a \(kind), not a socket; not touching it"
      case .pathTooLong(let path):
        return "socket path '\(path)' is longer than \(UnixSocket.maximumPathLength) bytes"
      case .unsafeDirectory(let path, let reason):
        return "socket folder '\(path)' \(reason); not using it"
      case .nothingListening(let path):
        return "nothing is listening on '\(path)'"
      case .system(let error):
        return error.description
      }
    }
  }

  /// What stands at a socket path, seen by connecting to it.
  public enum Existing: Hashable, Sendable {
    case nothing
    /// A socket that refuses connections: left by a process that ended.
    case staleSocket
    /// A socket another process accepts connections on.
    case liveSocket
    /// Not a socket (a regular file, a directory, a link…).
    case other(kind: String)
  }

  /// Looks at `path` without following a link and, for a socket, tries to connect to it.
  ///
  /// The corresponding C functions are `lstat(2)` and `connect(2)`.
  public static func inspect(_ path: String) -> Existing {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .nothing }
    guard info.st_mode & S_IFMT == S_IFSOCK else { return .other(kind: kind(of: info.st_mode)) }
    switch Result(catching: { () throws(SocketError) in try connect(to: path, blocking: false) }) {
    case .success: return .liveSocket
    case .failure(.nothingListening): return .staleSocket
    // A full backlog (EAGAIN) or a socket we may not open still belongs to someone.
    case .failure: return .liveSocket
    }
  }

  /// Connects to the socket at `path`, close-on-exec.
  ///
  /// - Parameter blocking: false makes the connection non-blocking (a full backlog then fails
  ///   with EAGAIN instead of waiting).
  /// - Throws: `.nothingListening` when there is no socket or nobody accepts on it (ENOENT,
  ///   ECONNREFUSED), `.pathTooLong`, `.system` otherwise.
  ///
  /// The corresponding C functions are `socket(2)` and `connect(2)`.
  public static func connect(to path: String, blocking: Bool = true) throws(SocketError)
    -> FileDescriptor
  {
    let socket = try makeSocket(nonBlocking: !blocking)
    try withAddress(path) { (address, length) throws(SocketError) in
      do throws(SystemError) {
        try systemCall("connect to socket", path: path) {
          Glibc.connect(socket.rawValue, address, length)
        }
      } catch  where [ENOENT, ECONNREFUSED, ENOTSOCK].contains(error.errno) {
        throw .nothingListening(path: path)
      } catch {
        throw .system(error)
      }
    }
    return socket
  }

  /// Sends bytes once without raising SIGPIPE; may send fewer than given.
  ///
  /// The corresponding C function is `send(2)` with `MSG_NOSIGNAL`.
  public static func send(_ bytes: ArraySlice<UInt8>, on socket: borrowing FileDescriptor)
    throws(SystemError) -> FileDescriptor.TransferResult
  {
    let descriptor = socket.rawValue
    do {
      let count = try systemCall("send") {
        bytes.withUnsafeBytes {
          Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
      }
      return .transferred(count)
    } catch  where error.errno == EAGAIN {
      return .wouldBlock
    }
  }

  /// Bytes sent on a connected stream socket that its peer has not read yet, or nil when the
  /// system does not say.
  ///
  /// The corresponding C function is `ioctl(2)` with `SIOCOUTQ` (`TIOCOUTQ`), see `unix(7)`.
  public static func unreadByteCount(on socket: borrowing FileDescriptor) -> Int? {
    var count: Int32 = 0
    guard ioctl(socket.rawValue, UInt(TIOCOUTQ), &count) == 0 else { return nil }
    return Int(count)
  }

  /// Creates `path` as a folder private to this user, or checks that the folder already there
  /// is a real folder (not a link), owned by this user and writable by nobody else. With
  /// `traversable` (a socket in it is opened to a group), anyone may pass through it, not list
  /// it (0711): the socket's own mode and group say who may connect. The folder's group is
  /// never changed and its bits are only ever added: the instances of a fleet share
  /// `/run/mockgps`, each with its own control group (a second one given another group took
  /// the folder from the first one's).
  ///
  /// The corresponding C functions are `mkdir(2)`, `lstat(2)` and `chmod(2)`.
  public static func preparePrivateDirectory(_ path: String, traversable: Bool = false)
    throws(SocketError)
  {
    let passage: mode_t = traversable ? 0o011 : 0
    if mkdir(path, 0o700 | passage) != 0, errno != EEXIST {
      throw .system(SystemError("create folder", path: path, errno: errno))
    }
    var info = stat()
    guard lstat(path, &info) == 0 else {
      throw .system(SystemError("inspect folder", path: path, errno: errno))
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw .unsafeDirectory(path: path, reason: "is a \(kind(of: info.st_mode))")
    }
    guard info.st_uid == geteuid() else {
      throw .unsafeDirectory(path: path, reason: "belongs to user \(info.st_uid)")
    }
    guard info.st_mode & 0o022 == 0 else {
      throw .unsafeDirectory(path: path, reason: "is writable by others")
    }
    let mode = info.st_mode & 0o7777
    if mode | passage != mode || mode & 0o700 != 0o700 {
      do {
        try systemCall("change mode of", path: path) { chmod(path, mode | 0o700 | passage) }
      } catch {
        throw .system(error)
      }
    }
  }

  /// Builds a socket address for `path` and runs `body` with it.
  fileprivate static func withAddress<Result>(
    _ path: String,
    _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SocketError) -> Result
  ) throws(SocketError) -> Result {
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count <= maximumPathLength, !bytes.contains(0) else {
      throw .pathTooLong(path: path)
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
    return try withUnsafePointer(to: &address) { (pointer) throws(SocketError) -> Result in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        (address) throws(SocketError) -> Result in try body(address, length)
      }
    }
  }

  /// A new stream socket, close-on-exec (and non-blocking when asked).
  fileprivate static func makeSocket(nonBlocking: Bool) throws(SocketError) -> FileDescriptor {
    var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
    do {
      return FileDescriptor(owning: try systemCall("create socket") { socket(AF_UNIX, type, 0) })
    } catch {
      throw .system(error)
    }
  }

  fileprivate static func kind(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFLNK: return "symbolic link"
    case S_IFREG: return "regular file"
    case S_IFDIR: return "directory"
    case S_IFCHR: return "character device"
    case S_IFBLK: return "block device"
    case S_IFIFO: return "named pipe"
    case S_IFSOCK: return "socket"
    default: return "special file"
    }
  }

}

/// A Unix stream socket listening on a path, non-blocking and close-on-exec.
///
/// The socket is bound inside a fresh 0700 folder next to the path, given its mode and group
/// there, and only then renamed into place, so that it is never reachable with wider
/// permissions whatever the umask. It replaces only a stale socket; `close()` removes the path
/// only while it is still this socket.
public struct UnixSocketListener: ~Copyable, Sendable {
  /// Where the socket is.
  public let path: String
  /// The listening descriptor, for an I/O loop to wait on.
  public let descriptor: FileDescriptor
  private let identity: FileIdentity?

  /// Listens on `path`.
  ///
  /// - Parameters:
  ///   - mode: The socket's permissions, 0600 by default; 0660 with `groupID`.
  ///   - groupID: The group given the socket, or nil for this process's.
  ///   - backlog: Connections the kernel queues before they are accepted.
  /// - Throws: `.live` when another process listens there, `.notASocket` when something else
  ///   stands there (nothing is removed), `.pathTooLong`, `.system`.
  public init(
    path: String, mode: UInt32 = 0o600, groupID: UInt32? = nil, backlog: Int32 = 128
  ) throws(UnixSocket.SocketError) {
    if path.utf8.count > UnixSocket.maximumPathLength { throw .pathTooLong(path: path) }
    let existing = UnixSocket.inspect(path)
    switch existing {
    case .liveSocket: throw .live(path: path)
    case .other(let kind): throw .notASocket(path: path, kind: kind)
    case .nothing, .staleSocket: break
    }
    let socket = try UnixSocket.makeSocket(nonBlocking: true)
    let staging = try StagingDirectory(besides: path)
    defer { staging.remove() }
    // The staging folder's name is longer than the final path by a few bytes: near the limit,
    // the socket is bound through the folder's descriptor (/proc/self/fd/N/s) instead.
    try UnixSocket.withAddress(staging.bindPath) {
      (address, length) throws(UnixSocket.SocketError) in
      do throws(SystemError) {
        let descriptor = socket.rawValue
        let stagedPath = staging.socketPath
        try systemCall("bind socket", path: path) { bind(descriptor, address, length) }
        if let groupID {
          try systemCall("change group of", path: path) { chown(stagedPath, UInt32.max, groupID) }
        }
        try systemCall("change mode of", path: path) { chmod(stagedPath, mode_t(mode)) }
        try systemCall("listen on", path: path) { listen(descriptor, backlog) }
        if existing == .staleSocket {
          try systemCall("replace stale socket", path: path) { rename(stagedPath, path) }
        } else {
          try systemCall("create socket", path: path) {
            mockgps_rename_noreplace(stagedPath, path)
          }
        }
      } catch  where error.errno == EEXIST {
        throw .live(path: path)
      } catch {
        throw .system(error)
      }
    }
    self.path = path
    self.descriptor = socket
    identity = FileIdentity.ofEntry(at: path, kind: S_IFSOCK)
  }

  /// Accepts one waiting connection, non-blocking and close-on-exec, or returns nil when none
  /// is waiting.
  ///
  /// The corresponding C function is `accept4(2)`.
  public func accept() throws(SystemError) -> FileDescriptor? {
    let listening = descriptor.rawValue
    do {
      return FileDescriptor(
        owning: try systemCall("accept connection", path: path) {
          mockgps_accept_cloexec_nonblock(listening)
        })
    } catch  where [EAGAIN, ECONNABORTED, EPROTO].contains(error.errno) {
      return nil
    }
  }

  /// Stops listening and removes the path if it is still this socket.
  public consuming func close() {
    if let identity, FileIdentity.ofEntry(at: path, kind: S_IFSOCK) == identity { unlink(path) }
    descriptor.close()
  }
}

/// A fresh 0700 folder in the same folder as a socket path, to bind the socket in privately.
private struct StagingDirectory {
  let path: String
  let socketPath: String
  /// What the socket is bound at: `socketPath`, or when that is too long for an address, the
  /// same place through the folder's descriptor.
  let bindPath: String
  private let folderDescriptor: Int32

  init(besides finalPath: String) throws(UnixSocket.SocketError) {
    let folder = finalPath.lastIndex(of: "/").map { String(finalPath[..<$0]) } ?? "."
    var template = Array(((folder.isEmpty ? "" : folder) + "/.mockgps-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else {
      throw .system(SystemError("create a folder in", path: folder, errno: errno))
    }
    path = String(cString: created)
    socketPath = path + "/s"
    folderDescriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if socketPath.utf8.count <= UnixSocket.maximumPathLength {
      bindPath = socketPath
    } else if folderDescriptor >= 0 {
      bindPath = "/proc/self/fd/\(folderDescriptor)/s"
    } else {
      rmdir(path)
      throw .pathTooLong(path: finalPath)
    }
  }

  func remove() {
    unlink(socketPath)
    rmdir(path)
    if folderDescriptor >= 0 { Glibc.close(folderDescriptor) }
  }
}
