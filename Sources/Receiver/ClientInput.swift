import NMEA

/// Reads what a client writes to the device: splits it into NMEA sentences and UBX frames with
/// `InputDemultiplexer`, leaves out NMEA lines whose checksum is missing or wrong (a real
/// receiver ignores them) and the receiver's own sentences coming back as echo.
///
/// A client that turns on ECHO (gpsd restores the settings it found when it closes) makes the
/// terminal send every received byte back; a real receiver ignores those, and so does this.
public struct ClientInput: Sendable {
  private var demultiplexer = InputDemultiplexer()
  /// The fingerprints of the last sentences sent, oldest first, and how often each occurs
  /// among them.
  private var recentlySent: [UInt64] = []
  private var recentlySentCounts: [UInt64: Int] = [:]
  /// How many of the most recent sentences sent are remembered as possible echo.
  public let echoMemory: Int
  /// Sentences recognised as echo and dropped.
  public private(set) var echoedSentenceCount = 0
  /// NMEA lines dropped because their checksum was missing or wrong.
  public private(set) var badChecksumSentenceCount = 0

  /// Creates a reader that remembers the last `echoMemory` sentences sent.
  public init(echoMemory: Int = 256) {
    self.echoMemory = echoMemory
  }

  /// Bytes that were neither part of a sentence nor of a valid UBX frame.
  public var discardedByteCount: Int { demultiplexer.discardedByteCount }

  /// The discarded bytes beyond those of the UBX frames reported as faults (whose bytes the
  /// demultiplexer scans again, then discards), which a log reports once, by the fault.
  public var unreportedDiscardedByteCount: Int {
    max(0, demultiplexer.discardedByteCount - demultiplexer.faultedFrameByteCount)
  }

  /// The whole UBX frames whose checksum failed since the last call, oldest first.
  public mutating func takeUBXFaults() -> [UBXInputFault] {
    demultiplexer.takeUBXFaults()
  }

  /// Notes sentences the receiver sent, so their echo can be recognised.
  public mutating func didSend(_ sentences: [RawSentence]) {
    didSend(lines: sentences.map(\.description))
  }

  /// Notes lines the receiver sent (each without its CR LF), so their echo can be recognised.
  public mutating func didSend(lines: [String]) {
    didSend(fingerprints: lines.map { EchoFingerprint.of($0.utf8) })
  }

  /// Notes the fingerprints (`EchoFingerprint`) of sentences the receiver sent, oldest first.
  public mutating func didSend(fingerprints: some Sequence<UInt64>) {
    for fingerprint in fingerprints {
      recentlySent.append(fingerprint)
      recentlySentCounts[fingerprint, default: 0] += 1
    }
    let excess = recentlySent.count - echoMemory
    guard excess > 0 else { return }
    for fingerprint in recentlySent.prefix(excess) {
      let remaining = (recentlySentCounts[fingerprint] ?? 1) - 1
      recentlySentCounts[fingerprint] = remaining > 0 ? remaining : nil
    }
    recentlySent.removeFirst(excess)
  }

  /// Feeds bytes from the client and returns the messages among them, lines with a missing or
  /// wrong checksum and echo left out.
  public mutating func receive(_ bytes: some Sequence<UInt8>) -> [ClientMessage] {
    demultiplexer.append(bytes).filter { message in
      guard case .nmea(let line) = message else { return true }
      guard Self.hasValidChecksum(line) else {
        badChecksumSentenceCount += 1
        return false
      }
      guard recentlySentCounts[EchoFingerprint.of(line.utf8)] != nil else { return true }
      echoedSentenceCount += 1
      return false
    }
  }

  /// True when the line ends in `*hh` and `hh` is the XOR of the bytes between the start
  /// delimiter and `*`.
  static func hasValidChecksum(_ line: String) -> Bool {
    let bytes = line.utf8
    guard bytes.count >= 4, let star = bytes.lastIndex(of: UInt8(ascii: "*")),
      star > bytes.startIndex,
      bytes.distance(from: star, to: bytes.endIndex) == 3,
      let found = Checksum.parseHex(line[line.index(after: star)...])
    else { return false }
    return Checksum.of(bytes[bytes.index(after: bytes.startIndex)..<star]) == found
  }
}
