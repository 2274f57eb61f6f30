import Glibc

/// A pseudo-terminal pair standing in for a serial port: the emulator writes to the master, a
/// client opens the slave by its path.
///
/// The emulator keeps one slave descriptor of its own open (the *keeper*), as gpsfake does. So
/// the master never sees a hang-up when the last client closes, the line settings survive
/// between clients, and the unread input of the slave can be counted and flushed.
public struct PseudoTerminal: Sendable {
  /// The master side, non-blocking.
  public let master: FileDescriptor
  /// The emulator's own descriptor of the slave side, non-blocking.
  public let keeper: FileDescriptor
  /// The slave's path, `/dev/pts/N`.
  public let slavePath: String

  /// Opens a pair and puts the slave in raw mode at `baud`.
  ///
  /// The corresponding C function is `openpty(3)`.
  public static func open(baud: Int) throws(SystemError) -> PseudoTerminal {
    var masterFD: Int32 = -1
    var slaveFD: Int32 = -1
    try systemCall("open a pseudo-terminal") { openpty(&masterFD, &slaveFD, nil, nil, nil) }
    var name = [CChar](repeating: 0, count: 128)
    let nameResult = ttyname_r(slaveFD, &name, name.count)
    guard nameResult == 0 else {
      Glibc.close(masterFD)
      Glibc.close(slaveFD)
      throw SystemError("name the pseudo-terminal", errno: nameResult)
    }
    let path = name.withUnsafeBufferPointer { buffer in
      String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let terminal = PseudoTerminal(
      master: FileDescriptor(rawValue: masterFD), keeper: FileDescriptor(rawValue: slaveFD),
      slavePath: path)
    do {
      _ = fcntl(masterFD, F_SETFD, FD_CLOEXEC)
      _ = fcntl(slaveFD, F_SETFD, FD_CLOEXEC)
      try terminal.master.setNonBlocking()
      try terminal.keeper.setNonBlocking()
      try terminal.resetLineSettings(baud: baud)
      var masterSettings = try TerminalAttributes.read(from: terminal.master)
      masterSettings.makeRaw()
      try masterSettings.apply(to: terminal.master)
    } catch {
      terminal.close()
      throw error
    }
    return terminal
  }

  /// Puts the slave back in raw mode at `baud`, undoing what a client changed.
  public func resetLineSettings(baud: Int) throws(SystemError) {
    var settings = try TerminalAttributes.read(from: keeper)
    settings.makeRaw()
    settings.setSpeed(baud: baud == 0 ? 115_200 : baud)
    try settings.apply(to: keeper)
  }

  /// The slave's current settings, as the client left them.
  public func lineSettings() throws(SystemError) -> TerminalAttributes {
    try TerminalAttributes.read(from: keeper)
  }

  /// Gives the slave the owner group and mode of a serial port (`dialout`, 0660).
  ///
  /// The corresponding C functions are `chown(2)` and `chmod(2)`.
  public func setPermissions(groupID: UInt32?, mode: UInt32) throws(SystemError) {
    if let groupID {
      try systemCall("change the group of", path: slavePath) {
        chown(slavePath, uid_t(UInt32.max), gid_t(groupID))
      }
    }
    try systemCall("change the mode of", path: slavePath) { chmod(slavePath, mode_t(mode)) }
  }

  /// Bytes written to the master that no client has read yet.
  public func unreadByteCount() -> Int {
    (try? keeper.availableBytes()) ?? 0
  }

  /// Discards what no client has read, so the next client starts with fresh data.
  ///
  /// The corresponding C function is `tcflush(3)` with `TCIFLUSH`, on the slave: a flush on the
  /// master races with the kernel's flip buffers.
  public func discardUnread() {
    tcflush(keeper.rawValue, TCIFLUSH)
  }

  /// Closes both sides. Remove any link to `slavePath` first: the kernel reuses the number.
  public func close() {
    keeper.close()
    master.close()
  }
}
