import UBX
import Wire

/// Follows a client's command to change the receiver's baud: a UBX CFG-PRT (or CFG-VALSET of
/// CFG-UART1-BAUDRATE) or a PMTK251 written to the receiver, which takes effect on the real
/// port once the receiver acknowledges it (UBX ACK-ACK of the command, `$PMTK001,251,3`).
///
/// A receiver may switch without an acknowledgement that can be read at the old rate: u-blox
/// warns that the ACK of a CFG-PRT that changes the baud may already go out at the new rate,
/// and MediaTek chips switch at once on PMTK251 (their manuals give no reply for it; gpsd 3.22
/// never sends it: its MTK-3301 driver has no speed switcher). So once a command was forwarded,
/// the change is also followed when the receiver then sends `silentSwitchByteCount` bytes that
/// are no valid packet, with no valid packet after them: the bytes of a receiver read at the
/// wrong rate. Only packets that begin after the command count. A refusal (ACK-NAK, `$PMTK001,251,` with a flag other than 3) drops the change;
/// so do `abandonAfterPackets` valid packets at the old rate without an answer.
///
/// A CFG-PRT names a port: a u-blox chip acknowledges a change of its UART2 without touching
/// the port it talks on. The watcher learns that port from the receiver's own CFG-PRT (its
/// answer to gpsd's poll, sent for the port the poll came in on) and follows only a change of
/// it; before the receiver has said, only UART1, the port of a receiver wired to a serial line.
///
/// Both directions are framed by Wire's `LogPacketSplitter`: chunk boundaries do not matter
/// and the memory held is at most one frame per direction.
public struct BaudChangeWatcher: Sendable {
  /// A change a client asked for, waiting for the receiver's answer.
  public struct PendingChange: Hashable, Sendable {
    /// The rate asked for.
    public var baud: Int
    /// The command, whose acknowledgement makes the change: a UBX message type, or nil for
    /// PMTK251.
    public var ubxCommand: UBXMessageType?
    /// The port a CFG-PRT configures (1, 2: UARTs; 3: USB); nil for the other commands.
    public var portID: UInt8? = nil
  }

  /// The port the receiver talks on, as its own CFG-PRT said; nil before it has said.
  public private(set) var receiverPortID: UInt8?

  /// Rates a command may ask for; anything else is not followed.
  public static let supportedBauds = [
    1200, 2400, 4800, 9600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600,
  ]
  /// Invalid bytes from the receiver, after a command and after its last valid packet, that
  /// show it talks at another rate now: more than two longest sentences (82 bytes each), so
  /// that a sentence or two hit by line noise at the old rate do not count.
  public static let silentSwitchByteCount = 2 * 82 + 1
  /// Valid packets at the old rate after which an unanswered command is given up.
  public static let abandonAfterPackets = 200

  /// The change waiting for the receiver's answer, if any.
  public private(set) var pending: PendingChange?
  private var clientSplitter = LogPacketSplitter()
  private var receiverSplitter = LogPacketSplitter()
  private var invalidBytes = 0
  private var packetsSinceCommand = 0
  /// Receiver bytes fed, and those already given out in packets: a packet's first byte is
  /// `emittedBytes` before it is counted in.
  private var receivedBytes = 0
  private var emittedBytes = 0
  /// `receivedBytes` when the pending command was sent: packets that began before it say
  /// nothing about the answer.
  private var commandOffset = 0

  public init() {}

  /// Looks at bytes the client wrote to the receiver.
  public mutating func clientSent(_ chunk: some Collection<UInt8>) {
    for packet in clientSplitter.packets(from: chunk) where packet.isValid {
      guard let change = Self.change(askedBy: packet),
        change.portID == nil || change.portID == (receiverPortID ?? 1)
      else { continue }
      pending = change
      invalidBytes = 0
      packetsSinceCommand = 0
      commandOffset = receivedBytes
    }
  }

  /// Looks at bytes the receiver sent; returns the new baud once the receiver has acknowledged
  /// a pending change (the caller switches the real port after forwarding these bytes).
  public mutating func receiverSent(_ chunk: some Collection<UInt8>) -> Int? {
    receivedBytes += chunk.count
    for packet in receiverSplitter.packets(from: chunk) {
      let start = emittedBytes
      emittedBytes += packet.bytes.count
      if let port = Self.portConfigured(by: packet) { receiverPortID = port }
      guard let change = pending, start >= commandOffset else { continue }
      guard packet.isValid else {
        invalidBytes += packet.bytes.count
        if invalidBytes >= Self.silentSwitchByteCount { return finish(change) }
        continue
      }
      invalidBytes = 0
      switch Self.answer(in: packet, to: change) {
      case .some(true): return finish(change)
      case .some(false): pending = nil
      case nil:
        packetsSinceCommand += 1
        if packetsSinceCommand >= Self.abandonAfterPackets { pending = nil }
      }
    }
    return nil
  }

  /// Ends `change`: the rest of the chunk and what the splitter holds were framed at the old
  /// rate and mean nothing at the new one.
  private mutating func finish(_ change: PendingChange) -> Int {
    pending = nil
    invalidBytes = 0
    receiverSplitter = LogPacketSplitter()
    emittedBytes = receivedBytes
    return change.baud
  }

  /// The change a client's packet asks for: CFG-PRT of a UART or USB port, CFG-VALSET of
  /// CFG-UART1-BAUDRATE in RAM, `$PMTK251,baud`.
  static func change(askedBy packet: LogPacket) -> PendingChange? {
    switch packet.kind {
    case .ubx:
      guard let frame = try? UBXFrame(parsing: packet.bytes) else { return nil }
      let baud: Int?
      var portID: UInt8?
      switch frame.messageType {
      case .cfgPRT:
        // A poll (no payload, or the port ID alone) changes nothing; ports 1-2 are the UARTs,
        // 3 is USB (where gpsd also sets the tty's speed).
        guard let port = UBXPortConfiguration(payload: frame.payload), (1...3).contains(port.portID)
        else { return nil }
        baud = port.baud
        portID = port.portID
      case .cfgVALSET:
        guard let set = UBXValueSet(payload: frame.payload), set.layers & 0x01 != 0 else {
          return nil
        }
        baud = set.items.last { $0.key == .uart1Baud }.map { Int($0.value) }
      default: return nil
      }
      guard let baud, supportedBauds.contains(baud) else { return nil }
      return PendingChange(baud: baud, ubxCommand: frame.messageType, portID: portID)
    case .nmea:
      guard let fields = pmtkFields(packet.bytes), fields.first == "PMTK251", fields.count == 2,
        let baud = Int(fields[1]), supportedBauds.contains(baud)
      else { return nil }
      return PendingChange(baud: baud, ubxCommand: nil)
    default: return nil
    }
  }

  /// The port of a CFG-PRT the receiver sent (its configuration of the port it talks on).
  static func portConfigured(by packet: LogPacket) -> UInt8? {
    guard packet.isValid, packet.kind == .ubx,
      let frame = try? UBXFrame(parsing: packet.bytes), frame.messageType == .cfgPRT,
      let port = UBXPortConfiguration(payload: frame.payload)
    else { return nil }
    return port.portID
  }

  /// true for the receiver's acceptance of `change`, false for its refusal, nil for any other
  /// packet.
  static func answer(in packet: LogPacket, to change: PendingChange) -> Bool? {
    if let command = change.ubxCommand {
      guard packet.kind == .ubx, let frame = try? UBXFrame(parsing: packet.bytes),
        frame.payload == [command.messageClass, command.id]
      else { return nil }
      switch frame.messageType {
      case .ackACK: return true
      case .ackNAK: return false
      default: return nil
      }
    }
    guard packet.kind == .nmea, let fields = pmtkFields(packet.bytes),
      fields.first == "PMTK001", fields.count >= 3, fields[1] == "251"
    else { return nil }
    return fields[2] == "3"
  }

  /// The comma-separated fields of a `$PMTK…` sentence, without `$`, checksum and line end.
  private static func pmtkFields(_ sentence: ArraySlice<UInt8>) -> [Substring]? {
    guard sentence.starts(with: "$PMTK".utf8) else { return nil }
    let body = sentence.dropFirst().prefix { $0 != UInt8(ascii: "*") && $0 != 0x0D && $0 != 0x0A }
    return String(decoding: body, as: UTF8.self).split(
      separator: ",", omittingEmptySubsequences: false)
  }
}
