import Wire

/// Tells whether bytes read from a serial port are GNSS data: a whole NMEA sentence with a
/// correct checksum, or a whole binary frame of a protocol whose framing includes a checksum or
/// CRC (UBX, SiRF, Zodiac, GREIS, RTCM 3, Navcom: a SiRF-binary puck such as the BU-303 speaks
/// no NMEA at all). Used to find a receiver's baud (`--passthrough-baud auto`) and to report a
/// device that sends none. TSIP, Garmin and the other DLE-framed protocols do not count: their
/// frames have no check that bytes read at a wrong baud would fail.
///
/// Bytes are framed by Wire's `LogPacketSplitter`, as gpsd's lexer frames them. A sentence
/// counts only with its `*hh` checksum (gpsd accepts sentences without one, but bytes read at a
/// wrong baud can form such a line by chance; a checksum makes that a 1-in-256 event per line on
/// top of the framing) and with a talker and type of five or more letters and digits.
public struct GNSSDataDetector: Sendable {
  /// The rates `auto` tries, most common first.
  public static let candidateBauds = [9600, 4800, 38_400, 115_200, 57_600, 19_200, 230_400]
  /// How long `auto` listens at one rate: a 1 Hz receiver sends a burst each second.
  public static let dwellNanoseconds: Int64 = 1_500_000_000

  /// Sentences without a checksum (some receivers, such as HP's 58534A, send none) that count
  /// as GNSS data when this many come in a row, each a whole printable line with an
  /// address: bytes read at a wrong baud do not form three such lines.
  public static let uncheckedSentencesInARow = 3

  private var splitter = LogPacketSplitter()
  private var seen = false
  private var uncheckedInARow = 0

  public init() {}

  /// Looks at the next bytes; true once GNSS data was seen (and from then on). Holds at most
  /// one sentence or frame's worth of bytes.
  public mutating func sawGNSSData(in chunk: some Collection<UInt8>) -> Bool {
    guard !seen else { return true }
    for packet in splitter.packets(from: chunk) where !seen {
      uncheckedInARow = Self.isUncheckedSentence(packet) ? uncheckedInARow + 1 : 0
      seen = Self.isGNSSData(packet) || uncheckedInARow >= Self.uncheckedSentencesInARow
    }
    if seen { splitter = LogPacketSplitter() }
    return seen
  }

  /// Forgets what was seen (after a change of baud).
  public mutating func reset() {
    splitter = LogPacketSplitter()
    seen = false
    uncheckedInARow = 0
  }

  /// True for a checksummed binary frame (see above) the splitter found valid, or an NMEA
  /// sentence (`$`, not AIS `!`) with a correct checksum and an address of at least five
  /// letters or digits.
  static func isGNSSData(_ packet: LogPacket) -> Bool {
    guard packet.isValid else { return false }
    switch packet.kind {
    case .ubx, .sirf, .zodiac, .greis, .rtcm3, .navcom: return true
    case .nmea: return hasAddressAndChecksum(packet.bytes)
    default: return false
    }
  }

  /// `$GPGGA,…` with no checksum, printable, ending in LF (or CR LF).
  static func isUncheckedSentence(_ packet: LogPacket) -> Bool {
    let sentence = packet.bytes
    let body = sentence.dropLast(sentence.suffix(2).first == 0x0D ? 2 : 1)
    guard packet.isValid, packet.kind == .nmea, hasAddress(sentence), sentence.count >= 10,
      sentence.last == 0x0A, body.allSatisfy({ (0x20...0x7E).contains($0) }),
      !sentence.contains(UInt8(ascii: "*"))
    else { return false }
    return true
  }

  /// `$` and an address of five or more upper-case letters and digits.
  private static func hasAddress(_ sentence: ArraySlice<UInt8>) -> Bool {
    guard sentence.first == UInt8(ascii: "$") else { return false }
    let address = sentence.dropFirst().prefix { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "*") }
    return address.count >= 5
      && address.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) })
  }

  /// `$GPGGA,…*hh`: the splitter has checked the checksum when there is one; this requires one.
  private static func hasAddressAndChecksum(_ sentence: ArraySlice<UInt8>) -> Bool {
    guard hasAddress(sentence) else { return false }
    var end = sentence.endIndex
    while end > sentence.startIndex, [0x0A, 0x0D].contains(sentence[end - 1]) { end -= 1 }
    return end - sentence.startIndex >= 4 && sentence[end - 3] == UInt8(ascii: "*")
  }
}
