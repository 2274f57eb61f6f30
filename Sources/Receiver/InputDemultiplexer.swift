import NMEA
import UBX

/// Splits what a client writes to the device into NMEA lines and UBX frames, in order, whatever
/// the chunks the bytes arrive in.
///
/// NMEA lines follow `Framer`'s rules, which the demultiplexer applies by feeding it every byte
/// that is not part of a UBX frame. A UBX frame starts at the sync characters `B5 62`, even in
/// the middle of a line (no NMEA line holds `B5`); the line in progress is then dropped. The
/// length field says where the frame ends. A frame whose checksum fails, or whose length exceeds
/// `UBXFrame.maximumPayloadLength`, is garbage: its two sync bytes are counted as discarded and
/// scanning resumes at the byte after them, so a real line or frame inside a false one is found.
///
/// Memory stays bounded: one line of at most `maximumLineLength` bytes or one frame of at most
/// `UBXFrame.maximumPayloadLength + UBXFrame.overhead` bytes.
public struct InputDemultiplexer: Sendable {
  private var framer: Framer
  /// Bytes discarded by framers replaced when a UBX frame cut a line short.
  private var earlierFramerDiscards = 0
  /// Sync bytes of rejected UBX frames.
  private var rejectedSyncBytes = 0
  /// True when the last byte was `B5` and the next decides whether a frame starts.
  private var holdingSyncStart = false
  /// The UBX frame being read, sync included; empty outside a frame.
  private var frame: [UInt8] = []
  /// The length of `frame` once its length field has arrived.
  private var frameLength: Int?

  /// Creates a demultiplexer that drops NMEA lines longer than `maximumLineLength` bytes.
  public init(maximumLineLength: Int = 160) {
    framer = Framer(maximumLineLength: maximumLineLength)
  }

  /// The longest NMEA line kept, delimiter included.
  public var maximumLineLength: Int { framer.maximumLineLength }

  /// Bytes that were neither part of a complete NMEA line nor of a valid UBX frame.
  ///
  /// Line endings between lines are not counted, as `Framer` does not count them.
  public var discardedByteCount: Int {
    earlierFramerDiscards + framer.discardedByteCount + rejectedSyncBytes
  }

  /// Feeds bytes and returns the messages they complete, in the order they ended.
  public mutating func append(_ bytes: some Sequence<UInt8>) -> [ClientMessage] {
    var messages: [ClientMessage] = []
    for byte in bytes {
      guard var rescan = consume(byte, into: &messages) else { continue }
      var index = 0
      while index < rescan.count {
        let next = rescan[index]
        index += 1
        if let rejected = consume(next, into: &messages) {
          rescan = rejected + rescan[index...]
          index = 0
        }
      }
    }
    return messages
  }

  /// Takes one byte; returns the bytes to scan again when it completed a rejected UBX frame.
  private mutating func consume(_ byte: UInt8, into messages: inout [ClientMessage]) -> [UInt8]? {
    if !frame.isEmpty { return continueFrame(with: byte, into: &messages) }
    if holdingSyncStart {
      holdingSyncStart = false
      if byte == UBXFrame.sync[1] {
        startFrame()
        return nil
      }
      frameLine(UBXFrame.sync[0], into: &messages)
    }
    if byte == UBXFrame.sync[0] {
      holdingSyncStart = true
    } else {
      frameLine(byte, into: &messages)
    }
    return nil
  }

  private mutating func frameLine(_ byte: UInt8, into messages: inout [ClientMessage]) {
    for line in framer.append(CollectionOfOne(byte)) { messages.append(.nmea(line)) }
  }

  /// Starts a UBX frame after its sync, ending the NMEA line in progress.
  ///
  /// A `$` makes the framer drop and count the line in progress, by its own rule; a new framer
  /// then forgets that `$`, which the client never sent.
  private mutating func startFrame() {
    _ = framer.append(CollectionOfOne(UInt8(ascii: "$")))
    earlierFramerDiscards += framer.discardedByteCount
    framer = Framer(maximumLineLength: framer.maximumLineLength)
    frame = UBXFrame.sync
    frameLength = nil
  }

  private mutating func continueFrame(
    with byte: UInt8, into messages: inout [ClientMessage]
  ) -> [UInt8]? {
    frame.append(byte)
    // Parse once the header is in (to learn the length) and once the whole frame is.
    guard frame.count == 6 || frame.count == frameLength else { return nil }
    do throws(UBXError) {
      let parsed = try UBXFrame(parsing: frame)
      messages.append(.ubx(parsed))
      frame.removeAll(keepingCapacity: true)
      return nil
    } catch .truncated(_, let needed) {
      frameLength = needed
      return nil
    } catch {
      rejectedSyncBytes += UBXFrame.sync.count
      let rest = Array(frame.dropFirst(UBXFrame.sync.count))
      frame.removeAll(keepingCapacity: true)
      return rest
    }
  }
}
