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
  /// The terminal node's own stamp; a pseudo-terminal's is set when its number is handed out.
  public var terminal: FileStamp?

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

    /// The stamp of what `lstat` or `stat` filled in.
    init(_ info: stat) {
      self.init(
        device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
        changeSeconds: Int(info.st_ctim.tv_sec), changeNanoseconds: Int(info.st_ctim.tv_nsec))
    }

    /// True when this file changed after `other` did.
    func changed(after other: FileStamp) -> Bool {
      (changeSeconds, changeNanoseconds) > (other.changeSeconds, other.changeNanoseconds)
    }
  }

  /// Creates an identity.
  public init(link: FileStamp?, target: String, terminal: FileStamp? = nil) {
    self.link = link
    self.target = target
    self.terminal = terminal
  }

  /// What `path` names now, or nil when nothing is there. Through a chain of links (an alias
  /// of the owner's link), the stamp is the last link's: the one the owner makes.
  ///
  /// The corresponding C functions are `lstat(2)`, `readlink(2)`, `realpath(3)` and `stat(2)`.
  public static func of(_ path: String) -> TerminalIdentity? {
    var current = path
    var link: FileStamp?
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0 else { return nil }
      guard info.st_mode & S_IFMT == S_IFLNK else { break }
      link = FileStamp(info)
      guard let target = SymbolicLink.target(of: current) else { return nil }
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
    var info = stat()
    let terminal = stat(resolved, &info) == 0 ? FileStamp(info) : nil
    return TerminalIdentity(link: link, target: String(cString: resolved), terminal: terminal)
  }

  /// What a program may do with the terminal a path names.
  public enum Ownership: Hashable, Sendable {
    /// Open it: a port, a terminal the person named, or one its link's maker still holds.
    case open
    /// Leave it alone, for this reason.
    case refuse(reason: String)
  }

  /// Decides whether the terminal a path names `now` may be opened as the one meant: the one
  /// ownership check of every path that opens a terminal (`run`'s link, the passthrough, its
  /// reconnection, `record`). Pure.
  ///
  /// A serial port (any node outside `/dev/pts`) may always be opened: its node is the port. A
  /// pseudo-terminal's number is handed out again as soon as its owner ends, so:
  /// - through a link, the terminal must not be newer than the link (its owner makes the
  ///   terminal first, then the link; a link left by a program that went away names whoever
  ///   took the number since);
  /// - after a first open (`before`), only through a link made anew since: the same old link,
  ///   or a `/dev/pts` path given directly, may name anyone's terminal now;
  /// - a `/dev/pts` path given directly is opened the first time, as the person named it.
  public static func ownership(of now: TerminalIdentity, openedBefore before: TerminalIdentity?)
    -> Ownership
  {
    guard DeviceLink.isPseudoTerminalSlave(now.target) else { return .open }
    guard let link = now.link else {
      guard before != nil else { return .open }
      return .refuse(
        reason: "'\(now.target)' is a pseudo-terminal whose number any program may have taken "
          + "since; give the link its owner makes instead")
    }
    if let terminal = now.terminal, terminal.changed(after: link) {
      return .refuse(
        reason: "the link is older than '\(now.target)', a pseudo-terminal number freed when "
          + "the link's maker went away and taken by another program since")
    }
    guard link != before?.link else {
      return .refuse(
        reason: "the link still points to '\(now.target)', a pseudo-terminal number freed when "
          + "its owner went away and taken by another program since")
    }
    return .open
  }
}
