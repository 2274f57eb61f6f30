import NMEA
import SiRF
import UBX

/// Splits what a client writes to the device into NMEA lines, UBX frames and SiRF binary
/// frames, in order, whatever the chunks the bytes arrive in.
///
/// NMEA lines follow `Framer`'s rules, which the demultiplexer applies by feeding it every byte
/// that is not part of a binary frame. A UBX frame starts at the sync characters `B5 62`, a
/// SiRF frame at `A0 A2`, even in the middle of a line (no NMEA line holds `B5` or `A0`); the
/// line in progress is then dropped. The length field says where the frame ends. A frame whose
/// checksum (or SiRF end sequence) fails, or whose length exceeds its protocol's maximum, is
/// garbage: its two sync bytes are counted as discarded and scanning resumes at the byte after
/// them, so a real line or frame inside a false one is found.
///
/// Memory stays bounded: one line of at most `maximumLineLength` bytes or one frame of at most
/// `UBXFrame.maximumPayloadLength + UBXFrame.overhead` bytes.
public struct InputDemultiplexer: Sendable {
  /// The binary protocols a frame can be in.
  private enum BinaryProtocol: Sendable {
    case ubx
    case sirf

    /// The protocol whose first sync byte `byte` is, if any.
    init?(firstSyncByte byte: UInt8) {
      switch byte {
      case UBXFrame.sync[0]: self = .ubx
      case SiRFFrame.start[0]: self = .sirf
      default: return nil
      }
    }

    var sync: [UInt8] {
      switch self {
      case .ubx: return UBXFrame.sync
      case .sirf: return SiRFFrame.start
      }
    }

    /// Bytes up to the end of the length field.
    var headerLength: Int {
      switch self {
      case .ubx: return 6
      case .sirf: return 4
      }
    }
  }

  /// What parsing the frame so far tells.
  private enum FrameOutcome {
    case complete(ClientMessage)
    case needs(Int)
    /// Not a frame; a UBX frame whose checksum failed carries what it named.
    case rejected(UBXInputFault?)
  }

  private var framer: Framer
  /// Bytes discarded by framers replaced when a binary frame cut a line short.
  private var earlierFramerDiscards = 0
  /// Sync bytes of rejected binary frames.
  private var rejectedSyncBytes = 0
  /// Whole UBX frames whose checksum failed, since `takeUBXFaults()`.
  private var ubxFaults: [UBXInputFault] = []
  /// Bytes of the frames reported as faults (`takeUBXFaults()`); they count as discarded too.
  public private(set) var faultedFrameByteCount = 0
  /// The protocol whose first sync byte was the last byte; the next decides whether a frame
  /// starts.
  private var holdingSyncStart: BinaryProtocol?
  /// The protocol of the frame being read.
  private var frameProtocol = BinaryProtocol.ubx
  /// The binary frame being read, sync included; empty outside a frame.
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

  /// Takes one byte; returns the bytes to scan again when it completed a rejected frame.
  private mutating func consume(_ byte: UInt8, into messages: inout [ClientMessage]) -> [UInt8]? {
    if !frame.isEmpty { return continueFrame(with: byte, into: &messages) }
    if let held = holdingSyncStart {
      holdingSyncStart = nil
      if byte == held.sync[1] {
        startFrame(held)
        return nil
      }
      frameLine(held.sync[0], into: &messages)
    }
    if let binary = BinaryProtocol(firstSyncByte: byte) {
      holdingSyncStart = binary
    } else {
      frameLine(byte, into: &messages)
    }
    return nil
  }

  private mutating func frameLine(_ byte: UInt8, into messages: inout [ClientMessage]) {
    for line in framer.append(CollectionOfOne(byte)) { messages.append(.nmea(line)) }
  }

  /// Starts a binary frame after its sync, ending the NMEA line in progress.
  ///
  /// A `$` makes the framer drop and count the line in progress, by its own rule; a new framer
  /// then forgets that `$`, which the client never sent.
  private mutating func startFrame(_ binary: BinaryProtocol) {
    _ = framer.append(CollectionOfOne(UInt8(ascii: "$")))
    earlierFramerDiscards += framer.discardedByteCount
    framer = Framer(maximumLineLength: framer.maximumLineLength)
    frameProtocol = binary
    frame = binary.sync
    frameLength = nil
  }

  private mutating func continueFrame(
    with byte: UInt8, into messages: inout [ClientMessage]
  ) -> [UInt8]? {
    frame.append(byte)
    // Parse once the header is in (to learn the length) and once the whole frame is.
    guard frame.count == frameProtocol.headerLength || frame.count == frameLength else {
      return nil
    }
    switch parseFrame() {
    case .complete(let message):
      messages.append(message)
      frame.removeAll(keepingCapacity: true)
      return nil
    case .needs(let length):
      frameLength = length
      return nil
    case .rejected(let fault):
      if let fault {
        ubxFaults.append(fault)
        faultedFrameByteCount += frame.count
      }
      rejectedSyncBytes += frameProtocol.sync.count
      let rest = Array(frame.dropFirst(frameProtocol.sync.count))
      frame.removeAll(keepingCapacity: true)
      return rest
    }
  }

  /// Parses `frame` in its protocol.
  private func parseFrame() -> FrameOutcome {
    switch frameProtocol {
    case .ubx:
      do throws(UBXError) {
        return .complete(.ubx(try UBXFrame(parsing: frame)))
      } catch .truncated(_, let needed) {
        return .needs(needed)
      } catch .badChecksum(let expected, let found) {
        let type = UBXMessageType(messageClass: frame[2], id: frame[3])
        return .rejected(
          UBXInputFault(type: type, kind: .badChecksum(expected: expected, found: found)))
      } catch {
        return .rejected(nil)
      }
    case .sirf:
      do throws(SiRFError) {
        return .complete(.sirf(try SiRFFrame(parsing: frame)))
      } catch .truncated(_, let needed) {
        return .needs(needed)
      } catch {
        return .rejected(nil)
      }
    }
  }

  /// The whole UBX frames whose checksum failed since the last call (their bytes are counted
  /// as discarded too), oldest first.
  public mutating func takeUBXFaults() -> [UBXInputFault] {
    defer { ubxFaults.removeAll() }
    return ubxFaults
  }
}
