import Foundation
import Glibc
import MockGPSTestSupport
import Testing

/// `StealWatch.watchWaiting(of:)` notes when a watched process waited for a CPU: two busy
/// processes on one CPU wait for each other, unless only real-time threads are watched; a
/// sleeping one never waits.
@Suite(.blocking) struct StealWatchWaitingTests {
  /// A shell that spins on CPU 0 until killed (an ordinary, not a real-time, process).
  static func spinner(_ taskset: String) throws -> TestProcess {
    try TestProcess(taskset, ["-c", "0", "sh", "-c", "while :; do :; done"])
  }

  /// The episodes noted in half a second of two spinners on CPU 0, the first one watched.
  static func episodesOfTwoSpinners(realtimeOnly: Bool) throws -> [StealWatch.Episode] {
    try episodesOfTwoSpinners { $0.watchWaiting(of: $1, realtimeOnly: realtimeOnly) }
  }

  /// The same, the first one watched by `watching` (given the watch and its process id).
  static func episodesOfTwoSpinners(watching: (StealWatch, Int32) -> Void) throws
    -> [StealWatch.Episode]
  {
    let taskset = try #require(findExecutable("taskset"))
    let watch = try StealWatch.start()
    defer { watch.stop() }
    let first = try spinner(taskset)
    defer { first.kill() }
    let second = try spinner(taskset)
    defer { second.kill() }
    watching(watch, first.pid)
    usleep(500_000)
    return watch.episodes
  }

  @Test func twoBusyProcessesOnOneCPUAreSeenWaiting() throws {
    let episodes = try Self.episodesOfTwoSpinners(realtimeOnly: false)
    #expect(
      episodes.contains { $0.isWaiting && $0.stolenNanoseconds >= StealWatch.waitingNanoseconds },
      "\(episodes)")
  }

  @Test func onlyRealtimeThreadsAreWatchedByDefault() throws {
    let episodes = try Self.episodesOfTwoSpinners(realtimeOnly: true)
    #expect(episodes.allSatisfy { !$0.isWaiting }, "\(episodes)")
  }

  /// Threads watched by name, whatever their priority: the spinner's one thread is `sh`.
  @Test func threadsWatchedByNameAreSeenWaitingAndNoOthers() throws {
    let named = try Self.episodesOfTwoSpinners { $0.watchWaiting(of: $1, threadsNamed: "sh") }
    #expect(named.contains { $0.isWaiting }, "\(named)")
    let other = try Self.episodesOfTwoSpinners { $0.watchWaiting(of: $1, threadsNamed: "other") }
    #expect(other.allSatisfy { !$0.isWaiting }, "\(other)")
  }

  /// The workers that carry a pseudo-terminal's bytes are the kernel's unbound ones, and a
  /// watch finds them: one worker at least is always there.
  @Test func theKernelsUnboundWorkersAreFound() throws {
    let workers = RunQueueWait.unboundKernelWorkers()
    #expect(!workers.isEmpty)
    for worker in workers {
      let name = try? String(contentsOfFile: "/proc/\(worker)/comm", encoding: .utf8)
      // A worker may end between the listing and the look.
      #expect(name == nil || name?.hasPrefix("kworker/u") == true, "\(worker): \(name ?? "")")
    }
  }

  @Test func aSleepingProcessIsNeverSeenWaiting() throws {
    let sleeper = try TestProcess(try #require(findExecutable("sleep")), ["3"])
    defer { sleeper.kill() }
    // Watched once asleep: a process that has just started may still wait for its start.
    #expect(
      sleeper.wait(seconds: 2) {
        let stat = (try? String(contentsOfFile: "/proc/\(sleeper.pid)/stat", encoding: .utf8))
        return stat?.split(separator: ")").last?.split(separator: " ").first == "S"
      })
    let watch = try StealWatch.start()
    defer { watch.stop() }
    watch.watchWaiting(of: sleeper.pid, realtimeOnly: false)
    usleep(500_000)
    #expect(watch.episodes.allSatisfy { !$0.isWaiting }, "\(watch.episodes)")
  }
}
