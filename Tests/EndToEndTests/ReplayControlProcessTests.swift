import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// `mockgps ctl pause|resume|seek|status` against `mockgps run --replay`, through the built
/// binary, with a client reading the device.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct ReplayControlProcessTests {
  /// Seconds of the day of an RMC line's time.
  static func secondsOfDay(_ line: String) -> Int? {
    let fields = line.split(separator: ",", omittingEmptySubsequences: false)
    guard fields.count > 1, fields[1].count >= 6, let hhmmss = Int(fields[1].prefix(6)) else {
      return nil
    }
    return hhmmss / 10_000 * 3600 + hhmmss / 100 % 100 * 60 + hhmmss % 100
  }

  static func ctl(_ socket: String, _ arguments: String...) throws -> (Int32?, String, String) {
    try MockGPSBinary.run(["ctl", "--control", socket] + arguments)
  }

  @Test func ctlSeeksPausesAndResumesAReplay() throws {
    let scratch = try ScratchDirectory("replay-ctl")
    defer { scratch.remove() }
    let (log, _) = try ReplayProcessTests.rawLog(in: scratch)
    let link = scratch.path + "/tty"
    let socket = scratch.path + "/control.sock"
    // A 1 Hz log of 23 s, looping so that a loaded machine's slow steps cannot end it.
    let (process, _) = try MockGPSBinary.start([
      "--replay", log, "--link", link, "--control", socket, "--loop", "--wait-for-client",
    ])
    defer { process.kill() }
    #expect(
      process.wait(seconds: 5) { process.standardError.contains("control socket: \(socket)") })
    let reader = try DeviceReader(path: link)
    let first = try #require(reader.readUntil(type: "RMC", timeoutSeconds: 5))
    let start = try #require(Self.secondsOfDay(first.text))

    let (seekStatus, seekOutput, seekError) = try Self.ctl(socket, "--json", "seek", "10")
    #expect(seekStatus == 0, "\(seekError)")
    #expect(seekOutput == #"{"ok":true,"time":10,"epoch_offset":10,"past_end":false}"# + "\n")
    // The RMCs read next: at most one of before the seek, then the log 10 s from its start.
    var times: [Int] = []
    for _ in 0..<3 {
      guard let line = reader.readUntil(type: "RMC", timeoutSeconds: 3) else { break }
      times += Self.secondsOfDay(line.text).map { [$0 - start] } ?? []
    }
    if let early = times.first, early < 10 { times.removeFirst() }
    #expect(Array(times.prefix(2)) == [10, 11], "\(times)")

    // Looping, a pass is the log's 23 epochs a second apart and a second's gap: 1000 s wraps
    // to 1000 - 43 × 23 = 11 s.
    let (_, wrapped, _) = try Self.ctl(socket, "--json", "seek", "1000")
    #expect(wrapped == #"{"ok":true,"time":11,"epoch_offset":11,"past_end":false}"# + "\n")
    var afterWrap: [Int] = []
    for _ in 0..<3 {
      guard let line = reader.readUntil(type: "RMC", timeoutSeconds: 3) else { break }
      afterWrap += Self.secondsOfDay(line.text).map { [$0 - start] } ?? []
    }
    if let early = afterWrap.first, early != 11 { afterWrap.removeFirst() }
    #expect(Array(afterWrap.prefix(2)) == [11, 12], "\(afterWrap)")

    #expect(try Self.ctl(socket, "pause").0 == 0)
    let (_, paused, _) = try Self.ctl(socket, "status")
    let lines = paused.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    #expect(lines.contains(["paused", "yes"]), "\(paused)")
    #expect(lines.contains { $0.first == "log_offset" && $0.count == 2 }, "\(paused)")
    #expect(lines.contains(["source", "replay"]), "\(paused)")
    _ = reader.readLines(100, timeoutSeconds: 0.3)
    #expect(reader.readLines(1, timeoutSeconds: 0.6).isEmpty, "a paused replay is silent")

    #expect(try Self.ctl(socket, "resume").0 == 0)
    #expect(reader.readUntil(type: "RMC", timeoutSeconds: 2) != nil, "the replay goes on")
    let (resumeAgain, _, resumeError) = try Self.ctl(socket, "resume")
    #expect(resumeAgain == 1)
    #expect(resumeError.contains("nothing to resume: the replay is not paused"), "\(resumeError)")
    let (rateStatus, _, rateError) = try Self.ctl(socket, "rate", "5")
    #expect(rateStatus == 1)
    #expect(rateError.contains("a replay sends its log as recorded"), "\(rateError)")
    let (negative, _, negativeError) = try Self.ctl(socket, "seek", "time=-1")
    #expect(negative == 1 || negative == 64, "\(negativeError)")
    #expect(negativeError.contains("time"), "\(negativeError)")

    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 10) == 0)
  }

  /// 1,000 seeks on one control connection (and odd ones among them) while a client reads:
  /// every line the client reads is a whole line of the log, and the replay goes on.
  @Test func aStormOfSeeksThroughTheSocketCutsNoSentence() throws {
    let scratch = try ScratchDirectory("replay-storm")
    defer { scratch.remove() }
    let (log, bytes) = try ReplayProcessTests.rawLog(in: scratch)
    let logLines = Set(
      String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").map(String.init))
    let link = scratch.path + "/tty"
    let socket = scratch.path + "/control.sock"
    let (process, _) = try MockGPSBinary.start([
      "--replay", log, "--link", link, "--control", socket, "--loop", "--time-scale", "20",
    ])
    defer { process.kill() }
    let reader = try DeviceReader(path: link)
    let client = try ControlClient(path: socket)
    var read: [String] = []
    var refused = 0
    for request in 0..<1000 {
      let seconds = Double(request * 7919 % 30_000) / 1000
      let reply = try client.request(#"{"cmd":"seek","time":\#(seconds)}"#)
      if reply["ok"] as? Bool != true { refused += 1 }
      if request % 50 == 0 {
        read += reader.readLines(1000, timeoutSeconds: 0.02).map(\.text)
      }
    }
    for odd in [#"{"cmd":"seek","time":-1}"#, #"{"cmd":"seek","time":"x"}"#, #"{"cmd":"seek"}"#] {
      #expect(try client.request(odd)["ok"] as? Bool == false, "\(odd)")
    }
    read += reader.readLines(1000, timeoutSeconds: 0.5).map(\.text)
    #expect(refused == 0)
    #expect(read.count > 10, "the client read \(read.count) lines")
    let cut = read.filter { !logLines.contains($0) }
    #expect(cut.isEmpty, "lines not sent whole: \(cut.prefix(3))")
    #expect(try client.accepted(#"{"cmd":"status"}"#)["source"] as? String == "replay")
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 10) == 0)
  }
}
