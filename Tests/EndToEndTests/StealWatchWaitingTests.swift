import Glibc
import MockGPSTestSupport
import Testing

/// `StealWatch.watchWaiting(of:)` notes when a watched process waited for a CPU: two busy
/// processes on one CPU wait for each other; a sleeping one never waits.
@Suite(.blocking) struct StealWatchWaitingTests {
  /// A shell that spins on CPU 0 until killed.
  static func spinner(_ taskset: String) throws -> TestProcess {
    try TestProcess(taskset, ["-c", "0", "sh", "-c", "while :; do :; done"])
  }

  @Test func twoBusyProcessesOnOneCPUAreSeenWaiting() throws {
    let taskset = try #require(findExecutable("taskset"))
    let watch = try StealWatch.start()
    defer { watch.stop() }
    let first = try Self.spinner(taskset)
    defer { first.kill() }
    let second = try Self.spinner(taskset)
    defer { second.kill() }
    watch.watchWaiting(of: first.pid)
    usleep(500_000)
    let episodes = watch.episodes
    #expect(
      episodes.contains { $0.isWaiting && $0.stolenNanoseconds >= StealWatch.waitingNanoseconds },
      "\(episodes)")
  }

  @Test func aSleepingProcessIsNeverSeenWaiting() throws {
    let sleeper = try TestProcess(try #require(findExecutable("sleep")), ["2"])
    defer { sleeper.kill() }
    let watch = try StealWatch.start()
    defer { watch.stop() }
    watch.watchWaiting(of: sleeper.pid)
    usleep(500_000)
    // Only the hypervisor's steal may be noted.
    #expect(watch.episodes.allSatisfy { !$0.isWaiting }, "\(watch.episodes)")
  }
}
