/// Both directions of the serial line between the chip and a client, each end at its own
/// speed: what the chip sends reaches the client through a `UARTLine` from the chip's baud to
/// the client's, and what the client sends reaches the chip the other way.
///
/// While the speeds match (or one is unknown: an unpaced chip, a client whose speed was set by
/// number) bytes pass as they are. Any other client speed garbles, whether or not the chip
/// offers it (50 baud, 4 Mbaud). A client at speed 0 (`B0`, which hangs up the modem lines)
/// samples at 9600 baud, as Linux's serial core runs a UART told B0 (`uart_get_baud_rate`).
/// A change of either speed starts both directions afresh on an idle line: a frame in progress
/// at the old speed is lost, as it would be on a UART.
public struct UARTLink: Sendable {
  /// The chip's port speed; 0 (unpaced) passes every byte as it is.
  public private(set) var chipBaud: Int
  /// The speed the client's UART samples at (9600 for `B0`); nil while unknown.
  public private(set) var clientBaud: Int?
  private var toClient: UARTLine?
  private var toChip: UARTLine?

  /// A link from a chip at `chipBaud` (0: unpaced) to a client whose speed is not known yet.
  public init(chipBaud: Int) {
    self.chipBaud = chipBaud
  }

  /// True when bytes pass as they are: the speeds match, or one of them is unknown.
  public var isClean: Bool {
    guard chipBaud > 0, let clientBaud else { return true }
    return clientBaud == chipBaud
  }

  /// Sets the chip's port speed (`CFG-PRT`, `PMTK251`, the option).
  public mutating func setChipBaud(_ baud: Int) {
    guard baud != chipBaud else { return }
    chipBaud = baud
    restart()
  }

  /// The speed a UART runs at when its terminal is set to `B0`: Linux's serial core (and the
  /// USB serial drivers after it) falls back to 9600 baud.
  public static let hangUpBaud = 9600

  /// Sets the speed the client's terminal is at, as read from it (0 for `B0`).
  public mutating func setClientBaud(_ terminalBaud: Int?) {
    let baud = terminalBaud.map { $0 == 0 ? Self.hangUpBaud : $0 }
    guard baud != clientBaud else { return }
    clientBaud = baud
    restart()
  }

  /// What the client receives of `bytes` the chip sends, right after the bytes sent before
  /// (`afterIdle` false: a burst goes on) or after an idle line (a burst, a reply starts);
  /// with `thenIdle`, the line goes idle after them and the frame they leave open completes.
  public mutating func chipSends(
    _ bytes: ArraySlice<UInt8>, afterIdle: Bool, thenIdle: Bool
  ) -> ArraySlice<UInt8> {
    guard !isClean, var line = toClient else { return bytes }
    defer { toClient = line }
    let received = line.send(bytes, idleBitsBefore: afterIdle ? .max : 0)
    return (thenIdle ? received + line.idle() : received)[...]
  }

  /// What the chip receives of what the client wrote in one go: a write from an idle line,
  /// after which the line idles.
  public mutating func clientSends(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    guard !isClean, var line = toChip else { return bytes }
    defer { toChip = line }
    return (line.send(bytes, idleBitsBefore: .max) + line.idle())[...]
  }

  /// Both directions on a fresh idle line at the current speeds.
  private mutating func restart() {
    guard !isClean, let clientBaud else {
      (toClient, toChip) = (nil, nil)
      return
    }
    toClient = UARTLine(senderBaud: chipBaud, receiverBaud: clientBaud)
    toChip = UARTLine(senderBaud: clientBaud, receiverBaud: chipBaud)
  }
}
