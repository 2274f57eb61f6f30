/// Splits a log's bytes into packets as they are read, holding only the bytes of the packet
/// being read: a log of any size is split in constant memory.
///
/// Feed it chunks with `packets(from:)`; call `finish()` at the end of the log for what is left.
/// The packets' bytes, joined in order, are the bytes fed, whatever the chunking.
///
/// Packets are framed as gpsd's lexer (`gpsd/packet.c`) frames them: NMEA and AIS sentences,
/// `#` comments, JSON lines, and the binary frames of UBX, SiRF, SkyTraq, TSIP, Garmin,
/// EverMore, Zodiac, GREIS, RTCM 3, Navcom, Oncore, GeoStar and SuperStar II, each checked for
/// its sync bytes, length and checksum. Bytes that start no packet are gathered into
/// `.garbage` packets of up to 4096 bytes. RTCM 2 and iTalk are not framed: they are garbage.
///
/// What a client writes to a simulated receiver is framed apart, by Receiver's
/// `InputDemultiplexer` over NMEA's `Framer`, because it is read with the opposite aim: this
/// splitter keeps every byte and frames as gpsd does (for replaying, and for passing a real
/// receiver through), the demultiplexer takes what a receiver's input parser takes and drops
/// the rest. So there a line ends at its CR at once (a command ended by CR alone is answered
/// without waiting for another byte), and here only once the next byte shows whether an LF
/// follows; there only NMEA, UBX, SiRF and RTCM 3 start anything (a `{`, `#`, `R` or `@` cannot
/// swallow the command after it), lines hold at most 160 bytes and frames their protocol's
/// maximum payload, checked by the UBX, SiRF and RTCM modules' parsers; a frame whose check
/// fails is dropped to the byte after its sync, where this splitter gives it whole with
/// `.badChecksum`. One scanner for both would put each of these choices behind a flag.
public struct LogPacketSplitter: Sendable {
  /// The longest run of garbage given as one packet.
  static let maximumGarbageRun = 4096

  private var garbage: [UInt8] = []
  private var garbageLine = 1
  private var frame: [UInt8] = []
  private var frameLine = 1
  private var framer: Framer?
  /// Inside a line cut at `TextLineFramer.maximumLength`: the rest up to LF is `.tooLong`.
  private var insideLongLine = false
  /// After a GREIS frame, any ASCII byte starts the next one (as in gpsd).
  private var greisExpected = false
  /// The line of the next byte.
  private var line = 1
  private var output: [LogPacket] = []
  /// Bytes to read again after a candidate frame turned out no frame (as gpsd's lexer does,
  /// from the byte after the candidate's first): at most one frame's bytes.
  private var rescan: [UInt8] = []

  /// Creates a splitter at the start of a log.
  public init() {}

  /// The packets completed by `chunk`, in order.
  ///
  /// Called from other modules (Replay, Passthrough), a generic function runs unspecialized,
  /// through witness tables for every byte: the bytes are scanned from contiguous storage (an
  /// array, a slice of one: what callers pass), which costs one dynamic call a chunk.
  public mutating func packets(from chunk: some Collection<UInt8>) -> [LogPacket] {
    var packets: [LogPacket] = []
    append(packetsFrom: chunk, to: &packets)
    return packets
  }

  /// Appends the packets completed by `chunk` to `packets`, in order: a reader that empties
  /// the same array for each chunk (keeping its capacity) allocates it once, where an array
  /// grown anew for each chunk of a log was some ten allocations of kilobytes, each of which
  /// had glibc consolidate its freed small blocks.
  ///
  /// A sentence that lies whole in the chunk is a slice of it (the chunk as an array slice:
  /// what callers pass): the packets of a chunk share its storage.
  public mutating func append(
    packetsFrom chunk: some Collection<UInt8>, to packets: inout [LogPacket]
  ) {
    swap(&output, &packets)
    defer { swap(&output, &packets) }
    let shared = chunk as? ArraySlice<UInt8> ?? (chunk as? [UInt8])?[...] ?? ArraySlice(chunk)
    shared.withUnsafeBufferPointer { split($0, of: shared) }
  }

  /// Splits `chunk`, the bytes of `shared`: a whole ordinary sentence is framed at once (most of
  /// a log), as a slice of `shared`; every other byte is read on its own.
  private mutating func split(_ chunk: UnsafeBufferPointer<UInt8>, of shared: ArraySlice<UInt8>) {
    var index = chunk.startIndex
    while index < chunk.endIndex {
      if framer == nil, !insideLongLine, !greisExpected,
        let (end, problem) = TextLineFramer.wholeSentence(in: chunk, from: index)
      {
        let bytes = shared[(shared.startIndex + index)..<(shared.startIndex + end)]
        emit(LogPacket(kind: .nmea, bytes: bytes, line: line, problem: problem))
        index = end
        line += 1
        continue
      }
      consume(chunk[index])
      index += 1
      while !rescan.isEmpty {
        let bytes = rescan
        rescan = []
        for (position, byte) in bytes.enumerated() {
          consume(byte)
          if !rescan.isEmpty {
            rescan += bytes[(position + 1)...]
            break
          }
        }
      }
    }
  }

  /// The garbage gathered so far, given now rather than with the next packet (a live stream
  /// forwards it at once); a packet being read stays held. Joined in order, the bytes given by
  /// `packets(from:)`, this and `finish()` are still the bytes fed.
  package mutating func pendingGarbage() -> [LogPacket] {
    flushGarbage(insideLongLine ? .tooLong : .garbage)
    defer { output = [] }
    return output
  }

  /// What is left at the end of the log: a packet cut off, garbage, or nothing.
  public mutating func finish() -> [LogPacket] {
    if let framer, !frame.isEmpty {
      var packet = framer.cutOff(frame)
      packet.line = frameLine
      flushGarbage()
      output.append(packet)
    }
    flushGarbage(insideLongLine ? .tooLong : .garbage)
    framer = nil
    frame = []
    insideLongLine = false
    defer { output = [] }
    return output
  }

  /// Reads `byte`, whose line is `line`; leaves `line` at the next byte's, or at the line of
  /// the first byte to read again.
  private mutating func consume(_ byte: UInt8) {
    guard var current = framer else {
      start(with: byte)
      advance(past: byte)
      return
    }
    frame.append(byte)
    let step = current.step(frame)
    framer = current
    switch step {
    case .more:
      advance(past: byte)
    case .done(let kind, let problem):
      emitFrame(kind, problem)
      advance(past: byte)
    case .doneBefore(let kind, let problem):
      frame.removeLast()
      emitFrame(kind, problem)
      consume(byte)
    case .notAFrame:
      framer = nil
      greisExpected = false
      line = frameLine
      appendGarbage(frame.prefix(1), line: frameLine)
      advance(past: frame[0])
      rescan = Array(frame.dropFirst())
      frame.removeAll(keepingCapacity: true)
    case .garbageBefore:
      framer = nil
      greisExpected = false
      frame.removeLast()
      appendGarbage(frame, line: frameLine)
      frame.removeAll(keepingCapacity: true)
      consume(byte)
    }
  }

  private mutating func advance(past byte: UInt8) {
    if byte == 0x0A { line += 1 }
  }

  /// Reads `byte` outside any frame.
  private mutating func start(with byte: UInt8) {
    if insideLongLine {
      appendGarbage(CollectionOfOne(byte), line: line, problem: .tooLong)
      if byte == 0x0A || garbage.count >= Self.maximumGarbageRun { flushGarbage(.tooLong) }
      if byte == 0x0A { insideLongLine = false }
      return
    }
    if let framer = Framer.starting(with: byte, greisExpected: greisExpected) {
      self.framer = framer
      frame.append(byte)
      frameLine = line
    } else {
      appendGarbage(CollectionOfOne(byte), line: line)
    }
  }

  private mutating func emitFrame(_ kind: LogPacket.Kind, _ problem: LogPacket.Problem?) {
    // A copy of its size (`Array(frame)` would share the storage): the frame's storage, grown
    // to the longest frame met, stays for the next frame.
    let bytes = frame.withUnsafeBufferPointer { Array($0) }
    emit(LogPacket(kind: kind, bytes: bytes, line: frameLine, problem: problem))
    frame.removeAll(keepingCapacity: true)
  }

  /// Gives out a packet read whole, after the garbage before it.
  private mutating func emit(_ packet: LogPacket) {
    flushGarbage()
    output.append(packet)
    greisExpected = packet.kind == .greis
    insideLongLine = packet.problem == .tooLong && packet.bytes.last != 0x0A
    framer = nil
  }

  private mutating func appendGarbage(
    _ bytes: some Collection<UInt8>, line: Int, problem: LogPacket.Problem = .garbage
  ) {
    if garbage.isEmpty { garbageLine = line }
    garbage.append(contentsOf: bytes)
    if garbage.count >= Self.maximumGarbageRun { flushGarbage(problem) }
  }

  private mutating func flushGarbage(_ problem: LogPacket.Problem = .garbage) {
    guard !garbage.isEmpty else { return }
    output.append(LogPacket(kind: .garbage, bytes: garbage, line: garbageLine, problem: problem))
    garbage = []
  }
}
