import Glibc
import Synchronization
import SystemIO
import Testing

@Suite struct StoppableThreadTests {
  @Test func stopWakesALoopWaitingInPollAndWaitsForIt() throws {
    let thread = try StoppableThread(name: "test-loop")
    let waiting = Atomic<Bool>(false)
    let ended = Atomic<Bool>(false)
    try thread.start {
      while thread.shouldRun {
        waiting.store(true, ordering: .releasing)
        // A minute: only the wake pipe can end this wait within the test.
        _ = try? Poll.wait([(thread.wakePipe.readEnd, .readable)], timeoutMilliseconds: 60_000)
      }
      ended.store(true, ordering: .releasing)
    }
    for _ in 0..<2000 where !waiting.load(ordering: .acquiring) { usleep(1000) }
    usleep(20_000)  // let it enter poll
    thread.stop()
    let hasEnded = ended.load(ordering: .acquiring)
    #expect(hasEnded)
  }

  @Test func stoppingAThreadThatNeverStartedReturnsAtOnce() throws {
    let thread = try StoppableThread(name: "never")
    thread.stop()
    #expect(!thread.shouldRun)
  }
}
