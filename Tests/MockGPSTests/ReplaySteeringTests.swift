import Control
import Foundation
import MockGPS
import MockGPSTestSupport
import Receiver
import Replay
import Simulation
import TestFixtures
import Testing

/// `pause`, `resume` and `seek` on a replay, through `Emulator.handle(_:)` as the control socket
/// calls it, on the manual clock (`EmulatorHarness`): which epoch goes out next and at what
/// virtual time, to the nanosecond, without sleeping.
@Suite(.blocking) struct ReplaySteeringTests {
  static let millisecond: Int64 = 1_000_000

  /// `count` epochs of one real sentence each, every `periodMilliseconds` of log time, and the
  /// index of each epoch by its line.
  static func epochs(count: Int, periodMilliseconds: Int64 = 100) throws
    -> (epochs: [ReplayEpoch], index: [String: Int])
  {
    let packets = try RealSentences.packets(count: count)
    let epochs = packets.enumerated().map { index, packet in
      ReplayEpoch(
        offsetNanoseconds: Int64(index) * periodMilliseconds * millisecond, packets: [packet])
    }
    var index: [String: Int] = [:]
    for (number, packet) in packets.enumerated() {
      let line = String(decoding: packet.bytes.dropLast(2), as: UTF8.self)
      index[line] = index[line] ?? number
    }
    return (epochs, index)
  }

  /// A harness replaying `source`, unpaced, waiting for its client and settling 0.1 s.
  static func harness(
    _ source: sending any ReplayEpochSource, holdsClient: Bool = true
  ) throws -> EmulatorHarness {
    try harness(source, baud: 0, holdsClient: holdsClient)
  }

  /// A harness replaying `source` at `baud`, waiting for its client and settling 0.1 s.
  static func harness(
    _ source: sending any ReplayEpochSource, baud: Int, holdsClient: Bool = true
  ) throws -> EmulatorHarness {
    let configuration = EmulatorConfiguration(
      source: .replay(path: "made-up", ReplayPlayback(waitsForClient: true, settleSeconds: 0.1)),
      pacing: try BytePacing(baud: baud), groupName: nil)
    // A test without the harness's client opens the link with one of its own: a terminal.
    return try EmulatorHarness(
      replaying: source, configuration: configuration, holdsClient: holdsClient,
      device: holdsClient ? .memory : .pseudoTerminal)
  }

  /// The indices of the next `count` epochs, each one line, and the virtual time each went out.
  static func next(_ count: Int, of harness: EmulatorHarness, _ index: [String: Int]) throws
    -> [(epoch: Int, nanoseconds: Int64)]
  {
    try (0..<count).map { _ in
      let line = String(decoding: try harness.step().dropLast(2), as: UTF8.self)
      return (index[line] ?? -1, harness.clock.now().nanoseconds)
    }
  }

  static func field(_ name: String, of reply: ControlReply) -> String? {
    reply.fields.first { $0.0 == name }?.1.json
  }

  @Test func seekGoesOnFromTheFirstEpochAtTheTimeForwardAndBack() throws {
    let (epochs, index) = try Self.epochs(count: 60)
    let harness = try Self.harness(MadeUpEpochs(epochs))
    defer { harness.stop() }
    let start = harness.clock.now().nanoseconds + 100 * Self.millisecond
    let first = try Self.next(3, of: harness, index)
    #expect(first.map(\.epoch) == [0, 1, 2])
    #expect(first.map(\.nanoseconds) == [0, 100, 200].map { start + $0 * Self.millisecond })

    // Asked at 0.2 s into the log: the timeline stands at 2.45 s, epoch 25 (2.5 s) 50 ms later.
    let asked = harness.clock.now().nanoseconds
    let forward = harness.emulator.handle(.seek(seconds: 2.45))
    #expect(forward.ok, "\(forward.line)")
    #expect(Self.field("time", of: forward) == "2.45")
    #expect(Self.field("epoch_offset", of: forward) == "2.5")
    #expect(Self.field("past_end", of: forward) == "false")
    let after = try Self.next(3, of: harness, index)
    #expect(after.map(\.epoch) == [25, 26, 27])
    #expect(after.map(\.nanoseconds) == [50, 150, 250].map { asked + $0 * Self.millisecond })

    // Back to 0.5 s, an epoch's time: it goes out as the seek is asked.
    let back = harness.clock.now().nanoseconds
    #expect(harness.emulator.handle(.seek(seconds: 0.5)).ok)
    let again = try Self.next(3, of: harness, index)
    #expect(again.map(\.epoch) == [5, 6, 7])
    #expect(again.map(\.nanoseconds) == [0, 100, 200].map { back + $0 * Self.millisecond })
    let status = harness.emulator.handle(.status)
    #expect(Self.field("log_offset", of: status) == "0.7", "\(status.line)")
    #expect(harness.emulator.statistics.epochsLate == 0)
  }

  @Test func pauseIsSilenceAndResumeGoesOnWhereItHeld() throws {
    let (epochs, index) = try Self.epochs(count: 80)
    let harness = try Self.harness(MadeUpEpochs(epochs))
    defer { harness.stop() }
    #expect(try Self.next(3, of: harness, index).map(\.epoch) == [0, 1, 2])
    #expect(harness.emulator.handle(.pause).ok)
    #expect(harness.emulator.handle(.pause).ok, "a pause while paused changes nothing")
    #expect(Self.field("paused", of: harness.emulator.handle(.status)) == "true")
    // Ten seconds (100 epochs of the log): nothing.
    #expect(harness.advance(byNanoseconds: 10_000 * Self.millisecond) == 0)

    // Epoch 3 was due 100 ms after the pause: it goes out 100 ms after the resume.
    let resumed = harness.clock.now().nanoseconds
    #expect(harness.emulator.handle(.resume).ok)
    let lines = try Self.next(3, of: harness, index)
    #expect(lines.map(\.epoch) == [3, 4, 5])
    #expect(lines.map(\.nanoseconds) == [100, 200, 300].map { resumed + $0 * Self.millisecond })
    #expect(Self.field("paused", of: harness.emulator.handle(.status)) == "false")
    #expect(
      harness.emulator.handle(.resume).line
        == #"{"ok":false,"error":"resume: nothing to resume: the replay is not paused"}"# + "\n")
    #expect(harness.emulator.statistics.epochsLate == 0)
  }

  @Test func seekWhilePausedHoldsThereUntilTheResume() throws {
    let (epochs, index) = try Self.epochs(count: 80)
    let harness = try Self.harness(MadeUpEpochs(epochs))
    defer { harness.stop() }
    #expect(try Self.next(2, of: harness, index).map(\.epoch) == [0, 1])
    #expect(harness.emulator.handle(.pause).ok)
    #expect(harness.advance(byNanoseconds: 150 * Self.millisecond) == 0)
    #expect(harness.emulator.handle(.seek(seconds: 4)).ok)
    #expect(harness.advance(byNanoseconds: 400 * Self.millisecond) == 0, "silent while paused")
    let status = harness.emulator.handle(.status)
    #expect(Self.field("log_offset", of: status) == "4", "\(status.line)")
    #expect(Self.field("paused", of: status) == "true")
    // The seek held at 4 s, epoch 40's time: it goes out as the pause ends.
    let resumed = harness.clock.now().nanoseconds
    #expect(harness.emulator.handle(.resume).ok)
    let lines = try Self.next(3, of: harness, index)
    #expect(lines.map(\.epoch) == [40, 41, 42])
    #expect(lines.map(\.nanoseconds) == [0, 100, 200].map { resumed + $0 * Self.millisecond })
  }

  @Test func pastTheEndTheLastEpochIsSentAndTheReplayEnds() throws {
    let (epochs, index) = try Self.epochs(count: 30)
    let harness = try Self.harness(MadeUpEpochs(epochs))
    defer { harness.stop() }
    #expect(try Self.next(1, of: harness, index).map(\.epoch) == [0])
    let asked = harness.clock.now().nanoseconds
    let reply = harness.emulator.handle(.seek(seconds: 1e6))
    #expect(Self.field("past_end", of: reply) == "true", "\(reply.line)")
    #expect(Self.field("time", of: reply) == "2.9")
    let last = try Self.next(1, of: harness, index)
    #expect(last.map(\.epoch) == [29])
    #expect(last.map(\.nanoseconds) == [asked])
    #expect(harness.advance(byNanoseconds: Self.millisecond) == 0)
    #expect(harness.emulator.isFinished)
    #expect(harness.emulator.statistics.epochsSent == 2)
    for request in [ControlRequest.pause, .resume, .seek(seconds: 0)] {
      #expect(
        harness.emulator.handle(request).line
          == #"{"ok":false,"error":"\#(request.command): the replay has ended"}"# + "\n")
    }
  }

  @Test func whatDoesNotApplyToAReplayIsRefusedInOneLine() throws {
    let packets = try RealSentences.packets(count: 3)
    let untimed = packets.map { ReplayEpoch(offsetNanoseconds: nil, packets: [$0]) }
    let harness = try Self.harness(MadeUpEpochs(untimed), holdsClient: false)
    defer { harness.stop() }
    let expected = [
      (
        ControlRequest.rate(hertz: 5),
        "rate: a replay sends its log as recorded; only status, subscribe, pause, resume and "
          + "seek apply"
      ),
      (
        .position(latitude: 1, longitude: 2, altitudeMeters: nil),
        "position: a replay sends its log as recorded; only status, subscribe, pause, resume "
          + "and seek apply"
      ),
      (
        .scale(factor: 10),
        "scale: a replay sends its log as recorded; only status, subscribe, pause, resume "
          + "and seek apply"
      ),
      (
        .seek(seconds: -1),
        "seek: 'time' expected a number of seconds from the start of the log, 0 or more"
      ),
      (
        .seek(seconds: .nan),
        "seek: 'time' expected a number of seconds from the start of the log, 0 or more"
      ),
      (
        .seek(seconds: 2),
        "seek: the log carries no times to seek by; only 'seek 0' (its start) applies"
      ),
    ]
    for (request, message) in expected {
      let reply = harness.emulator.handle(request)
      #expect(!reply.ok)
      #expect(
        reply.fields.first?.1.json == ControlReply.Value.string(message).json, "\(reply.line)")
    }
    #expect(harness.emulator.handle(.seek(seconds: 0)).ok, "an untimed log starts again")
  }

  /// 1,000 seeks, at random times (a seeded generator) between 0 and 3 ms apart, while a
  /// replay paced at 38,400 baud writes its epochs of three sentences: every epoch arrives
  /// whole (its three sentences together and in order), no sentence is cut.
  @Test func aStormOfSeeksNeverCutsAnEpoch() throws {
    let packets = try RealSentences.packets(count: 150)
    let epochs = stride(from: 0, to: packets.count, by: 3).map {
      ReplayEpoch(
        offsetNanoseconds: Int64($0 / 3) * 50 * Self.millisecond,
        packets: Array(packets[$0..<$0 + 3]))
    }
    var position: [String: (epoch: Int, sentence: Int)] = [:]
    for (number, packet) in packets.enumerated() {
      position[String(decoding: packet.bytes.dropLast(2), as: UTF8.self)] = (number / 3, number % 3)
    }
    let harness = try Self.harness(MadeUpEpochs(epochs), baud: 38_400)
    defer { harness.stop() }
    var generator = FaultRandomNumberGenerator(seed: 21)
    var refused = 0
    var bytes: [UInt8] = []
    bytes += try harness.read(harness.advance(byNanoseconds: 100 * Self.millisecond))
    for _ in 0..<1000 {
      let seconds = Double.random(in: 0...2.4, using: &generator)
      if !harness.emulator.handle(.seek(seconds: seconds)).ok { refused += 1 }
      let written = harness.advance(
        byNanoseconds: Int64.random(in: 0...3 * Self.millisecond, using: &generator))
      bytes += try harness.read(written)
    }
    bytes += try harness.read(harness.advance(byNanoseconds: 1000 * Self.millisecond))
    #expect(refused == 0)
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").map(String.init)
    #expect(lines.count > 90 && lines.count % 3 == 0, "the client read \(lines.count) lines")
    #expect(bytes.last == UInt8(ascii: "\n"), "the last sentence was cut")
    var expected = 0
    for line in lines {
      guard let (epoch, sentence) = position[line] else {
        Issue.record("a line that was not sent whole: \(line)")
        break
      }
      #expect(sentence == expected, "epoch \(epoch) cut: sentence \(sentence) after \(expected)")
      expected = (sentence + 1) % 3
    }
    #expect(harness.emulator.handle(.status).ok)
  }

  @Test func aSeekBeforeTheClientComesStartsTheLogThere() throws {
    let (epochs, index) = try Self.epochs(count: 40)
    let harness = try Self.harness(MadeUpEpochs(epochs), holdsClient: false)
    defer { harness.stop() }
    let reply = harness.emulator.handle(.seek(seconds: 2))
    #expect(reply.ok, "\(reply.line)")
    #expect(harness.advance(byNanoseconds: 10_000 * Self.millisecond) == 0)
    let reader = try DeviceReader(path: harness.linkPath)
    try harness.waitForClient()
    let opened = harness.clock.now().nanoseconds
    var sent: [Int64] = []
    for _ in 0..<3 {
      try harness.stepWithoutReading()
      sent.append(harness.clock.now().nanoseconds - opened)
    }
    #expect(reader.readLines(3, timeoutSeconds: 5).map { index[$0.text] ?? -1 } == [20, 21, 22])
    // From the settle time on, as a replay that was not sought.
    #expect(sent == [100, 200, 300].map { $0 * Self.millisecond })
  }

  /// Seconds of the day of an RMC line's time field (hhmmss.ss).
  static func shownSeconds(_ line: String) -> Double? {
    let fields = line.split(separator: ",", omittingEmptySubsequences: false)
    guard fields.count > 1, let value = Double(fields[1]) else { return nil }
    let hhmmss = Int(value)
    return Double(hhmmss / 10_000 * 3600 + hhmmss / 100 % 100 * 60 + hhmmss % 100)
      + value - Double(hhmmss)
  }

  /// How far the time each of the next `count` epochs shows is from the virtual time it went
  /// out at, seconds.
  static func lags(_ count: Int, of harness: EmulatorHarness) throws -> [Double] {
    try (0..<count).map { _ in
      let line = String(decoding: try harness.step().dropLast(2), as: UTF8.self)
      let now = harness.clock.now().nanoseconds % (86_400 * 1_000_000_000)
      return Double(now) / 1e9 - (shownSeconds(line) ?? .infinity)
    }
  }

  /// `--time now` across a pause and a seek: the sentences keep showing the time they go out
  /// at (the log's place jumps, its time does not).
  @Test func underTimeNowTheTimeGoesOnAcrossAPauseAndASeek() throws {
    let directory = NSTemporaryDirectory() + "mockgps-seek-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // 300 RMCs at 10 Hz from 12:00:00.00 on 15 March 2024.
    let text = (0..<300).map { tenth -> String in
      let time = String(format: "1200%02d.%02d", tenth / 10, tenth % 10 * 10)
      let body = "GPRMC,\(time),A,5155.55442,N,00434.65873,E,0.2,,150324,,,A"
      let checksum = body.utf8.reduce(UInt8(0), ^)
      return "$\(body)*\(String(format: "%02X", checksum))\r\n"
    }.joined()
    let path = directory + "/drive.nmea"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let harness = try Self.harness(
      try ReplayReader(path: path, options: ReplayOptions(time: .now)))
    defer { harness.stop() }
    // Each pause lasts 1 s and each seek jumps seconds: a time that did not go on would be off
    // by that much. The field shows hundredths; the virtual times are exact.
    let bound = 0.005
    let before = try Self.lags(3, of: harness)
    #expect(before.allSatisfy { abs($0) < bound }, "\(before)")

    #expect(harness.emulator.handle(.pause).ok)
    #expect(harness.advance(byNanoseconds: 1000 * Self.millisecond) == 0)
    #expect(harness.emulator.handle(.resume).ok)
    let resumed = try Self.lags(3, of: harness)
    #expect(resumed.allSatisfy { abs($0) < bound }, "\(resumed)")

    #expect(harness.emulator.handle(.seek(seconds: 20)).ok)
    let sought = try Self.lags(3, of: harness)
    #expect(sought.allSatisfy { abs($0) < bound }, "\(sought)")

    // A seek while paused: the epoch it landed on waits with the pause, its time moves on.
    #expect(harness.emulator.handle(.pause).ok)
    #expect(harness.advance(byNanoseconds: 400 * Self.millisecond) == 0)
    #expect(harness.emulator.handle(.seek(seconds: 5)).ok)
    #expect(harness.advance(byNanoseconds: 600 * Self.millisecond) == 0)
    #expect(harness.emulator.handle(.resume).ok)
    let afterBoth = try Self.lags(3, of: harness)
    #expect(afterBoth.allSatisfy { abs($0) < bound }, "\(afterBoth)")
  }
}
