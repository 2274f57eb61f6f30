import Foundation
import Geodesy
import MockGPS
import MockGPSTestSupport
import Replay
import Synchronization
import TestFixtures
import Testing

/// A passthrough serves its epochs as a simulated receiver does: to TCP clients and to
/// `subscribe`, with the fix its forwarded bytes report (the override's position); a replay's
/// `subscribe` lines and `status` carry the fix of its log.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10)))
struct PassthroughListenersTests {
  /// Collected `subscribe` lines.
  final class Lines: Sendable {
    let lines = Mutex<[String]>([])
    var count: Int { lines.withLock { $0.count } }
    /// The latitude of every line.
    var latitudes: [Double] {
      lines.withLock { $0 }.compactMap {
        let object = try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        return object?["lat"] as? Double
      }
    }
  }

  /// The override: Trafalgar Square, away from the log's own place (Paris).
  static let london = GeodeticPosition(known: 51.508_039, -0.128_069, altitudeMeters: 20)

  @Test func aPassthroughServesTCPAndSubscribeWithTheFixItForwards() throws {
    let rig = try PassthroughRig(override: .replace, position: Self.london) {
      $0.tcp = NetworkOutputTests.anyLoopbackPort
    }
    defer { rig.stop() }
    let output = try #require(rig.emulator.tcpOutput)
    let lines = Lines()
    let token = rig.emulator.addSubscriber { line in lines.lines.withLock { $0.append(line) } }
    defer { rig.emulator.removeSubscriber(token) }
    let client = try NetworkClient(tcpPort: output.address.port)
    #expect(NetworkOutputTests.wait { output.statistics.clients == 1 })
    // Ten epochs of a real receiver's log, a burst each 100 ms apart, as a 10 Hz receiver.
    let epochs = Array(try PassthroughRig.epochs(ofLog: "ublox-neo-m9n-nmea.log").prefix(10))
    // The log's first epoch is its comments: no fix.
    let withFix = epochs.filter { String(decoding: $0, as: UTF8.self).contains("GGA,") }.count
    #expect(withFix == 9)
    rig.feed(epochs, gapMicroseconds: 100_000)
    #expect(PassthroughRig.wait(seconds: 10) { lines.count >= withFix })
    #expect(lines.count == withFix, "a line for each epoch with a fix, the last one too")
    #expect(lines.latitudes.count == withFix)
    #expect(lines.latitudes.allSatisfy { abs($0 - Self.london.latitude) < 1e-6 })
    let stream = String(decoding: client.receive(seconds: 0.5).flatMap { $0 }, as: UTF8.self)
    let tcpGGAs = stream.split(separator: "\n").filter { $0.contains("GGA,") }
    #expect(tcpGGAs.count == withFix, "TCP gets every epoch")
    #expect(tcpGGAs.allSatisfy { $0.contains(",5130.48") }, "the override's latitude")
    let status = rig.emulator.handle(.status).line
    #expect(status.contains(#""lat":51.508039"#), "\(status)")
  }

  /// `status` of a passthrough: the receiver's baud (not the emulated profile's), and the bytes
  /// it passed to the device's client.
  @Test func aPassthroughsStatusHasItsBaudAndTheBytesItPassed() throws {
    let rig = try PassthroughRig(override: .off, baud: 38400)
    defer { rig.stop() }
    let client = try rig.openClient()
    let epochs = Array(try PassthroughRig.epochs(ofLog: "ublox-neo-m9n-nmea.log").prefix(3))
    let sent = epochs.joined().count
    rig.feed(epochs, gapMicroseconds: 50_000)
    #expect(client.readBytes(sent, timeoutSeconds: 10).count == sent)
    let status = rig.emulator.handle(.status).line
    #expect(status.contains(#""baud":38400"#), "\(status)")
    #expect(status.contains(#""bytes_sent":\#(sent),"#), "\(status)")
  }

  /// `status` of a passthrough nobody subscribed to has the fix of the last epoch that carried
  /// one, not of the last epoch only: here a burst of GSVs alone, after a whole epoch (it had
  /// none, as the review saw, when the last closed epoch was a lone GSV or ZDA).
  @Test func aPassthroughsStatusHasTheFixWhenItsLastEpochCarriesNone() throws {
    let rig = try PassthroughRig(override: .off, baud: 115_200)
    defer { rig.stop() }
    let epoch = try #require(
      try PassthroughRig.epochs(ofLog: "ublox-neo-m9n-nmea.log").dropFirst().first)
    let skyOnly = Array(
      String(decoding: epoch, as: UTF8.self).split(separator: "\n").filter { $0.contains("GSV,") }
        .map { $0 + "\n" }.joined().utf8)
    try #require(!skyOnly.isEmpty)
    // Control starts listening to the epochs (as `run`'s control socket does from the start).
    _ = rig.emulator.handle(.status)
    // 400 ms apart: past the quiet after the line (115200 baud) carried the first.
    rig.feed([epoch, skyOnly], gapMicroseconds: 400_000)
    #expect(PassthroughRig.wait(seconds: 10) { rig.emulator.statistics.epochsDue == 2 })
    let status = rig.emulator.handle(.status).line
    #expect(status.contains(#""lat":38.1104"#), "\(status)")
    #expect(status.contains(#""epoch":2,"#), "\(status)")
  }

  @Test func aReplaysSubscribeLinesAndStatusCarryTheFixOfItsLog() throws {
    let reader = try ReplayReader(path: try Fixtures.gpsdLog("ublox-neo-m9n-nmea.log").path)
    let running = try ReplayingEmulator(
      source: reader, baud: 0, timeScale: 20, waitsForClient: false, settleSeconds: 0)
    defer { running.stop() }
    let lines = Lines()
    let token = running.emulator.addSubscriber { line in
      lines.lines.withLock { $0.append(line) }
    }
    defer { running.emulator.removeSubscriber(token) }
    #expect(PassthroughRig.wait(seconds: 10) { lines.count >= 5 })
    let latitudes = lines.latitudes
    #expect(latitudes.count >= 5)
    let ggaLatitudes = try Self.ggaLatitudes(ofLog: "ublox-neo-m9n-nmea.log")
    #expect(
      latitudes.allSatisfy { latitude in ggaLatitudes.contains { abs($0 - latitude) < 1e-7 } })
    #expect(running.emulator.handle(.status).line.contains(#""lat":"#))
  }

  /// The latitudes of a log's GGAs, read with the NMEA module.
  static func ggaLatitudes(ofLog name: String) throws -> [Double] {
    let text = try String(contentsOfFile: try Fixtures.gpsdLog(name).path, encoding: .utf8)
    return text.split(separator: "\n").compactMap { line -> Double? in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard line.hasPrefix("$"), line.dropFirst(3).hasPrefix("GGA"), fields.count > 3,
        let value = Double(fields[2]), fields[3] == "N" || fields[3] == "S"
      else { return nil }
      let degrees = (value / 100).rounded(.down)
      let latitude = degrees + (value - degrees * 100) / 60
      return fields[3] == "S" ? -latitude : latitude
    }
  }
}
