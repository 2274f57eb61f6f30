import CSystemShims
import Glibc

/// A pseudo-terminal pair standing in for a serial port: the emulator writes to the master, a
/// client opens the slave by its path.
///
/// The emulator holds no descriptor of the slave between uses, so the terminal itself says
/// whether any client has it open: the master reports a hang-up exactly while none has. The
/// line settings live as long as the master does; termios calls on the master act on them.
/// For the few calls that need the slave (counting and discarding what clients left unread),
/// a descriptor is opened from the master for the duration of the call.
public struct PseudoTerminal: ~Copyable, Sendable {
  /// The emulator's side, non-blocking.
  public let master: FileDescriptor
  /// The slave's path, `/dev/pts/N`.
  public let slavePath: String

  /// Opens a pair and puts the slave in raw mode at `baud`. Every descriptor is close-on-exec
  /// from the moment it exists, so a program started meanwhile by another thread inherits none
  /// (an inherited slave would look like a client that never leaves).
  ///
  /// The corresponding C functions are `posix_openpt(3)`, `grantpt(3)`, `unlockpt(3)` and
  /// `ptsname_r(3)`.
  public static func open(baud: Int) throws(SystemError) -> PseudoTerminal {
    var name = [CChar](repeating: 0, count: 128)
    let masterFD = try systemCall("open a pseudo-terminal") {
      mockgps_open_pty_master(&name, name.count)
    }
    let path = name.withUnsafeBufferPointer { buffer in
      String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let terminal = PseudoTerminal(master: FileDescriptor(owning: masterFD), slavePath: path)
    try terminal.resetLineSettings(baud: baud)
    // The master reports the hang-up that says "no client" only once the slave has been open.
    _ = try terminal.openSlave()
    return terminal
  }

  private init(master: consuming FileDescriptor, slavePath: String) {
    self.master = master
    self.slavePath = slavePath
  }

  /// True while at least one client has the slave open; false after the last one closed.
  ///
  /// The corresponding C function is `poll(2)`: the master reports POLLHUP while no descriptor
  /// of the slave is open.
  public var hasClients: Bool {
    let events = (try? Poll.wait([master.pollRequest(.readable)], timeoutMilliseconds: 0)) ?? []
    return events.first?.contains(.hangUp) == false
  }

  /// Puts the slave in raw mode at `baud`, undoing what a client changed.
  public func resetLineSettings(baud: Int) throws(SystemError) {
    var settings = try TerminalAttributes.read(from: master)
    settings.makeRaw()
    settings.setSpeed(baud: baud == 0 ? 115_200 : baud)
    try settings.apply(to: master)
  }

  /// Applies settings to the slave in one call.
  public func apply(_ settings: TerminalAttributes) throws(SystemError) {
    try settings.apply(to: master)
  }

  /// The slave's current settings, as the client left them.
  public func lineSettings() throws(SystemError) -> TerminalAttributes {
    try TerminalAttributes.read(from: master)
  }

  /// Gives the slave the owner group and mode of a serial port (`dialout`, 0660). The mode is
  /// set even when the group cannot be, and the first failure is thrown afterwards.
  ///
  /// The corresponding C functions are `chown(2)` and `chmod(2)`.
  public func setPermissions(groupID: UInt32?, mode: UInt32) throws(SystemError) {
    let path = slavePath
    var groupError: SystemError?
    if let groupID {
      do {
        try systemCall("change the group of", path: path) {
          chown(path, uid_t(UInt32.max), gid_t(groupID))
        }
      } catch {
        groupError = error
      }
    }
    try systemCall("change the mode of", path: path) { chmod(path, mode_t(mode)) }
    if let groupError { throw groupError }
  }

  /// Bytes written to the master that no client has read yet.
  public func unreadByteCount() -> Int {
    guard let peer = try? openSlave() else { return 0 }
    return peer.unreadByteCount()
  }

  /// Discards what no client has read, so the next client starts with fresh data.
  ///
  /// The corresponding C function is `tcflush(3)` with `TCIFLUSH`, on the slave: a flush on the
  /// master races with the kernel's flip buffers.
  public func discardUnread() {
    guard let peer = try? openSlave() else { return }
    peer.discardUnread()
  }

  /// A descriptor of the slave, opened through the master rather than by path. While it is
  /// open, the master reports no hang-up.
  ///
  /// The corresponding C function is `ioctl(2)` with `TIOCGPTPEER`.
  public func openSlave() throws(SystemError) -> FileDescriptor {
    let master = self.master.rawValue
    return FileDescriptor(
      owning: try systemCall("open the slave of", path: slavePath) {
        mockgps_open_pty_peer(master, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
      })
  }
}

extension FileDescriptor {
  /// On a terminal's slave: bytes written to the master that no client has read yet.
  public func unreadByteCount() -> Int {
    (try? availableBytes()) ?? 0
  }

  /// On a terminal's slave: discards what no client has read.
  ///
  /// The corresponding C function is `tcflush(3)` with `TCIFLUSH`.
  public func discardUnread() {
    tcflush(rawValue, TCIFLUSH)
  }
}
