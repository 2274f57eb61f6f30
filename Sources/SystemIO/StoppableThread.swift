import Glibc
import Synchronization

/// A detached thread running a loop, with a wake pipe to interrupt its waits and a `stop()` that
/// returns once the loop has ended (at once when it never started).
public final class StoppableThread: Sendable {
  private enum State {
    case notStarted, running, finished
  }

  /// The thread's name, as `top -H` and `ps -T` show it.
  public let name: String
  /// Poll its read end beside the descriptors the loop waits on; `stop()` makes it readable.
  public let wakePipe: WakePipe
  private let keepRunning = Atomic<Bool>(true)
  private let state = Mutex(State.notStarted)

  /// Creates a thread that is not started yet.
  public init(name: String) throws(SystemError) {
    self.name = name
    wakePipe = try WakePipe()
  }

  /// True until `stop()` is called; the loop checks it between steps.
  public var shouldRun: Bool { keepRunning.load(ordering: .acquiring) }

  /// Starts `loop` on a new thread.
  public func start(_ loop: @escaping @Sendable () -> Void) throws(SystemError) {
    state.withLock { $0 = .running }
    do {
      try SystemThread.start(name: name) { [self] in
        loop()
        state.withLock { $0 = .finished }
      }
    } catch {
      state.withLock { $0 = .notStarted }
      throw error
    }
  }

  /// Asks the loop to end, wakes it, and waits until it has; then closes the wake pipe.
  public func stop() {
    keepRunning.store(false, ordering: .releasing)
    wakePipe.wake()
    while state.withLock({ $0 == .running }) { usleep(1000) }
    wakePipe.close()
  }
}
