import Glibc

/// Which terminal a path names, and through which link: enough to tell the terminal a program
/// opened from another that has since taken its name.
///
/// A pseudo-terminal's number is free again as soon as its owner ends, and the kernel hands it
/// to the next program that asks; a link left behind by a program that was killed then points
/// to a stranger's terminal. A real serial port's node, on the other hand, is the port.
public struct TerminalIdentity: Hashable, Sendable {
  /// The link at the path (its device, inode and change time), nil when the path is no link.
  public var link: FileStamp?
  /// The path the terminal was reached by, links followed.
  public var target: String

  /// A file's identity: the same stamp means the same file, not one made again in its place.
  public struct FileStamp: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var changeSeconds: Int
    public var changeNanoseconds: Int

    public init(device: UInt64, inode: UInt64, changeSeconds: Int, changeNanoseconds: Int) {
      self.device = device
      self.inode = inode
      self.changeSeconds = changeSeconds
      self.changeNanoseconds = changeNanoseconds
    }
  }

  /// Creates an identity.
  public init(link: FileStamp?, target: String) {
    self.link = link
    self.target = target
  }

  /// What `path` names now, or nil when nothing is there. Through a chain of links (an alias
  /// of the owner's link), the stamp is the last link's: the one the owner makes.
  ///
  /// The corresponding C functions are `lstat(2)`, `readlink(2)` and `realpath(3)`.
  public static func of(_ path: String) -> TerminalIdentity? {
    var current = path
    var link: FileStamp?
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0 else { return nil }
      guard info.st_mode & S_IFMT == S_IFLNK else { break }
      link = FileStamp(
        device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
        changeSeconds: Int(info.st_ctim.tv_sec), changeNanoseconds: Int(info.st_ctim.tv_nsec))
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink(current, &buffer, buffer.count - 1)
      guard length > 0 else { return nil }
      let target = String(
        decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if target.hasPrefix("/") {
        current = target
      } else if let slash = current.lastIndex(of: "/") {
        current = String(current[...slash]) + target
      } else {
        current = target
      }
    }
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return TerminalIdentity(link: link, target: String(cString: resolved))
  }

  /// What a program that had the terminal `before` may do with what its path names `now`.
  public enum Reconnection: Hashable, Sendable {
    /// Open it: the same port, or a terminal its owner announced afresh.
    case open
    /// Leave it alone, for this reason.
    case refuse(reason: String)
  }

  /// Decides whether the terminal a path names now may be taken for the one it named before.
  /// Pure.
  ///
  /// A serial port (any node outside `/dev/pts`) may be opened again: its node is the port. A
  /// pseudo-terminal only through a link made anew since (its owner started again and linked
  /// its new terminal): through the same old link, or a `/dev/pts` path given directly, the
  /// number may be anyone's now.
  public static func reconnection(from before: TerminalIdentity, to now: TerminalIdentity)
    -> Reconnection
  {
    guard DeviceLink.isPseudoTerminalSlave(now.target) else { return .open }
    guard let link = now.link else {
      return .refuse(
        reason: "'\(now.target)' is a pseudo-terminal whose number any program may have taken "
          + "since; give the link its owner makes instead")
    }
    guard link != before.link else {
      return .refuse(
        reason: "the link still points to '\(now.target)', a pseudo-terminal number freed when "
          + "its owner went away and taken by another program since")
    }
    return .open
  }
}
