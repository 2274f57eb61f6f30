import Geodesy
import Wire

/// Rewrites a replayed log's packets: moves every time and date field by a shift (`--time
/// now`), and moves the track so that its first position is at another place (`--move-to`),
/// keeping its shape and motion. Checksums are recomputed; packets it has nothing to change in
/// pass unchanged.
///
/// What is rewritten: NMEA sentences as `NMEASentenceLayout` lists, UBX frames as
/// `UBXTimeShift` and `UBXPositionMove` list. Each field keeps its recorded precision and
/// shape; a sentence with a checksum gets a correct one in the recorded letter case.
///
/// What is sent as recorded: comments, garbage, other binary protocols, packets with a
/// problem (a bad checksum is replayed as bad), and any sentence with a malformed field to
/// rewrite (letters, out of range): rewriting never fails.
///
/// Positions of sentences and frames that say there is no fix (GGA quality 0, RMC/GLL status
/// V, NAV-PVT fixType 0…) and positions at exactly 0° 0° are left as recorded and do not fix
/// the origin. Times are shifted at each field's precision: the shift is rounded to the field's
/// last digit, so a caller that wants a 1 Hz log to stay on whole seconds passes a shift of
/// whole seconds.
public struct ReplayRewriter: Sendable {
  /// Where the first position of the log goes; nil leaves positions as recorded.
  public let moveTo: GeodeticPosition?
  /// Added to every time and date: 0 leaves them as recorded.
  public var timeShiftNanoseconds: Int64 = 0

  private var mover: TrackMover?

  /// Creates a rewriter.
  public init(moveTo: GeodeticPosition? = nil, timeShiftNanoseconds: Int64 = 0) {
    self.moveTo = moveTo
    self.timeShiftNanoseconds = timeShiftNanoseconds
    mover = moveTo.map { TrackMover(destination: $0) }
  }

  /// True when it changes nothing.
  public var isIdentity: Bool { moveTo == nil && timeShiftNanoseconds == 0 }

  /// The first position met, which `moveTo` moves the track to; nil before one was met or
  /// when the track is not moved.
  public var trackOrigin: GeodeticPosition? { mover?.origin }

  /// The packet rewritten. The first position met fixes the track's origin for all that follow
  /// (through loops too).
  public mutating func rewrite(_ packet: LogPacket) -> LogPacket {
    guard !isIdentity, packet.problem == nil else { return packet }
    var rewritten = packet
    switch packet.kind {
    case .nmea:
      guard
        let bytes = NMEASentenceRewriter.rewrite(
          Array(packet.bytes), shiftNanoseconds: timeShiftNanoseconds, mover: &mover)
      else { return packet }
      rewritten.bytes = bytes[...]
    case .ubx:
      guard var frame = UBXFrameBytes(Array(packet.bytes)) else { return packet }
      var changed = false
      if timeShiftNanoseconds != 0 {
        changed = UBXTimeShift(shiftNanoseconds: timeShiftNanoseconds).shift(&frame)
      }
      if var mover {
        changed = UBXPositionMove.move(&frame, with: &mover) || changed
        self.mover = mover
      }
      guard changed else { return packet }
      rewritten.bytes = frame.finished[...]
    default:
      return packet
    }
    return rewritten
  }
}
