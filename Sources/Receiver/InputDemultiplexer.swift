import NMEA
import RTCM
import SiRF
import UBX

/// Splits what a client writes to the device into NMEA lines, UBX frames, SiRF binary frames
/// and RTCM 3 frames, in order, whatever the chunks the bytes arrive in.
///
/// NMEA lines follow `Framer`'s rules, which the demultiplexer applies by feeding it every byte
/// that is not part of a binary frame. A UBX frame starts at the sync characters `B5 62`, a
/// SiRF frame at `A0 A2`, an RTCM 3 frame at its preamble `D3` followed by six zero bits, even
/// in the middle of a line (no NMEA line holds `B5`, `A0` or `D3`); the line in progress is
/// then dropped. The length field says where the frame ends. A frame whose checksum (or SiRF
/// end sequence) fails, or whose length exceeds its protocol's maximum, is garbage: its sync
/// bytes (two, or RTCM's one preamble) are counted as discarded and scanning resumes at the
/// byte after them, so a real line or frame inside a false one is found. An RTCM 3 frame whose
/// CRC fails is also returned as `.rtcm(.checksumFailed)`, since a receiver reports those.
///
/// Memory stays bounded: one line of at most `maximumLineLength` bytes or one frame of at most
/// `UBXFrame.maximumPayloadLength + UBXFrame.overhead` bytes.
///
/// This frames as a receiver reads its input, dropping what it does not take; a receiver's
/// output is split, every byte kept, as gpsd's lexer splits it by Wire's `LogPacketSplitter`,
/// whose documentation says where the two differ and why they are two.
public struct InputDemultiplexer: Sendable {
  /// The binary protocols a frame can be in.
  private enum BinaryProtocol: Sendable {
    case ubx
    case sirf
    case rtcm

    /// The protocol whose first sync byte `byte` is, if any.
    init?(firstSyncByte byte: UInt8) {
      switch byte {
      case UBXFrame.sync[0]: self = .ubx
      case SiRFFrame.start[0]: self = .sirf
      case RTCMFrame.preamble: self = .rtcm
      default: return nil
      }
    }

    var sync: [UInt8] {
      switch self {
      case .ubx: return UBXFrame.sync
      case .sirf: return SiRFFrame.start
      case .rtcm: return [RTCMFrame.preamble]
      }
    }

    /// True when `byte`, after the first sync byte, starts a frame: the second sync byte, or
    /// for RTCM 3 a byte whose six reserved bits are zero.
    func startsFrame(with byte: UInt8) -> Bool {
      switch self {
      case .ubx, .sirf: return byte == sync[1]
      case .rtcm: return byte & 0xFC == 0
      }
    }

    /// Bytes up to the end of the length field.
    var headerLength: Int {
      switch self {
      case .ubx: return 6
      case .sirf: return 4
      case .rtcm: return 3
      }
    }
  }

  /// What parsing the frame so far tells.
  private enum FrameOutcome {
    case complete(ClientMessage)
    case needs(Int)
    /// Not a frame; a UBX frame whose checksum failed carries what it named.
    case rejected(UBXInputFault?)
    /// Not a frame, but reported: an RTCM 3 frame whose CRC failed.
    case failed(ClientMessage)
  }

  private var framer: Framer
  /// Bytes discarded by framers replaced when a binary frame cut a line short.
  private var earlierFramerDiscards = 0
  /// Sync bytes of rejected binary frames.
  private var rejectedSyncBytes = 0
  /// RTCM 3 frames whose CRC failed.
  public private(set) var rtcmChecksumFailureCount = 0
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
      if held.startsFrame(with: byte) {
        startFrame(held, second: byte)
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
  private mutating func startFrame(_ binary: BinaryProtocol, second: UInt8) {
    _ = framer.append(CollectionOfOne(UInt8(ascii: "$")))
    earlierFramerDiscards += framer.discardedByteCount
    framer = Framer(maximumLineLength: framer.maximumLineLength)
    frameProtocol = binary
    frame = [binary.sync[0], second]
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
      return reject()
    case .failed(let message):
      messages.append(message)
      rtcmChecksumFailureCount += 1
      return reject()
    }
  }

  /// Drops the frame being read but for the bytes after its sync, which are returned to be
  /// scanned again.
  private mutating func reject() -> [UInt8] {
    rejectedSyncBytes += frameProtocol.sync.count
    let rest = Array(frame.dropFirst(frameProtocol.sync.count))
    frame.removeAll(keepingCapacity: true)
    return rest
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
    case .rtcm:
      do throws(RTCMError) {
        return .complete(.rtcm(.frame(try RTCMFrame(parsing: frame))))
      } catch .truncated(_, let needed) {
        return .needs(needed)
      } catch {
        let length = frame.count - RTCMFrame.overhead
        let number = length >= 2 ? Int(frame[3]) << 4 | Int(frame[4]) >> 4 : nil
        return .failed(.rtcm(.checksumFailed(messageNumber: number)))
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
