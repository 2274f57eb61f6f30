/// What a framer makes of the byte just added to the frame it is reading.
enum FrameStep: Equatable, Sendable {
  /// The frame needs more bytes.
  case more
  /// The frame ends with this byte.
  case done(LogPacket.Kind, LogPacket.Problem?)
  /// The frame ended before this byte, which belongs to what follows.
  case doneBefore(LogPacket.Kind, LogPacket.Problem?)
  /// This byte shows the bytes read so far were no frame of this kind: they are garbage, and
  /// this byte is read again as a possible start of a packet.
  case notAFrame
  /// This byte shows the bytes read so far were no frame, and that none starts among them
  /// either (a comment cut by a byte it cannot hold: one started at any `#` after the first
  /// would meet the same byte): they are garbage, and this byte is read again. Read again from
  /// their second byte instead, a line of thousands of `#` before a control byte took time
  /// quadratic in its length.
  case garbageBefore
}

/// The largest binary frame read, as gpsd's lexer (`MAX_PACKET_LENGTH`).
let maximumFrameLength = 9216

/// The framer reading the current packet, one case per protocol family.
enum Framer: Sendable {
  case text(TextLineFramer)
  case length(LengthFramer)
  case dle(DLEFramer)
  case oncore(OncoreFramer)

  /// The framer of a packet starting with `byte`, or nil when `byte` starts none.
  ///
  /// - Parameter greisExpected: true after a GREIS frame, when any ASCII byte starts the next.
  static func starting(with byte: UInt8, greisExpected: Bool) -> Framer? {
    if greisExpected, byte < 0x80, byte != UInt8(ascii: "#"), byte != 0x0D, byte != 0x0A {
      return .length(LengthFramer(.greis))
    }
    if let text = TextLineFramer(first: byte) { return .text(text) }
    if let family = LengthFramer.Family(first: byte) { return .length(LengthFramer(family)) }
    switch byte {
    case DLEFramer.dle: return .dle(DLEFramer())
    case UInt8(ascii: "@"): return .oncore(OncoreFramer())
    default: return nil
    }
  }

  /// Reads `frame`'s last byte.
  mutating func step(_ frame: [UInt8]) -> FrameStep {
    switch self {
    case .text(var framer):
      defer { self = .text(framer) }
      return framer.step(frame)
    case .length(let framer):
      return framer.step(frame)
    case .dle(var framer):
      defer { self = .dle(framer) }
      return framer.step(frame)
    case .oncore(let framer):
      return framer.step(frame)
    }
  }

  /// What a frame cut off by the end of the log is.
  func cutOff(_ frame: [UInt8]) -> LogPacket {
    switch self {
    case .text(let framer): return framer.cutOff(frame)
    default: return LogPacket(kind: .garbage, bytes: frame, line: 0, problem: .truncated)
    }
  }
}
