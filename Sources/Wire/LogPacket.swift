/// One packet of a recorded log, exactly as recorded: an NMEA sentence with its line ending, a
/// comment line, a binary frame, or bytes that are none of these.
///
/// The bytes of a log's packets, joined in order, are the log's bytes: nothing is dropped or
/// changed by splitting.
public struct LogPacket: Hashable, Sendable {
  /// What the bytes are.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// `$…` or `!…` (AIS) up to and including the line end.
    case nmea
    /// A `#` line of a gpsd test log (header or remark), with its line end.
    case comment
    /// u-blox UBX: `B5 62`, class, id, length, payload, two checksum bytes.
    case ubx
    /// SiRF binary: `A0 A2`, length, payload, checksum, `B0 B3`.
    case sirf
    /// Trimble TSIP: DLE … DLE ETX with DLE stuffing.
    case tsip
    /// Rockwell/Conexant Zodiac: `FF 81` frames.
    case zodiac
    /// Javad GREIS: two-letter id, three hex digits of length, body.
    case greis
    /// RTCM 3: `D3`, 10-bit length, message, CRC-24Q.
    case rtcm3
    /// RTCM 2 (30-bit words, 6-of-8 packing).
    case rtcm2
    /// Garmin binary (DLE framed).
    case garmin
    /// Navcom binary: `02 99 66`.
    case navcom
    /// Motorola Oncore: `@@`, two letters, body, checksum, CR LF.
    case oncore
    /// Another binary protocol that the splitter frames (EverMore, iTalk, SuperStar II,
    /// GeoStar, SkyTraq, Allystar, CASIC…).
    case otherBinary
    /// Bytes that are no packet at all: noise, a line cut off, a run of NULs.
    case garbage
  }

  /// What is wrong with a packet that is replayed as recorded (and dropped by `--drop-invalid`).
  public enum Problem: String, Hashable, Sendable {
    /// An NMEA sentence or binary frame whose checksum does not match.
    case badChecksum
    /// A sentence without a checksum where its kind always has one, or cut off by the end of
    /// the log or by the next packet.
    case truncated
    /// A sentence holding a NUL or another control byte.
    case controlCharacter
    /// A line longer than any receiver sends.
    case tooLong
    /// Bytes that are no packet.
    case garbage
  }

  /// What the bytes are.
  public var kind: Kind
  /// The bytes, as recorded: often a slice of the chunk of the log they were read from, which
  /// the packets of the chunk share (an array each was an allocation a packet, a fifth of an
  /// unpaced replay's instructions). Its indices are the chunk's: count from `startIndex`.
  public var bytes: ArraySlice<UInt8>
  /// The line of the log the packet starts on, from 1 (line ends counted as LF bytes).
  public var line: Int
  /// The problem of a packet that is not as its kind must be, or nil.
  public var problem: Problem?

  /// Creates a packet of `bytes`.
  public init(kind: Kind, bytes: ArraySlice<UInt8>, line: Int, problem: Problem? = nil) {
    self.kind = kind
    self.bytes = bytes
    self.line = line
    self.problem = problem
  }

  /// Creates a packet of `bytes`.
  public init(kind: Kind, bytes: [UInt8], line: Int, problem: Problem? = nil) {
    self.init(kind: kind, bytes: bytes[...], line: line, problem: problem)
  }

  /// True for a packet a receiver sends as such (not a comment, not garbage, no problem).
  public var isValid: Bool { problem == nil && kind != .comment && kind != .garbage }

  /// True for binary frames.
  public var isBinary: Bool {
    switch kind {
    case .nmea, .comment, .garbage: return false
    default: return true
    }
  }
}
