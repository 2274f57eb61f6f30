import Control
import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import Synchronization
import SystemIO
import TestFixtures
import Testing

@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct ControlServerTests {
  @Test func aPositionSetOverTheSocketLandsInTheNextEpoch() throws {
    let running = try ControlledEmulator()
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    #expect(reader.readUntil(type: "GGA", timeoutSeconds: 5)?.text.contains(",5128.") == true)
    let client = try ControlTestClient(path: running.controlPath)
    #expect(
      try client.request(#"{"cmd":"position","lat":48.85,"lon":2.35,"alt":35,"id":7}"#)
        == #"{"ok":true,"id":7}"#)
    // The epoch being written may still be the old one; the next one is moved.
    let next = (0..<2).compactMap { _ in reader.readUntil(type: "GGA", timeoutSeconds: 5) }
    #expect(next.contains { $0.text.contains(",4851.0000") }, "\(next.map(\.text))")
    let status = try #require(try client.request(#"{"cmd":"status"}"#))
    #expect(status.contains(#""lat":48.85"#))
    #expect(status.contains(#""source":"fixed""#))
    #expect(status.contains(#""link":"\#(running.linkPath)""#))
    #expect(status.contains(#""control_clients":1"#))
  }

  @Test func everyRequestGetsExactlyOneReplyInOrder() throws {
    let running = try ControlledEmulator()
    defer { running.stop() }
    let route = running.directory + "/missing.gpx"
    let cases: [(request: String, reply: String)] = [
      (#"{"cmd":"fix","mode":"none"}"#, #"{"ok":true}"#),
      (#"{"cmd":"fix","mode":"3d"}"#, #"{"ok":true}"#),
      (#"{"cmd":"satellites","used":4}"#, #"{"ok":true}"#),
      (#"{"cmd":"satellites","used":"all"}"#, #"{"ok":true}"#),
      (#"{"cmd":"dop","hdop":1.5,"vdop":2,"pdop":2.5}"#, #"{"ok":true}"#),
      (#"{"cmd":"dop","reset":true}"#, #"{"ok":true}"#),
      (#"{"cmd":"velocity","speed":12.5,"course":270}"#, #"{"ok":true}"#),
      (#"{"cmd":"pause"}"#, #"{"ok":true}"#),
      (#"{"cmd":"resume"}"#, #"{"ok":true}"#),
      (#"{"cmd":"resume"}"#, #"{"ok":false,"error":"#),
      (#"{"cmd":"rate","hz":2}"#, #"{"ok":true}"#),
      (#"{"cmd":"rate","hz":50}"#, #"{"ok":false,"error":"#),
      (#"{"cmd":"inject","fault":"silence","duration":1}"#, #"{"ok":true}"#),
      (#"{"cmd":"override","mode":"freeze"}"#, #"{"ok":false,"error":"override applies"#),
      (#"{"cmd":"route","file":"\#(route)"}"#, #"{"ok":false,"error":"route: "#),
      (#"{"cmd":"fly"}"#, #"{"ok":false,"error":"#),
      (#"{"cmd":"position","lat":91,"lon":0}"#, #"{"ok":false,"error":"#),
      (#"{"cmd":"position","lat":"x","lon":0,"id":"a"}"#, #"{"ok":false,"id":"a","error":"#),
      ("not json", #"{"ok":false,"error":"#),
      (#"{"cmd":"status","id":3}"#, #"{"ok":true,"#),
    ]
    let client = try ControlTestClient(path: running.controlPath)
    // Sent in one write: the server must split, answer each, and keep the order.
    try client.send(cases.map { $0.request + "\n" }.joined())
    for (request, expected) in cases {
      let reply = try #require(client.line(), "no reply to \(request)")
      #expect(reply.hasPrefix(expected), "\(request) → \(reply)")
    }
    #expect(client.line(within: 0.5) == nil, "one reply per request, no more")
    let refusal = try #require(try client.request(#"{"cmd":"route","file":"\#(route)"}"#))
    #expect(refusal.contains(route), "the refusal names the file: \(refusal)")
    let withID = try #require(try client.request(#"{"cmd":"nope","id":"q"}"#))
    #expect(withID.contains(#""id":"q""#))
  }

  @Test func aRouteFileIsDrivenFromWhereTheReceiverIs() throws {
    let running = try ControlledEmulator()
    defer { running.stop() }
    let file = Fixtures.routesDirectory.appendingPathComponent("cerknicko-jezero.gpx").path
    let client = try ControlTestClient(path: running.controlPath)
    #expect(
      try client.request(#"{"cmd":"route","file":"\#(file)","speed":30,"loop":true}"#)
        == #"{"ok":true}"#)
    var status = ""
    for _ in 0..<40 {
      status = try client.request(#"{"cmd":"status"}"#) ?? ""
      if status.contains(#""speed":"#) && !status.contains(#""speed":0,"#) { break }
      usleep(100_000)
    }
    #expect(status.contains(#""source":"route""#), "\(status)")
    #expect(
      status.contains(#""speed":"#) && !status.contains(#""speed":0,"#),
      "the receiver moves: \(status)")
  }

  @Test func aClientThatStopsSendingStillGetsItsReplies() throws {
    let running = try ControlledEmulator()
    defer { running.stop() }
    let client = try ControlTestClient(path: running.controlPath)
    // As socat does when its input ends: requests, then the sending side shut.
    try client.send(String(repeating: #"{"cmd":"status"}"# + "\n", count: 1_000))
    shutdown(client.socket.rawValue, Int32(SHUT_WR))
    var replies = 0
    while let line = client.line(within: 5) {
      if line.hasPrefix(#"{"ok":true"#) { replies += 1 }
    }
    #expect(replies == 1_000, "every reply, then the end of the connection")
  }

  @Test func aTooLongLineGetsOneRefusalAndTheClientGoesOn() throws {
    let running = try ControlledEmulator()
    defer { running.stop() }
    let client = try ControlTestClient(path: running.controlPath)
    try client.send(String(repeating: "x", count: 200_000) + "\n" + #"{"cmd":"status"}"# + "\n")
    #expect(client.line()?.hasPrefix(#"{"ok":false,"error":"request line longer"#) == true)
    #expect(client.line()?.hasPrefix(#"{"ok":true,"#) == true)
    #expect(client.line(within: 0.3) == nil)
  }

  @Test func aClientThatPausesBeforeReadingGetsEveryReply() throws {
    let running = try ControlledEmulator()
    defer { running.stop() }
    let paused = try ControlTestClient(path: running.controlPath)
    // About 3 MB of status replies: far more than the socket and the high-water mark hold, so
    // the server stops reading this client's requests until it reads, and the sender waits.
    let batch = String(repeating: #"{"cmd":"status"}"# + "\n", count: 500)
    let sender = SharedForTest(paused)
    let sent = Atomic<Int>(0)
    let sending = Thread {
      for _ in 0..<10 where (try? sender.value.send(batch)) != nil {
        sent.add(1, ordering: .relaxed)
      }
    }
    sending.start()
    usleep(1_500_000)
    let other = try ControlTestClient(path: running.controlPath)
    #expect(try other.request(#"{"cmd":"status"}"#)?.hasPrefix(#"{"ok":true"#) == true)
    var replies = 0
    while replies < 5_000, let line = paused.line(within: 5) {
      if line.hasPrefix(#"{"ok":true"#) { replies += 1 }
    }
    #expect(replies == 5_000, "every reply after the pause")
    #expect(sent.load(ordering: .relaxed) == 10, "every request taken once the client read")
    #expect(!running.log.contains("does not read its replies"))
    #expect(
      try paused.request(#"{"cmd":"status","id":7}"#)?.hasPrefix(#"{"ok":true,"id":7"#) == true)
  }

  @Test func aClientThatNeverReadsItsRepliesIsDisconnectedAfterTheStallLimitAndLoggedOnce()
    throws
  {
    let running = try ControlledEmulator(stallLimitSeconds: 1)
    defer { running.stop() }
    let silent = try ControlTestClient(path: running.controlPath)
    let batch = String(repeating: #"{"cmd":"status"}"# + "\n", count: 500)
    let sent = DeviceReader.monotonicNanoseconds()
    for _ in 0..<10 { try? silent.send(batch) }
    var logged = false
    for _ in 0..<500 where !logged {
      logged = running.log.contains("does not read its replies")
      usleep(20_000)
    }
    let waited = DeviceReader.monotonicNanoseconds() - sent
    #expect(logged, "the silent client is disconnected with a warning")
    #expect(waited >= 1_000_000_000, "not before the stall limit: \(waited) ns")
    #expect(running.log.count(containing: "does not read its replies") == 1)
    let other = try ControlTestClient(path: running.controlPath)
    #expect(try other.request(#"{"cmd":"status"}"#)?.hasPrefix(#"{"ok":true"#) == true)
    // What was queued for the silent client is gone with its connection: it reads to the end.
    var received = 0
    while let line = silent.line(within: 2) { received += line.count }
    #expect(received < 5_000 * 600, "the connection ended before every reply")
  }

  /// A client that shut its sending side and never reads is held to the stall limit too.
  @Test func aHalfClosedClientThatNeverReadsIsDisconnectedAfterTheStallLimit() throws {
    let running = try ControlledEmulator(stallLimitSeconds: 1)
    defer { running.stop() }
    let silent = try ControlTestClient(path: running.controlPath)
    // More replies than the socket holds: they wait in the server's queue.
    try silent.send(String(repeating: #"{"cmd":"status"}"# + "\n", count: 3_000))
    shutdown(silent.socket.rawValue, Int32(SHUT_WR))
    var logged = false
    for _ in 0..<300 where !logged {
      logged = running.log.contains("does not read its replies")
      usleep(20_000)
    }
    #expect(logged, "the half-closed client is disconnected")
  }

  /// A request trickled a byte at a time (slowloris) is refused and its connection closed at
  /// the deadline, counted from its first byte; a client idle between requests keeps its
  /// connection. The trickle goes on for 4 s: a cut before its end tells a deadline from none.
  @Test func aRequestTrickledPastTheDeadlineIsRefusedAndItsConnectionClosed() throws {
    let running = try ControlledEmulator(requestDeadlineSeconds: 1)
    defer { running.stop() }
    let idle = try ControlTestClient(path: running.controlPath)
    #expect(try idle.request(#"{"cmd":"status"}"#)?.hasPrefix(#"{"ok":true"#) == true)
    let slow = try ControlTestClient(path: running.controlPath)
    let started = DeviceReader.monotonicNanoseconds()
    var cutAt: Int64?
    for byte in #"{"cmd":"status","id":1234567890123456789}"#.prefix(20) {
      let sent = (try? slow.send(String(byte))) != nil
      // A send the server refuses because it cut the client between this loop's read and the
      // send still finds the reply it wrote before closing (a loaded CI run lost it once).
      if let reply = slow.line(within: 0.2) {
        #expect(reply.hasPrefix(#"{"ok":false,"error":"request not finished within 1 s"#))
        cutAt = DeviceReader.monotonicNanoseconds() - started
        break
      }
      guard sent else { break }
    }
    let cut = try #require(cutAt, "the trickling client was never cut")
    #expect(cut >= 1_000_000_000, "not before the deadline: \(cut) ns")
    #expect(slow.isClosed(within: 2), "its connection is closed")
    #expect(running.log.count(containing: "did not finish its request within 1 s") == 1)
    #expect(try idle.request(#"{"cmd":"status"}"#)?.hasPrefix(#"{"ok":true"#) == true)
  }

  /// A client that reads slowly but steadily is not taken for one that does not read: the
  /// bytes it leaves in its socket go down.
  @Test func aSlowButSteadyReaderKeepsItsConnection() throws {
    let running = try ControlledEmulator(stallLimitSeconds: 1)
    defer { running.stop() }
    let slow = try ControlTestClient(path: running.controlPath)
    try slow.send(String(repeating: #"{"cmd":"status"}"# + "\n", count: 600))
    usleep(300_000)
    var buffer = [UInt8](repeating: 0, count: 512)
    for _ in 0..<15 {
      _ = try? slow.socket.read(into: &buffer)
      usleep(200_000)
    }
    #expect(!running.log.contains("does not read its replies"))
  }

  @Test func subscribeSendsALinePerEpochAndStopsWhenTheClientCloses() throws {
    let running = try ControlledEmulator(rateHz: 10)
    defer { running.stop() }
    let subscriber = try ControlTestClient(path: running.controlPath)
    #expect(try subscriber.request(#"{"cmd":"subscribe","id":1}"#) == #"{"ok":true,"id":1}"#)
    let lines = (0..<3).compactMap { _ in subscriber.line() }
    #expect(lines.count == 3)
    let epochs = lines.compactMap { line in
      line.split(separator: ",").last.flatMap { Int($0.dropFirst(8).dropLast()) }
    }
    #expect(
      epochs.count == 3 && zip(epochs, epochs.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(lines)")
    #expect(lines.allSatisfy { $0.contains(#""lat":51.477928"#) })
    subscriber.close()
    let other = try ControlTestClient(path: running.controlPath)
    // The closed subscriber is gone: only this client is connected.
    var count: String?
    for _ in 0..<50 {
      count = try other.request(#"{"cmd":"status"}"#)
      if count?.contains(#""control_clients":1,"#) == true { break }
      usleep(20_000)
    }
    #expect(count?.contains(#""control_clients":1,"#) == true)
  }

  @Test func theSocketIs0600AndRemovedOnStop() throws {
    let previous = umask(0)
    defer { umask(previous) }
    let running = try ControlledEmulator()
    defer { running.stop() }
    var info = stat()
    #expect(lstat(running.controlPath, &info) == 0)
    #expect(info.st_mode & S_IFMT == S_IFSOCK)
    #expect(info.st_mode & 0o777 == 0o600)
    running.emulator.stop()
    #expect(access(running.controlPath, F_OK) != 0)
  }

  @Test func aGroupOpensItTo0660() throws {
    let running = try ControlledEmulator(groupName: "daemon")
    defer { running.stop() }
    var info = stat()
    #expect(lstat(running.controlPath, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o660)
    #expect(info.st_gid == Groups.groupID(named: "daemon"))
  }

  @Test func aStaleSocketIsReplacedAndALiveOneRefused() throws {
    let first = try ControlledEmulator()
    defer { first.stop() }
    #expect(throws: SystemError.self) {
      _ = try ControlledEmulator(directory: first.directory)
    }
    // The refused emulator removed its link; the first one still answers.
    let client = try ControlTestClient(path: first.controlPath)
    #expect(try client.request(#"{"cmd":"status"}"#)?.hasPrefix(#"{"ok":true"#) == true)
    client.close()
    // A socket left by a process that ended: replaced.
    first.emulator.stop()
    _ = try ChildProcess.run(
      "/usr/bin/python3",
      [
        "-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])",
        first.controlPath,
      ])
    #expect(UnixSocket.inspect(first.controlPath) == .staleSocket)
    let second = try ControlledEmulator(directory: first.directory)
    defer { second.stop(removingFolder: false) }
    #expect(UnixSocket.inspect(first.controlPath) == .liveSocket)
  }

  @Test func whatIsNotASocketIsLeftAloneAndOnlyAnExplicitPathIsFatal() throws {
    let directory = "/tmp/mockgps-ctl-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/control.sock"
    #expect(FileManager.default.createFile(atPath: path, contents: Data("mine".utf8)))
    #expect(throws: SystemError.self) {
      _ = try ControlledEmulator(directory: directory)
    }
    let running = try ControlledEmulator(explicit: false, directory: directory)
    defer { running.stop(removingFolder: false) }
    #expect(running.emulator.controlSocketPath == nil)
    #expect(running.log.contains("no control socket"))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
  }

  @Test func handleWorksWithoutASocket() throws {
    let running = try ControlledEmulator()
    defer { running.stop() }
    #expect(running.emulator.handle(.pause) == .ok())
    #expect(running.emulator.handle(.status).line.contains(#""paused":true"#))
    #expect(running.emulator.handle(.subscribe).ok == false)
    // setPosition replaces the source: the controls start again from it.
    running.emulator.setPosition(.init(known: 10, 20, altitudeMeters: 0))
    #expect(running.emulator.handle(.status).line.contains(#""paused":false"#))
  }
}
