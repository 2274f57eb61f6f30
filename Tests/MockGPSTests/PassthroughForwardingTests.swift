import Foundation
import Geodesy
import Glibc
import MockGPS
import MockGPSTestSupport
import NMEA
import TestFixtures
import Testing

/// What passes through, each way: a real receiver's bytes to the client, unchanged with
/// `--override off` and with every position rewritten otherwise, and a client's bytes to the
/// receiver.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10)))
struct PassthroughForwardingTests {
  /// The log goes in at the pace of a 115200-baud line, 26 KB in 2.3 s. Fed 2 ms an epoch (the
  /// whole log in half a second at most), a client that a loaded machine kept from reading for
  /// a few tens of milliseconds found its queue full, and the passthrough dropped what did not
  /// fit, as a UART overruns (282 and 762 bytes in two loaded runs). At the line's pace the
  /// client's 4 KiB last 350 ms.
  @Test func offForwardsAUBloxLogByteForByte() throws {
    let rig = try PassthroughRig(override: .off)
    defer { rig.stop() }
    let client = try rig.openClient()
    let epochs = try PassthroughRig.epochs(ofLog: "ublox-neo-m8t.log")
    let sent = Array(epochs.joined())
    #expect(sent.count > 20_000)
    rig.feed(epochs, lineBaud: 115_200)
    let read = client.readBytes(sent.count, timeoutSeconds: 20)
    #expect(read.count == sent.count)
    #expect(read == sent)
    let statistics = try #require(rig.emulator.passthroughStatistics)
    #expect(rig.emulator.statistics.bytesDropped == 0)
    #expect(rig.emulator.statistics.bytesSent == sent.count)
    #expect(statistics.rewriter.bytesReceived == sent.count)
  }

  @Test func clientBytesReachTheReceiverByteForByte() throws {
    let rig = try PassthroughRig(override: .replace)
    defer { rig.stop() }
    let client = try rig.openClient()
    // gpsd's u-blox probe (MON-VER poll), a PMTK query and noise, in that order.
    let bytes: [UInt8] =
      [0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x34]
      + Array("$PMTK605*31\r\n".utf8) + [0x00, 0xFF, 0x24, 0x0D]
    client.write(bytes)
    #expect(PassthroughRig.wait(seconds: 2) { rig.receiver.received.count >= bytes.count })
    #expect(rig.receiver.received == bytes)
    #expect(rig.emulator.passthroughStatistics?.clientBytesForwarded == bytes.count)
  }

  /// Needs the rewriter (engineer rewrite's `PassthroughRewriter`): with the placeholder on
  /// this branch, positions pass unchanged.
  @Test func replaceGivesEveryPositionSentenceTheOverridePosition() throws {
    let position = GeodeticPosition(known: 48.858_370, 2.294_481, altitudeMeters: 35)
    let rig = try PassthroughRig(override: .replace, position: position)
    defer { rig.stop() }
    let client = try rig.openClient()
    let epochs = Array(try PassthroughRig.epochs(ofLog: "ublox-neo-m9n-nmea.log").prefix(20))
    // The log's comment lines pass too, but a client's framer keeps only sentences.
    let sentLines = Self.lines(of: Array(epochs.joined())).filter { $0.hasPrefix("$") }
    rig.feed(epochs, gapMicroseconds: 5_000)
    let readLines = client.readLines(sentLines.count, timeoutSeconds: 10).map(\.text)
    #expect(sentLines.count > 300)
    #expect(readLines.count == sentLines.count)
    var positionsSeen = Set<String>()
    for (sent, read) in zip(sentLines, readLines) {
      let raw = try RawSentence(parsing: read)
      if raw.type == "VTG" {
        // Its speed becomes 0 under `replace`: the motion is overridden too.
        #expect(read.prefix(6) == sent.prefix(6))
        continue
      }
      guard let (latitude, longitude) = Self.position(of: raw) else {
        #expect(read == sent, "a sentence without a position passes unchanged")
        continue
      }
      positionsSeen.insert(raw.type)
      #expect(abs(latitude - position.latitude) < 1e-6, "\(read)")
      #expect(abs(longitude - position.longitude) < 1e-6, "\(read)")
    }
    #expect(positionsSeen == ["GGA", "RMC", "GLL"])
  }

  /// Needs the rewriter (engineer rewrite's `PassthroughRewriter`), which counts the SiRF
  /// frames that carry a position; the placeholder on this branch counts none.
  @Test func sirfBinaryPositionsPassUnrewrittenAndAreLoggedOnce() throws {
    let rig = try PassthroughRig(override: .replace)
    defer { rig.stop() }
    let client = try rig.openClient()
    let epochs = try PassthroughRig.epochs(ofLog: "sirfstarv.log")
    let sent = Array(epochs.joined())
    rig.feed(epochs, gapMicroseconds: 2_000)
    _ = client.readBytes(sent.count, timeoutSeconds: 10)
    #expect(rig.log.contains("SiRF, TSIP…): they pass unrewritten"))
    #expect(rig.log.count(of: "they pass unrewritten") == 1)
    #expect((rig.emulator.passthroughStatistics?.rewriter.unrewrittenPositionFrames ?? 0) > 0)
  }

  /// The lines of NMEA text, without CR or LF (the corpus logs end lines either way).
  static func lines(of bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
  }

  /// Latitude and longitude of a GGA, RMC, GLL or GNS with a position, in degrees.
  static func position(of raw: RawSentence) -> (Double, Double)? {
    let start: Int
    switch raw.type {
    case "GGA", "GNS": start = 1
    case "RMC": start = 2
    case "GLL": start = 0
    default: return nil
    }
    guard raw.fields.count > start + 3,
      let latitude = degrees(raw.fields[start], raw.fields[start + 1], width: 2),
      let longitude = degrees(raw.fields[start + 2], raw.fields[start + 3], width: 3)
    else { return nil }
    return (latitude, longitude)
  }

  /// `4404.13387`,`N` → 44.0689 degrees.
  static func degrees(_ text: String, _ hemisphere: String, width: Int) -> Double? {
    guard text.count > width, let whole = Double(text.prefix(width)),
      let minutes = Double(text.dropFirst(width))
    else { return nil }
    let value = whole + minutes / 60
    return hemisphere == "S" || hemisphere == "W" ? -value : value
  }
}
