import Glibc
import SystemIO

/// Another program's pseudo-terminal that took a number freed by the owner of a link: what a
/// link left behind by a killed owner names when the kernel has handed its number out again
/// (the kernel hands out the lowest free number).
public final class StrangerTerminal {
  /// The stranger's side, to write what its terminal says and read what reaches it.
  public let master: Int32
  /// The number taken, `/dev/pts/N`.
  public let slavePath: String
  private let descriptors: [Int32]

  /// Opens pseudo-terminals until one has the number `slavePath`; the others stay open too (so
  /// that the number is the lowest free one), until `close`. Nil when the number was not given
  /// out within 64 tries (another process took it first).
  public init?(taking slavePath: String) {
    var descriptors: [Int32] = []
    var found: Int32?
    for _ in 0..<64 where found == nil {
      var master: Int32 = -1
      var slave: Int32 = -1
      guard openpty(&master, &slave, nil, nil, nil) == 0 else { break }
      descriptors += [master, slave]
      if Self.name(of: slave) == slavePath { found = master }
    }
    guard let found else {
      for descriptor in descriptors { _ = Glibc.close(descriptor) }
      return nil
    }
    self.master = found
    self.slavePath = slavePath
    self.descriptors = descriptors
  }

  /// Publishes a pseudo-terminal at `linkPath` and lets it go as a killed owner does: the link
  /// stays, its number is free. Returns the number, `/dev/pts/N`.
  public static func abandonedLink(at linkPath: String) throws -> String {
    let owner = try PseudoTerminal.open(baud: 9600)
    let number = owner.slavePath
    guard symlink(number, linkPath) == 0 else {
      throw SystemError("link to \(number)", path: linkPath, errno: errno)
    }
    // The owner goes away a while later: its number's next owner gets a later stamp than the
    // link (file times have the kernel's tick as resolution).
    usleep(30_000)
    return number
  }

  /// A link at `linkPath` left behind by a killed owner, and a stranger holding the number it
  /// freed. Tests running beside this one open pseudo-terminals too and may take the number
  /// first (the kernel gives out the lowest free one): then the link is made again with a new
  /// number, up to `attempts` times. Nil when every attempt lost its number.
  public static func behindAbandonedLink(at linkPath: String, attempts: Int = 20) throws
    -> (number: String, stranger: StrangerTerminal)?
  {
    for _ in 0..<attempts {
      let number = try abandonedLink(at: linkPath)
      if let stranger = StrangerTerminal(taking: number) { return (number, stranger) }
      unlink(linkPath)
    }
    return nil
  }

  /// Bytes that reached the stranger's terminal from its slave side, read without waiting.
  public func bytesReceived() -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: 4096)
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    let count = read(master, &buffer, buffer.count)
    return count > 0 ? Array(buffer.prefix(count)) : []
  }

  /// The slave's line settings (its `c_lflag`), to see that nobody reconfigured it.
  public func localFlags() -> UInt32 {
    var settings = termios()
    _ = tcgetattr(master, &settings)
    return settings.c_lflag
  }

  /// Closes every terminal it opened.
  public func close() {
    for descriptor in descriptors { _ = Glibc.close(descriptor) }
  }

  private static func name(of slave: Int32) -> String {
    var name = [CChar](repeating: 0, count: 64)
    _ = ttyname_r(slave, &name, name.count)
    return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
