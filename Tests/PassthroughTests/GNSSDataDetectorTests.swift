import Foundation
import TestFixtures
import Testing

@testable import Passthrough

@Suite(.blocking) struct GNSSDataDetectorTests {
  /// Logs of receivers that speak NMEA (MediaTek, SiRF in NMEA mode, a multi-GNSS BU-353 with
  /// GLONASS), UBX (u-blox 5, u-blox 8 with `$GN` sentences too) SiRF binary only (BU-303), and sentences without checksums
  /// (HP 58534A).
  static let logs = [
    "mtk-3301.log", "sirfstarv-nmea.log", "bu353-glonass.log", "ublox-8.log", "ublox-lea-5h.log",
    "bu303-moving.log", "hp58534a.log",
  ]

  /// A log's bytes without its `#` header lines: what the receiver sent.
  static func receiverBytes(_ name: String) throws -> [UInt8] {
    let data = try Data(contentsOf: Fixtures.gpsdLog(name))
    return data.split(separator: 0x0A, omittingEmptySubsequences: false)
      .filter { $0.first != UInt8(ascii: "#") }
      .map { Array($0) + [0x0A] }.joined().map { $0 }
  }

  @Test(arguments: logs)
  func seesTheDataOfAReceiverReadAtItsRate(log: String) throws {
    let bytes = try Self.receiverBytes(log)
    var detector = GNSSDataDetector()
    var generator = SplitMix64(seed: 10)
    var seen = false
    // A port opened on a running receiver starts in the middle of something.
    var start = 37
    while start < bytes.count && !seen {
      let end = min(bytes.count, start + Int.random(in: 1...64, using: &generator))
      seen = detector.sawGNSSData(in: bytes[start..<end])
      start = end
    }
    #expect(seen)
    // Resampled at the rate they were sent, the bytes are read back as they were: the
    // wrong-rate tests below differ from this one by the rates alone.
    let opening = Array(bytes.prefix(4000))
    #expect(UARTLine.resample(opening, sentAt: 9600, readAt: 9600) == opening)
  }

  @Test(arguments: logs, [(9600, 4800), (4800, 9600), (9600, 38_400), (115_200, 9600)])
  func seesNothingInTheSameBytesReadAtAWrongRate(log: String, rates: (sent: Int, read: Int)) throws
  {
    let bytes = try Self.receiverBytes(log).prefix(40_000)
    let garbled = UARTLine.resample(Array(bytes), sentAt: rates.sent, readAt: rates.read)
    #expect(!garbled.isEmpty)
    var detector = GNSSDataDetector()
    let seen = detector.sawGNSSData(in: garbled)
    #expect(!seen)
  }

  @Test func aMegabyteOfRandomBytesIsNoDataAndLeavesTheDetectorUsable() {
    var generator = SplitMix64(seed: 1)
    var detector = GNSSDataDetector()
    for _ in 0..<256 {
      let chunk = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let seen = detector.sawGNSSData(in: chunk)
      #expect(!seen)
    }
    // Whatever the garbage left half-framed, the next sentence after a line end is seen.
    let seenAfter = detector.sawGNSSData(in: Array(("\r\n" + Self.gll).utf8))
    #expect(seenAfter)
  }

  static let gll = "$GPGLL,4916.45,N,12311.12,W,225444,A*31\r\n"

  /// What a fresh detector (or `detector`) says after each line in turn.
  static func verdicts(_ lines: [String], detector: GNSSDataDetector = .init()) -> [Bool] {
    var detector = detector
    return lines.map { detector.sawGNSSData(in: Array($0.utf8)) }
  }

  @Test func aSentenceWithoutChecksumOrWithAWrongOneIsNoData() {
    let lines = [
      "$GPGLL,4916.45,N,12311.12,W,225444,A\r\n", "$GPGLL,4916.45,N,12311.12,W,225444,A*32\r\n",
      "!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26\r\n", Self.gll, "garbage",
    ]
    #expect(Self.verdicts(lines) == [false, false, false, true, true])
  }

  @Test func threeSentencesWithoutChecksumInARowAreData() {
    let line = "$GPGLL,4916.45,N,12311.12,W,225444,A\r\n"
    var detector = GNSSDataDetector()
    let broken = detector.sawGNSSData(in: Array((line + line + "\u{01}\u{02}x\r\n" + line).utf8))
    let twoInARow = detector.sawGNSSData(in: Array(line.utf8))
    let threeInARow = detector.sawGNSSData(in: Array(line.utf8))
    #expect([broken, twoInARow, threeInARow] == [false, false, true])
  }

  @Test func resetForgetsWhatWasSeen() {
    var detector = GNSSDataDetector()
    #expect(Self.verdicts([Self.gll, "\0"], detector: detector) == [true, true])
    _ = detector.sawGNSSData(in: Array(Self.gll.utf8))
    detector.reset()
    #expect(Self.verdicts(["\0"], detector: detector) == [false])
  }
}

/// An 8N1 serial line: bytes sent at one rate and sampled by a UART set to another, as a port
/// opened at the wrong baud reads them.
enum UARTLine {
  /// The bytes a UART at `readAt` baud reads from `bytes` sent back to back at `sentAt`: it
  /// waits for a start bit (a falling edge), samples eight data bits and the stop bit in the
  /// middle of its own bit times, and gives the byte (a framing error gives the byte too, as a
  /// raw Linux tty without `IGNPAR` does).
  static func resample(_ bytes: [UInt8], sentAt: Int, readAt: Int) -> [UInt8] {
    // The line level at a time t (in seconds): idle high, start bit low, data LSB first, stop.
    let sentBit = 1.0 / Double(sentAt)
    let frame = 10 * sentBit
    func level(at time: Double) -> Bool {
      let index = Int(time / frame)
      guard index >= 0, index < bytes.count else { return true }
      let bit = Int((time - Double(index) * frame) / sentBit)
      switch bit {
      case 0: return false
      case 1...8: return bytes[index] >> (bit - 1) & 1 == 1
      default: return true
      }
    }
    let readBit = 1.0 / Double(readAt)
    let step = min(sentBit, readBit) / 4
    let end = Double(bytes.count) * frame
    var read: [UInt8] = []
    var time = 0.0
    var previous = true
    while time < end {
      let current = level(at: time)
      defer { previous = current }
      guard previous && !current else {
        time += step
        continue
      }
      var byte: UInt8 = 0
      for bit in 0..<8 where level(at: time + (1.5 + Double(bit)) * readBit) {
        byte |= 1 << bit
      }
      read.append(byte)
      time += 9.5 * readBit
    }
    return read
  }
}
