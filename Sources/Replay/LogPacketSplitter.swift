/// Splits a log's bytes into packets as they are read, holding only the bytes of the packet
/// being read: a log of any size is split in constant memory.
///
/// Feed it chunks with `packets(from:)`; call `finish()` at the end of the log for what is left.
///
/// PLACEHOLDER (contract only): this version splits at LF into NMEA, comment and garbage lines;
/// the real splitter (binary protocols, checksums, line numbers of binary data) replaces it.
public struct LogPacketSplitter: Sendable {
  private var pending: [UInt8] = []
  private var line = 1

  /// Creates a splitter at the start of a log.
  public init() {}

  /// The packets completed by `chunk`, in order.
  public mutating func packets(from chunk: some Collection<UInt8>) -> [LogPacket] {
    var packets: [LogPacket] = []
    for byte in chunk {
      pending.append(byte)
      if byte == 0x0A { packets.append(take()) }
    }
    return packets
  }

  /// What is left at the end of the log: a last packet without its line end, or nothing.
  public mutating func finish() -> [LogPacket] {
    pending.isEmpty ? [] : [take()]
  }

  private mutating func take() -> LogPacket {
    let bytes = pending
    pending = []
    let start = line
    line += bytes.last == 0x0A ? 1 : 0
    switch bytes.first {
    case UInt8(ascii: "$"), UInt8(ascii: "!"):
      return LogPacket(kind: .nmea, bytes: bytes, line: start)
    case UInt8(ascii: "#"): return LogPacket(kind: .comment, bytes: bytes, line: start)
    default: return LogPacket(kind: .garbage, bytes: bytes, line: start, problem: .garbage)
    }
  }
}
