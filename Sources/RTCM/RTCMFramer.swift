/// Splits a byte stream into RTCM 3 frames as a receiver does, whatever the chunks the bytes
/// arrive in.
///
/// A frame starts at a preamble 0xD3 whose next six bits are zero; its length field says where
/// it ends. A frame whose CRC-24Q fails is dropped and scanning resumes at the byte after its
/// preamble, so a real frame inside a false or cut one is found. Bytes outside good frames are
/// discarded and counted.
///
/// A frame cut short is found either way its length field takes it: while it waits for bytes, a
/// complete frame with a good CRC among the bytes already held means the sender gave up on it
/// and started another (a false preamble waiting for a long frame is dropped the same way); when
/// its length swallowed the next frame's start, its CRC fails, and a good frame found starting
/// inside it then tells it was **truncated** rather than a **bad CRC**. `finish()` counts a
/// frame the stream ends inside as truncated.
///
/// Memory stays bounded: at most one frame of `RTCMFrame.maximumPayloadLength` +
/// `RTCMFrame.overhead` bytes is held between calls.
public struct RTCMFramer: Sendable {
  /// What the framer found in the bytes of one `append`.
  public enum Event: Hashable, Sendable {
    /// A frame whose CRC held.
    case frame(RTCMFrame)
    /// A frame whose CRC failed, with the message number its payload starts with (nil when the
    /// payload is shorter than 12 bits).
    case checksumFailed(messageNumber: Int?)
  }

  /// The frame statistics.
  public struct Counts: Hashable, Sendable {
    /// Frames whose CRC held.
    public var frames = 0
    /// Frames whose CRC failed, truncated ones excepted.
    public var badChecksums = 0
    /// Frames cut short: a good frame started inside them, or the stream ended inside them.
    public var truncated = 0
    /// Bytes that were not part of a good frame (garbage between frames and failed frames).
    public var discardedBytes = 0
  }

  /// The bytes not yet framed, from the stream offset `bufferStart`.
  private var buffer: [UInt8] = []
  /// The stream offset of `buffer[0]`.
  private var bufferStart = 0
  /// The stream offsets a failed frame spanned, until a later frame classifies it.
  private var unresolvedFailure: Range<Int>?
  /// Stream offsets of complete candidates ahead of the frame being read whose CRC failed.
  private var rejectedCandidates: Set<Int> = []
  /// The statistics so far.
  public private(set) var counts = Counts()

  /// A framer at the start of a stream.
  public init() {}

  /// Feeds bytes and returns the frames and failures they complete, in stream order.
  public mutating func append(_ bytes: some Sequence<UInt8>) -> [Event] {
    buffer.append(contentsOf: bytes)
    var events: [Event] = []
    while let event = nextEvent() { events.append(event) }
    return events
  }

  /// Ends the stream: a frame in progress counts as truncated and its bytes as discarded.
  public mutating func finish() {
    if buffer.first == RTCMFrame.preamble { counts.truncated += 1 }
    resolveFailure(at: Int.max)
    discard(buffer.count)
  }

  /// Frames what the buffer holds up to its first event, nil when it needs more bytes.
  private mutating func nextEvent() -> Event? {
    while let first = buffer.first {
      guard first == RTCMFrame.preamble else {
        discard(buffer.firstIndex(of: RTCMFrame.preamble) ?? buffer.count)
        continue
      }
      guard buffer.count >= 3 else { return nil }
      guard let length = RTCMFrame.announcedLength(buffer.prefix(3)) else {
        discard(1)
        continue
      }
      let frameLength = length + RTCMFrame.overhead
      if let restart = goodFrameAhead(endingBefore: frameLength) {
        // A candidate among a failed frame's bytes is part of that frame, not a frame cut short.
        if unresolvedFailure?.contains(bufferStart) != true { counts.truncated += 1 }
        discard(restart)
        continue
      }
      guard buffer.count >= frameLength else { return nil }
      do throws(RTCMError) {
        let frame = try RTCMFrame(parsing: buffer[0..<frameLength])
        resolveFailure(at: bufferStart)
        counts.frames += 1
        buffer.removeFirst(frameLength)
        bufferStart += frameLength
        return .frame(frame)
      } catch {
        resolveFailure(at: Int.max)
        unresolvedFailure = bufferStart..<(bufferStart + frameLength)
        let number =
          length >= 2 ? RTCMFrame.messageNumber(ofPayload: buffer[3..<(3 + length)]) : nil
        discard(1)
        return .checksumFailed(messageNumber: number)
      }
    }
    return nil
  }

  /// The offset in the buffer of the good frame (complete, CRC holding) after the frame being
  /// read that ends first, if one ends before `end` (the frame being read's length), the
  /// earlier starting one of two ending together: the frame that, fed a byte at a time, would
  /// have been complete first. So the outcome does not depend on how the bytes were chunked.
  /// Candidates found bad are remembered, so that bytes fed one at a time do not check them
  /// again.
  private mutating func goodFrameAhead(endingBefore end: Int) -> Int? {
    var best: (start: Int, end: Int)?
    var index = 1
    while index < buffer.count, let start = buffer[index...].firstIndex(of: RTCMFrame.preamble) {
      index = start + 1
      let offset = bufferStart + start
      guard !rejectedCandidates.contains(offset), buffer.count - start >= 3,
        let length = RTCMFrame.announcedLength(buffer[start..<(start + 3)])
      else { continue }
      let frameEnd = start + length + RTCMFrame.overhead
      guard frameEnd <= buffer.count, frameEnd < min(end, best?.end ?? .max) else { continue }
      if (try? RTCMFrame(parsing: buffer[start..<frameEnd])) != nil {
        best = (start, frameEnd)
      } else {
        rejectedCandidates.insert(offset)
      }
    }
    return best?.start
  }

  /// Counts the failed frame, if any: truncated when a good frame starts at `goodFrameStart`
  /// inside it, a bad CRC otherwise.
  private mutating func resolveFailure(at goodFrameStart: Int) {
    guard let failure = unresolvedFailure else { return }
    unresolvedFailure = nil
    if failure.contains(goodFrameStart) {
      counts.truncated += 1
    } else {
      counts.badChecksums += 1
    }
  }

  /// Drops `count` bytes from the buffer's start as discarded.
  private mutating func discard(_ count: Int) {
    buffer.removeFirst(count)
    bufferStart += count
    counts.discardedBytes += count
    rejectedCandidates = rejectedCandidates.filter { $0 >= bufferStart }
    if let failure = unresolvedFailure, bufferStart >= failure.upperBound {
      resolveFailure(at: Int.max)
    }
  }
}
