import DeviceRuntime
import Receiver

/// What the chip makes of its clients' input, owned by the I/O thread's handlers (a
/// `SerialDevice`'s `ClientSide`; a test's memory line hands its input over where they do not
/// run): the parser with its echo filter, when each byte arrived through the line, the chip's
/// command handler, and the throttles of the log lines about bad input.
struct ClientReception {
  /// The parser of what clients write, which also recognises the echo of sent sentences.
  var input = ClientInput()
  /// When what clients wrote has arrived through the line at the chip's speed.
  var arrival = ClientLineArrival()
  /// The chip's answers to commands.
  var handler: any ReceiverCommandHandler
  /// Keeps the lines about bad UBX input to one a second.
  var inputFaultLog = LogThrottle()
  /// Throttles the lines about client bytes that are neither sentences nor UBX frames.
  var garbageLog = LogThrottle()

  /// What the parser made of one read.
  struct Parsed {
    /// Each message, with when its last byte arrived and where its first byte is in the line's
    /// stream (perhaps in an earlier read).
    var messages: [(message: ClientMessage, arrived: Int64, first: Int)] = []
    /// Sentences recognised as the echo of what was sent.
    var echoes = 0
    /// Bytes that were neither a sentence nor a frame.
    var discarded = 0
    /// Those of them not yet logged.
    var unreported = 0
    /// Sentences whose checksum was missing or wrong.
    var badChecksums = 0
    /// UBX frames dropped for their checksum or length.
    var faults: [UBXInputFault] = []
  }

  /// Parses `received`, carried by the line as `write` says, a byte at a time, so that each
  /// message is timed by its last byte.
  mutating func parse(_ received: ArraySlice<UInt8>, carriedAs write: ClientLineArrival.Write)
    -> Parsed
  {
    let echoes = input.echoedSentenceCount
    let discarded = input.discardedByteCount
    let unreported = input.unreportedDiscardedByteCount
    let badChecksums = input.badChecksumSentenceCount
    var parsed = Parsed()
    for (offset, byte) in received.enumerated() {
      for message in input.receive(CollectionOfOne(byte)) {
        let first = write.streamOffset + offset + 1 - (message.lineByteCount ?? 1)
        parsed.messages.append((message, write.arrivalNanoseconds(afterBytes: offset + 1), first))
      }
    }
    parsed.echoes = input.echoedSentenceCount - echoes
    parsed.discarded = input.discardedByteCount - discarded
    parsed.unreported = input.unreportedDiscardedByteCount - unreported
    parsed.badChecksums = input.badChecksumSentenceCount - badChecksums
    parsed.faults = input.takeUBXFaults()
    return parsed
  }
}
