import Glibc

/// A terminal's settings as a value: read them, change them, apply them in one call.
public struct TerminalAttributes: Sendable {
  /// The C structure.
  public var raw: termios

  /// Wraps a C structure.
  public init(raw: termios = termios()) {
    self.raw = raw
  }

  /// The standard bauds: those `setSpeed(baud:)` sets and `baud` reports.
  static let standardBauds = [
    1200, 2400, 4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600,
  ]

  /// The bits per second of every speed a Linux terminal takes by a `B…` constant
  /// (`termios(3)`, `<bits/termios.h>`), the standard ones and the rest; `B0` (hang up) is 0;
  /// nil for any other value. A switch rather than a table: the device reads its client's speed
  /// before each write, and the lookup in a dictionary (its hashing and its lazily made global)
  /// was about 3 % of a paced device's epoch thread under `perf`.
  static func bitsPerSecond(ofConstant speed: speed_t) -> Int? {
    switch speed {
    case speed_t(B0): 0
    case speed_t(B50): 50
    case speed_t(B75): 75
    case speed_t(B110): 110
    case speed_t(B134): 134
    case speed_t(B150): 150
    case speed_t(B200): 200
    case speed_t(B300): 300
    case speed_t(B600): 600
    case speed_t(B1200): 1200
    case speed_t(B1800): 1800
    case speed_t(B2400): 2400
    case speed_t(B4800): 4800
    case speed_t(B9600): 9600
    case speed_t(B19200): 19200
    case speed_t(B38400): 38400
    case speed_t(B57600): 57600
    case speed_t(B115200): 115_200
    case speed_t(B230400): 230_400
    case speed_t(B460800): 460_800
    case speed_t(B500000): 500_000
    case speed_t(B576000): 576_000
    case speed_t(B921600): 921_600
    case speed_t(B1000000): 1_000_000
    case speed_t(B1152000): 1_152_000
    case speed_t(B1500000): 1_500_000
    case speed_t(B2000000): 2_000_000
    case speed_t(B2500000): 2_500_000
    case speed_t(B3000000): 3_000_000
    case speed_t(B3500000): 3_500_000
    case speed_t(B4000000): 4_000_000
    default: nil
    }
  }

  /// The 31 `B…` constants every Linux glibc has, by name: from glibc 2.42 on, a constant is
  /// its speed (`B9600` is 9600), no longer a value of the speed bits (`CBAUD`), and there are
  /// ten more (`B7200`, `B5000000`, …), which these tables do not know.
  static let constants: [speed_t] = [
    B0, B50, B75, B110, B134, B150, B200, B300, B600, B1200, B1800, B2400, B4800, B9600, B19200,
    B38400, B57600, B115200, B230400, B460800, B500000, B576000, B921600, B1000000, B1152000,
    B1500000, B2000000, B2500000, B3000000, B3500000, B4000000,
  ].map { speed_t($0) }

  /// `bitsPerSecond(ofConstant:)` the other way round: the `B…` constant of each speed.
  static let lineSpeeds: [Int: speed_t] = Dictionary(
    uniqueKeysWithValues: constants.compactMap { constant in
      bitsPerSecond(ofConstant: constant).map { ($0, constant) }
    })

  /// Reads a terminal's settings.
  ///
  /// The corresponding C function is `tcgetattr(3)`.
  public static func read(from descriptor: borrowing FileDescriptor) throws(SystemError)
    -> TerminalAttributes
  {
    var attributes = TerminalAttributes()
    let raw = descriptor.rawValue
    try systemCall("read terminal settings") { tcgetattr(raw, &attributes.raw) }
    return attributes
  }

  /// Applies the settings now.
  ///
  /// The corresponding C function is `tcsetattr(3)` with `TCSANOW`.
  public func apply(to descriptor: borrowing FileDescriptor) throws(SystemError) {
    var copy = raw
    let raw = descriptor.rawValue
    try systemCall("apply terminal settings") { tcsetattr(raw, TCSANOW, &copy) }
  }

  /// Raw 8N1 mode: no echo, no line editing, no character translation, reads return as soon
  /// as one byte is there; the receiver and the modem lines are on (CREAD, CLOCAL).
  ///
  /// The corresponding C function is `cfmakeraw(3)`.
  public mutating func makeRaw() {
    cfmakeraw(&raw)
    raw.c_cflag |= tcflag_t(CLOCAL | CREAD)
    raw.c_cc.6 = 1  // VMIN
    raw.c_cc.5 = 0  // VTIME
  }

  /// Sets input and output speed to a standard baud; other values leave the speed unchanged.
  ///
  /// The corresponding C function is `cfsetspeed(3)`.
  public mutating func setSpeed(baud: Int) {
    guard Self.standardBauds.contains(baud), let speed = Self.lineSpeeds[baud] else { return }
    cfsetspeed(&raw, speed)
  }

  /// The output speed as a baud, or nil for a non-standard setting.
  public var baud: Int? {
    var copy = raw
    let speed = cfgetospeed(&copy)
    guard let bitsPerSecond = Self.bitsPerSecond(ofConstant: speed),
      Self.standardBauds.contains(bitsPerSecond)
    else { return nil }
    return bitsPerSecond
  }

  /// The output speed in bits per second for any `B…` constant, the standard bauds and the
  /// others (`B50`, `B4000000`; 0 for `B0`, which hangs the line up); nil for a speed set by
  /// number (`BOTHER`), which `tcgetattr` does not report before glibc 2.42, and for the
  /// speeds 2.42 added (see `constants`).
  public var lineSpeed: Int? {
    var copy = raw
    return Self.bitsPerSecond(ofConstant: cfgetospeed(&copy))
  }

  /// Sets input and output speed to any speed of `lineSpeed`; other values leave the speed
  /// unchanged.
  ///
  /// The corresponding C function is `cfsetspeed(3)`.
  public mutating func setLineSpeed(_ bitsPerSecond: Int) {
    guard let speed = Self.lineSpeeds[bitsPerSecond] else { return }
    cfsetspeed(&raw, speed)
  }

  /// True when the terminal echoes received bytes back.
  public var echoes: Bool { raw.c_lflag & tcflag_t(ECHO) != 0 }

  /// True when input is read line by line (ICANON).
  public var isCanonical: Bool { raw.c_lflag & tcflag_t(ICANON) != 0 }
}
