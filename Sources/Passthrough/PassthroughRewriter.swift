import Geodesy
import Simulation
import Wire

/// Rewrites what a real receiver sends per a `PositionOverride`: it frames the stream into
/// sentences and frames, replaces position (and motion, where overridden) on every path that
/// carries one, recomputes checksums, and gives back everything else unchanged and in order.
///
/// Framing is `LogPacketSplitter`'s (gpsd's lexer): a sentence is given back at its LF, a UBX
/// frame at its last checksum byte, bytes that start no packet at the end of the chunk that
/// brought them. What is held is at most one packet being read (bounded by the longest
/// packet of its protocol), so a flood of garbage never grows memory. Rewriting is
/// `NMEAOverride`'s and `UBXOverride`'s, which reuse Wire's (a replay's `--move-to` too).
public struct PassthroughRewriter: Sendable {
  /// What positions become; may be changed between chunks (the control socket will).
  public var override: PositionOverride
  /// Counters.
  public private(set) var statistics = PassthroughStatistics()
  /// The last real position met (not while `off`); nil before one.
  public var lastRealPosition: GeodeticPosition? { mapping.lastReal }

  private var splitter = LogPacketSplitter()
  /// The bytes fed to `splitter` that it has not given back yet: the packet it is reading.
  private var held: [UInt8] = []
  private var mapping = OverrideMapping()
  /// The fix a `freeze` holds, once there is one.
  private var frozen: GeodeticPosition?

  /// Creates a rewriter.
  public init(override: PositionOverride) {
    self.override = override
  }

  /// Takes bytes read from the receiver and returns the bytes to forward now: with `off`, the
  /// chunk itself at once; otherwise every packet completed by it, rewritten, in order. A
  /// packet not yet complete is held (bounded: a packet too long for its protocol is given back
  /// as it is). `now` is when the bytes arrived: the time a `route` override is read at.
  public mutating func forward(_ chunk: some Collection<UInt8>, at now: UTCInstant) -> [UInt8] {
    statistics.bytesReceived += chunk.count
    let motion = prepare(at: now)
    var output: [UInt8] = []
    if case .off = override {
      output = splitter.finish().flatMap(\.bytes)
      output.append(contentsOf: chunk)
      held = []
    } else {
      output.reserveCapacity(chunk.count + 16)
      split(Array(chunk), motion: motion, into: &output)
    }
    statistics.bytesForwarded += output.count
    return output
  }

  /// The receiver went away: the part of a packet held is dropped (its rest will never come),
  /// and the next bytes start afresh. The override's own state (the track's origin, the frozen
  /// fix) is kept, so that it carries over a reconnect.
  public mutating func receiverLost() {
    splitter = LogPacketSplitter()
    held = []
  }

  /// Splits `bytes` and appends what is to be forwarded. A binary frame whose checksum fails is
  /// no frame: its header may have claimed (up to 9 KiB of) the sentences and frames that
  /// followed it, so the stream is split again from its second byte (as gpsd's lexer does with a
  /// candidate that is no frame), and what is found there is rewritten; its first byte passes
  /// as it is. So is a `#` line (a receiver sends no comments: a `#` in its stream is noise).
  private mutating func split(
    _ bytes: [UInt8], motion: OverriddenMotion?, into output: inout [UInt8]
  ) {
    held += bytes
    var packets = splitter.packets(from: bytes) + splitter.pendingGarbage()
    var index = 0
    var start = 0
    while index < packets.count {
      let packet = packets[index]
      index += 1
      start += packet.bytes.count
      guard Self.mayHidePackets(packet), packet.bytes.count > 1 else {
        output += rewritten(packet, motion: motion)
        continue
      }
      countIfUnparsedPositionFrame(packet)
      output.append(packet.bytes[packet.bytes.startIndex])
      held = Array(packet.bytes.dropFirst()) + held[start...]
      (start, index) = (0, 0)
      splitter = LogPacketSplitter()
      packets = splitter.packets(from: held) + splitter.pendingGarbage()
    }
    held.removeFirst(start)
  }

  /// Sets the mapping's rule for the current override; returns the motion it imposes.
  private mutating func prepare(at now: UTCInstant) -> OverriddenMotion? {
    mapping.replacedAltitude = nil
    if case .freeze = override {} else { frozen = nil }
    switch override {
    case .off:
      return nil
    case .replace(let position, let replacesAltitude):
      mapping.rule = .constant(position)
      mapping.replacedAltitude = replacesAltitude ? position.altitudeMeters : nil
      return .standingStill
    case .offsetTo(let destination):
      if mapping.trackMover?.destination != destination {
        mapping.trackMover = TrackMover(destination: destination)
      }
      mapping.rule = .track
      return nil
    case .offsetBy(let north, let east):
      mapping.rule = .offset(northMeters: north, eastMeters: east)
      return nil
    case .route(let motion):
      let state = motion.state(at: now)
      mapping.rule = .constant(state.position)
      return OverriddenMotion(
        speedMetersPerSecond: state.speedMetersPerSecond, courseDegrees: state.courseDegrees,
        climbMetersPerSecond: state.climbMetersPerSecond)
    case .freeze:
      if frozen == nil { frozen = mapping.lastReal }
      if let frozen {
        mapping.rule = .constant(frozen)
      } else {
        mapping.rule = .holdFirst
      }
      return .standingStill
    }
  }

  /// True for a binary frame whose checksum fails, and for a comment.
  private static func mayHidePackets(_ packet: LogPacket) -> Bool {
    switch packet.kind {
    case .comment: return true
    case .nmea, .garbage: return false
    default: return packet.problem == .badChecksum
    }
  }

  /// Counts a UBX frame that would carry a position but does not parse.
  private mutating func countIfUnparsedPositionFrame(_ packet: LogPacket) {
    let start = packet.bytes.startIndex
    if packet.kind == .ubx, packet.bytes.count > 3, packet.bytes[start + 2] == 0x01,
      UBXOverride.positionIDs.contains(packet.bytes[start + 3])
    {
      statistics.unparsedPassed += 1
    }
  }

  /// One packet's bytes to forward.
  private mutating func rewritten(_ packet: LogPacket, motion: OverriddenMotion?)
    -> ArraySlice<UInt8>
  {
    defer { if case .freeze = override, frozen == nil { frozen = mapping.lastMove?.to } }
    switch packet.kind {
    case .nmea:
      guard packet.problem == nil else {
        if NMEAOverride.carriesPosition(Array(packet.bytes)) { statistics.unparsedPassed += 1 }
        return packet.bytes
      }
      switch NMEAOverride.rewrite(Array(packet.bytes), mapping: &mapping, motion: motion) {
      case .unchanged:
        return packet.bytes
      case .rewritten(let bytes):
        statistics.sentencesRewritten += 1
        return bytes[...]
      case .unparsed:
        statistics.unparsedPassed += 1
        return packet.bytes
      }
    case .ubx:
      guard packet.problem == nil, var frame = UBXFrameBytes(Array(packet.bytes)) else {
        countIfUnparsedPositionFrame(packet)
        return packet.bytes
      }
      guard UBXOverride.rewrite(&frame, mapping: &mapping, motion: motion) else {
        return packet.bytes
      }
      statistics.framesRewritten += 1
      return frame.finished[...]
    default:
      if UnrewrittenPositionFrames.contains(packet) { statistics.unrewrittenPositionFrames += 1 }
      return packet.bytes
    }
  }
}
