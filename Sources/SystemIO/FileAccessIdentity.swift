import CSystemShims
import Glibc

/// Opens files with someone else's rights: a daemon running as root that acts for a client
/// opens what the client names as the client, so that it reads nothing the client could not.
///
/// Only the calling thread's file-system identity changes (`setfsuid(2)`, `setfsgid(2)` and the
/// thread's own supplementary groups), and only for the duration of `body`; the other threads
/// keep the process's rights throughout.
public enum FileAccessIdentity {
  /// Runs `body` with the file access rights of `peer`.
  ///
  /// As root, the thread takes the peer's user, group and supplementary groups for file
  /// access. A process that is not root cannot take another user's rights: it runs `body` as
  /// it is for a peer of its own user, and refuses any other peer with `EACCES` without
  /// running `body`.
  ///
  /// - Throws: `SystemError` with `EACCES` when the rights cannot be taken.
  public static func with<Result, Failure: Error>(
    rightsOf peer: PeerCredentials, _ body: () throws(Failure) -> Result
  ) throws(FileAccessError<Failure>) -> Result {
    guard geteuid() == 0 else {
      guard peer.userID == geteuid() else {
        throw .identity(SystemError("act with the rights of \(peer) for", errno: EACCES))
      }
      do {
        return try body()
      } catch {
        throw .body(error)
      }
    }
    let saved = currentThreadIdentity()
    do {
      try take(userID: peer.userID, groupID: peer.groupID, groups: peer.groups)
    } catch {
      throw .identity(error)
    }
    defer {
      // Back to the process's rights; failing here would leave the thread with the peer's.
      do {
        try take(userID: saved.userID, groupID: saved.groupID, groups: saved.groups)
      } catch {
        fatalError("cannot restore the thread's file access rights: \(error)")
      }
    }
    do {
      return try body()
    } catch {
      throw .body(error)
    }
  }

  /// Opens `path` for reading, non-blocking, without following /proc's magic links
  /// (`/proc/self/cwd`, `/proc/PID/fd/N`, `/proc/PID/root`): a thread with someone else's
  /// rights reaches through them what the folders above would deny it, since they are this
  /// process's own. Returns the descriptor, or -1 with errno set (`ELOOP` for a magic link).
  ///
  /// The corresponding C function is `openat2(2)` with `RESOLVE_NO_MAGICLINKS`.
  public static func openForReadingWithoutMagicLinks(_ path: String) -> Int32 {
    mockgps_open_without_magic_links(AT_FDCWD, path, readingFlags, 0)
  }

  /// Opens `relativePath` under the open folder `directory` as
  /// `openForReadingWithoutMagicLinks(_:)` does, resolving every step beneath it: a `..`, or a
  /// symbolic link (absolute, or relative and climbing), that leads out of the folder is
  /// refused with `EXDEV`, whatever is swapped in while it resolves. Returns the descriptor, or
  /// -1 with errno set.
  ///
  /// The corresponding C function is `openat2(2)` with `RESOLVE_BENEATH` and
  /// `RESOLVE_NO_MAGICLINKS`.
  public static func openForReadingWithoutMagicLinks(
    _ relativePath: String, beneath directory: borrowing FileDescriptor
  ) -> Int32 {
    mockgps_open_without_magic_links(directory.rawValue, relativePath, readingFlags, 1)
  }

  /// Opens the folder `path` for `openForReadingWithoutMagicLinks(_:beneath:)`: only to
  /// resolve paths beneath it, which needs no right to list it.
  ///
  /// The corresponding C function is `open(2)` with `O_PATH` and `O_DIRECTORY`.
  public static func openFolder(_ path: String) throws(SystemError) -> FileDescriptor {
    FileDescriptor(
      owning: try systemCall("open folder", path: path) { mockgps_open_folder_for_lookups(path) })
  }

  /// Read only; a FIFO does not block the open, a terminal does not become the controlling one.
  private static let readingFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY

  private static func take(userID: UInt32, groupID: UInt32, groups: [UInt32])
    throws(SystemError)
  {
    let result = groups.withUnsafeBufferPointer { buffer in
      mockgps_thread_set_file_identity(userID, groupID, Int32(buffer.count), buffer.baseAddress)
    }
    guard result == 0 else {
      throw SystemError("take the file access rights of uid \(userID) for", errno: errno)
    }
  }

  private static func currentThreadIdentity() -> (
    userID: UInt32, groupID: UInt32, groups: [UInt32]
  ) {
    var userID: UInt32 = 0
    var groupID: UInt32 = 0
    mockgps_thread_file_ids(&userID, &groupID)
    // Asked with no room, getgroups(2) says how many there are.
    var groups = [UInt32](repeating: 0, count: Int(max(0, mockgps_thread_groups(nil, 0))))
    let count = groups.withUnsafeMutableBufferPointer { buffer in
      mockgps_thread_groups(buffer.baseAddress, Int32(buffer.count))
    }
    return (userID, groupID, Array(groups.prefix(Int(max(0, count)))))
  }
}

/// Why `FileAccessIdentity.with(rightsOf:_:)` failed: the rights could not be taken, or the
/// body threw.
public enum FileAccessError<Failure: Error>: Error {
  case identity(SystemError)
  case body(Failure)
}
