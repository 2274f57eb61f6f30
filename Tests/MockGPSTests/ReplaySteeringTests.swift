import Control
import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import Replay
import Synchronization
import Testing

/// `pause`, `resume` and `seek` on a replay, on a real pseudo-terminal, through
/// `Emulator.handle(_:)` as the control socket calls it.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct ReplaySteeringTests {
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

  /// The indices of the next `count` lines read.
  static func next(
    _ count: Int, of reader: DeviceReader, _ index: [String: Int], timeoutSeconds: Double = 3
  ) -> [Int] {
    reader.readLines(count, timeoutSeconds: timeoutSeconds).map { index[$0.text] ?? -1 }
  }

  static func field(_ name: String, of reply: ControlReply) -> String? {
    reply.fields.first { $0.0 == name }?.1.json
  }

  @Test func seekGoesOnFromTheFirstEpochAtTheTimeForwardAndBack() throws {
    let (epochs, index) = try Self.epochs(count: 60)
    let running = try ReplayingEmulator(epochs, baud: 0, settleSeconds: 0.1)
    defer { running.stop() }
    let stolen = try StealWatch.start()
    defer { stolen.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    #expect(Self.next(3, of: reader, index) == [0, 1, 2])

    let forward = running.emulator.handle(.seek(seconds: 2.45))
    #expect(forward.ok, "\(forward.line)")
    #expect(Self.field("time", of: forward) == "2.45")
    #expect(Self.field("epoch_offset", of: forward) == "2.5")
    #expect(Self.field("past_end", of: forward) == "false")
    // At most the epoch due as the seek was asked comes before; then 25 on, none skipped.
    var after = Self.next(4, of: reader, index)
    if after.first ?? 0 < 25 { after.removeFirst() }
    #expect(Array(after.prefix(3)) == [25, 26, 27], "\(after)")

    #expect(running.emulator.handle(.seek(seconds: 0.5)).ok)
    var back = Self.next(4, of: reader, index)
    if back.first ?? 0 > 5 { back.removeFirst() }
    #expect(Array(back.prefix(3)) == [5, 6, 7], "\(back)")
    let status = running.emulator.handle(.status)
    let offset = try #require(Self.field("log_offset", of: status).flatMap(Double.init))
    #expect(offset >= 0.5 && offset < 1.5, "\(status.line)")
    // None late (by more than the replay's 10 ms), but for the CPU time the hypervisor took
    // (`StealWatch`: seen in a loaded run).
    let late = running.emulator.statistics.epochsLate
    #expect(
      stolen.explains(late, lateBeyondNanoseconds: 10_000_000),
      "\(late) epochs late, \(stolen.milliseconds) ms of CPU taken")
  }

  @Test func pauseIsSilenceAndResumeGoesOnWhereItHeld() throws {
    let (epochs, index) = try Self.epochs(count: 80)
    let running = try ReplayingEmulator(epochs, baud: 0, settleSeconds: 0.1)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    #expect(Self.next(3, of: reader, index) == [0, 1, 2])
    #expect(running.emulator.handle(.pause).ok)
    #expect(running.emulator.handle(.pause).ok, "a pause while paused changes nothing")
    #expect(Self.field("paused", of: running.emulator.handle(.status)) == "true")
    // An epoch being written may finish; then nothing for 0.6 s (6 epochs of the log).
    let during = Self.next(10, of: reader, index, timeoutSeconds: 0.6)
    #expect(during.count <= 1 && during.allSatisfy { $0 == 3 }, "\(during)")
    let held = during.last ?? 2

    let resumed = DeviceReader.monotonicNanoseconds()
    #expect(running.emulator.handle(.resume).ok)
    let lines = reader.readLines(3, timeoutSeconds: 3)
    #expect(lines.map { index[$0.text] ?? -1 } == [held + 1, held + 2, held + 3])
    // The next epoch was due within one period of the pause: it comes as soon after the resume.
    let first = Double((lines.first?.arrivalNanoseconds ?? 0) - resumed) / 1e6
    #expect(first < 110, "the first epoch after the resume came \(first) ms later")
    #expect(Self.field("paused", of: running.emulator.handle(.status)) == "false")
    #expect(
      running.emulator.handle(.resume).line
        == #"{"ok":false,"error":"resume: nothing to resume: the replay is not paused"}"# + "\n")
  }

  @Test func seekWhilePausedHoldsThereUntilTheResume() throws {
    let (epochs, index) = try Self.epochs(count: 80)
    let running = try ReplayingEmulator(epochs, baud: 0, settleSeconds: 0.1)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    #expect(Self.next(2, of: reader, index) == [0, 1])
    #expect(running.emulator.handle(.pause).ok)
    _ = Self.next(1, of: reader, index, timeoutSeconds: 0.15)
    #expect(running.emulator.handle(.seek(seconds: 4)).ok)
    #expect(Self.next(1, of: reader, index, timeoutSeconds: 0.4).isEmpty, "silent while paused")
    let status = running.emulator.handle(.status)
    #expect(Self.field("log_offset", of: status) == "4", "\(status.line)")
    #expect(Self.field("paused", of: status) == "true")
    #expect(running.emulator.handle(.resume).ok)
    #expect(Self.next(3, of: reader, index) == [40, 41, 42])
  }

  @Test func pastTheEndTheLastEpochIsSentAndTheReplayEnds() throws {
    let (epochs, index) = try Self.epochs(count: 30)
    let running = try ReplayingEmulator(epochs, baud: 0, settleSeconds: 0.1)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    #expect(Self.next(1, of: reader, index) == [0])
    let reply = running.emulator.handle(.seek(seconds: 1e6))
    #expect(Self.field("past_end", of: reply) == "true", "\(reply.line)")
    #expect(Self.field("time", of: reply) == "2.9")
    var lines = Self.next(3, of: reader, index, timeoutSeconds: 1)
    if lines.first ?? 0 < 29 { lines.removeFirst() }
    #expect(lines == [29])
    #expect(Eventually.holds(within: 5) { running.emulator.isFinished })
    for request in [ControlRequest.pause, .resume, .seek(seconds: 0)] {
      #expect(
        running.emulator.handle(request).line
          == #"{"ok":false,"error":"\#(request.command): the replay has ended"}"# + "\n")
    }
  }

  @Test func whatDoesNotApplyToAReplayIsRefusedInOneLine() throws {
    let packets = try RealSentences.packets(count: 3)
    let untimed = packets.map { ReplayEpoch(offsetNanoseconds: nil, packets: [$0]) }
    let running = try ReplayingEmulator(untimed, baud: 0)
    defer { running.stop() }
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
      let reply = running.emulator.handle(request)
      #expect(!reply.ok)
      #expect(
        reply.fields.first?.1.json == ControlReply.Value.string(message).json, "\(reply.line)")
    }
    #expect(running.emulator.handle(.seek(seconds: 0)).ok, "an untimed log starts again")
  }

  /// 1,000 seeks while a client reads a paced replay: every epoch arrives whole (its three
  /// sentences together and in order), no sentence is cut, nothing crashes.
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
    let running = try ReplayingEmulator(epochs, baud: 38_400, settleSeconds: 0.1)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    let done = Atomic<Bool>(false)
    let refused = Atomic<Int>(0)
    let emulator = running.emulator
    let storm = Thread {
      var generator = SystemRandomNumberGenerator()
      for _ in 0..<1000 {
        let seconds = Double.random(in: 0...2.4, using: &generator)
        if !emulator.handle(.seek(seconds: seconds)).ok { refused.add(1, ordering: .relaxed) }
        usleep(UInt32.random(in: 0...3000, using: &generator))
      }
      done.store(true, ordering: .releasing)
    }
    storm.start()
    var lines: [String] = []
    while !done.load(ordering: .acquiring) {
      lines += reader.readLines(1000, timeoutSeconds: 0.2).map(\.text)
    }
    lines += reader.readLines(1000, timeoutSeconds: 0.3).map(\.text)
    #expect(refused.load(ordering: .relaxed) == 0)
    #expect(lines.count > 30, "the client read \(lines.count) lines")
    var expected = 0
    for line in lines {
      guard let (epoch, sentence) = position[line] else {
        Issue.record("a line that was not sent whole: \(line)")
        break
      }
      #expect(sentence == expected, "epoch \(epoch) cut: sentence \(sentence) after \(expected)")
      expected = (sentence + 1) % 3
    }
    #expect(running.emulator.handle(.status).ok)
  }

  @Test func aSeekBeforeTheClientComesStartsTheLogThere() throws {
    let (epochs, index) = try Self.epochs(count: 40)
    let running = try ReplayingEmulator(epochs, baud: 0, settleSeconds: 0.1)
    defer { running.stop() }
    let reply = running.emulator.handle(.seek(seconds: 2))
    #expect(reply.ok, "\(reply.line)")
    let reader = try DeviceReader(path: running.linkPath)
    #expect(Self.next(3, of: reader, index) == [20, 21, 22])
  }

  /// Seconds of the day of an RMC line's time field (hhmmss.ss).
  static func shownSeconds(_ line: String) -> Double? {
    let fields = line.split(separator: ",", omittingEmptySubsequences: false)
    guard fields.count > 1, let value = Double(fields[1]) else { return nil }
    let hhmmss = Int(value)
    return Double(hhmmss / 10_000 * 3600 + hhmmss / 100 % 100 * 60 + hhmmss % 100)
      + value - Double(hhmmss)
  }

  /// How long after the time it shows each line arrived, seconds (UTC time of day).
  static func lags(_ lines: [DeviceReader.TimedLine]) -> [Double] {
    var realtime = timespec()
    clock_gettime(CLOCK_REALTIME, &realtime)
    let realNanoseconds = Int64(realtime.tv_sec) * 1_000_000_000 + Int64(realtime.tv_nsec)
    let offset = realNanoseconds - DeviceReader.monotonicNanoseconds()
    return lines.compactMap { line in
      guard let shown = shownSeconds(line.text) else { return nil }
      let arrived = Double((line.arrivalNanoseconds + offset) % (86_400 * 1_000_000_000)) / 1e9
      return arrived - shown
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
    let running = try ReplayingEmulator(
      source: try ReplayReader(path: path, options: ReplayOptions(time: .now)), baud: 0,
      settleSeconds: 0.1)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    // Each pause lasts 1 s and each seek jumps seconds: a time that did not go on would be off
    // by that much. The bound leaves room for a loaded machine's stalls (a clean run saw an
    // epoch 0.105 s late after a seek), not for a second.
    let bound = 0.35
    let before = Self.lags(reader.readLines(3, timeoutSeconds: 3))
    #expect(before.count == 3 && before.allSatisfy { abs($0) < bound }, "\(before)")

    #expect(running.emulator.handle(.pause).ok)
    _ = reader.readLines(20, timeoutSeconds: 1.0)
    #expect(running.emulator.handle(.resume).ok)
    let resumed = Self.lags(reader.readLines(3, timeoutSeconds: 3))
    #expect(resumed.count == 3 && resumed.allSatisfy { abs($0) < bound }, "\(resumed)")

    #expect(running.emulator.handle(.seek(seconds: 20)).ok)
    let sought = Self.lags(reader.readLines(4, timeoutSeconds: 3)).suffix(3)
    #expect(sought.count == 3 && sought.allSatisfy { abs($0) < bound }, "\(sought)")

    // A seek while paused: the epoch it landed on waits with the pause, its time moves on.
    #expect(running.emulator.handle(.pause).ok)
    _ = reader.readLines(10, timeoutSeconds: 0.4)
    #expect(running.emulator.handle(.seek(seconds: 5)).ok)
    _ = reader.readLines(10, timeoutSeconds: 0.6)
    #expect(running.emulator.handle(.resume).ok)
    let afterBoth = Self.lags(reader.readLines(3, timeoutSeconds: 3))
    #expect(afterBoth.count == 3 && afterBoth.allSatisfy { abs($0) < bound }, "\(afterBoth)")
  }
}
