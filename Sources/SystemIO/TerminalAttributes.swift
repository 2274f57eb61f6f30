import Glibc

/// A terminal's settings as a value: read them, change them, apply them in one call.
public struct TerminalAttributes: Sendable {
  /// The C structure.
  public var raw: termios

  /// Wraps a C structure.
  public init(raw: termios = termios()) {
    self.raw = raw
  }

  /// The `B…` constants for each standard baud.
  static let speeds: [Int: speed_t] = [
    1200: speed_t(B1200), 2400: speed_t(B2400), 4800: speed_t(B4800), 9600: speed_t(B9600),
    19200: speed_t(B19200), 38400: speed_t(B38400), 57600: speed_t(B57600),
    115_200: speed_t(B115200), 230_400: speed_t(B230400), 460_800: speed_t(B460800),
    921_600: speed_t(B921600),
  ]

  /// Every speed a Linux terminal takes by a `B…` constant (`termios(3)`, `<bits/termios.h>`),
  /// the standard ones and the rest: `B0` (hang up) is 0.
  static let lineSpeeds: [Int: speed_t] = speeds.merging(
    [
      0: speed_t(B0), 50: speed_t(B50), 75: speed_t(B75), 110: speed_t(B110),
      134: speed_t(B134), 150: speed_t(B150), 200: speed_t(B200), 300: speed_t(B300),
      600: speed_t(B600), 1800: speed_t(B1800), 500_000: speed_t(B500000),
      576_000: speed_t(B576000), 1_000_000: speed_t(B1000000), 1_152_000: speed_t(B1152000),
      1_500_000: speed_t(B1500000), 2_000_000: speed_t(B2000000), 2_500_000: speed_t(B2500000),
      3_000_000: speed_t(B3000000), 3_500_000: speed_t(B3500000), 4_000_000: speed_t(B4000000),
    ], uniquingKeysWith: { standard, _ in standard })

  /// `lineSpeeds` the other way round: the bits per second of each `B…` constant. The device
  /// reads its client's speed before each write; scanning `lineSpeeds` for it was 1 % of a
  /// fleet's instructions under callgrind.
  static let lineSpeedsByConstant = Dictionary(
    uniqueKeysWithValues: lineSpeeds.map { ($0.value, $0.key) })

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
    guard let speed = Self.speeds[baud] else { return }
    cfsetspeed(&raw, speed)
  }

  /// The output speed as a baud, or nil for a non-standard setting.
  public var baud: Int? {
    var copy = raw
    let speed = cfgetospeed(&copy)
    guard let bitsPerSecond = Self.lineSpeedsByConstant[speed], Self.speeds[bitsPerSecond] != nil
    else { return nil }
    return bitsPerSecond
  }

  /// The output speed in bits per second for any `B…` constant, the standard bauds and the
  /// others (`B50`, `B4000000`; 0 for `B0`, which hangs the line up); nil for a speed set by
  /// number (`BOTHER`), which `tcgetattr` does not report.
  public var lineSpeed: Int? {
    var copy = raw
    let speed = cfgetospeed(&copy)
    return Self.lineSpeedsByConstant[speed]
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
