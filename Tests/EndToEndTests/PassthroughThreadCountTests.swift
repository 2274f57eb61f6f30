import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// A `mockgps run --config` process has as many threads with 20 simulated or passed-through
/// receivers as with one (4: main, log writer, I/O, scheduler). Passed through: every receiver is read on the runtime's one I/O thread, and its timers are steps
/// on the one scheduler thread. Before, each passthrough had a thread of its own and its
/// device another I/O thread: 2 threads more per receiver (6 threads with one, 44 with 20 on
/// fe001a7).
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct PassthroughThreadCountTests {
  /// The names of process `pid`'s threads, sorted.
  static func threadNames(of pid: pid_t) -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.map { task in
      let comm = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))
      return comm?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }.sorted()
  }

  /// The names of `process`'s threads once they are the same in two looks 300 ms apart; then
  /// ends the process (SIGTERM) and expects it to exit cleanly.
  static func settledThreadNames(ending process: TestProcess) -> [String] {
    var names = threadNames(of: process.pid)
    for _ in 0..<20 {
      usleep(300_000)
      let again = threadNames(of: process.pid)
      if again == names { break }
      names = again
    }
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 20) == 0, "\(process.standardError.suffix(2000))")
    return names
  }

  /// Runs `count` passthrough devices, each of its own fake receiver, in one `--config`
  /// process; checks that the first one forwards what its receiver sends, and returns the
  /// names of the process's threads once they are the same in two looks 300 ms apart.
  static func threadsOfRun(passingThrough count: Int) throws -> [String] {
    let directory = try ScratchDirectory("passthrough-threads")
    defer { directory.remove() }
    let receivers = try (0..<count).map {
      try FakeReceiver(linkPath: directory.path + "/ttyREAL\($0)")
    }
    defer { for receiver in receivers { receiver.close() } }
    let devices = receivers.enumerated().map { index, receiver in
      "{\"link\": \"\(directory.path)/gps\(index)\", \"passthrough\": \"\(receiver.linkPath)\", "
        + "\"passthrough-baud\": 9600, \"override\": \"off\"}"
    }
    let process = try MockGPSBinary.startFleet(devices, in: directory, seconds: 20)
    defer { process.kill() }
    try #require(
      process.standardOutput.split(separator: "\n").count == count,
      "\(process.standardError.suffix(2000))")
    // The devices work: the first forwards its receiver's sentences to a client.
    let client = try DeviceReader(path: directory.path + "/gps0")
    let feeder = try SentenceFeeder(receiver: receivers[0])
    defer { feeder.stop() }
    let forwarded = client.readUntil(type: "GGA", timeoutSeconds: 5)
    #expect(forwarded != nil, "\(process.standardError.suffix(2000))")
    return settledThreadNames(ending: process)
  }

  /// The names of the threads of a `--config` process of `count` simulated receivers, once
  /// they are the same in two looks 300 ms apart (after its ready lines).
  static func threadsOfRun(simulating count: Int) throws -> [String] {
    let directory = try ScratchDirectory("simulated-threads")
    defer { directory.remove() }
    let devices = (0..<count).map { "{\"link\": \"\(directory.path)/gps\($0)\"}" }
    let process = try MockGPSBinary.startFleet(devices, in: directory, seconds: 20)
    defer { process.kill() }
    try #require(
      process.standardOutput.split(separator: "\n").count == count,
      "\(process.standardError.suffix(2000))")
    return settledThreadNames(ending: process)
  }

  /// As many threads with 20 simulated receivers as with one, measured on a process of its
  /// own (was in the test process, where the runtimes of the tests beside it started threads
  /// of the same names: flake-hunt saw a "mockgps-io" of another test's).
  @Test func twentySimulatedReceiversTakeNoMoreThreadsThanOne() throws {
    let one = try Self.threadsOfRun(simulating: 1)
    let twenty = try Self.threadsOfRun(simulating: 20)
    #expect(one == twenty, "1 receiver: \(one); 20 receivers: \(twenty)")
    #expect(one.count == 4, "\(one)")
  }

  @Test func twentyPassedThroughReceiversTakeNoMoreThreadsThanOne() throws {
    let one = try Self.threadsOfRun(passingThrough: 1)
    let twenty = try Self.threadsOfRun(passingThrough: 20)
    #expect(one.count == twenty.count, "1 receiver: \(one); 20 receivers: \(twenty)")
    // The number the README gives: main, log writer, I/O and scheduler threads.
    #expect(one.count == 4, "\(one)")
  }
}
