import Glibc

/// Signals handled by waiting for them on one thread, instead of in an asynchronous handler.
///
/// Block them first thing in `main`, before any thread starts, so every thread inherits the
/// mask and a signal sent at any time stays pending until `wait()` takes it.
public struct SignalSet: Sendable {
  /// The signal numbers.
  public let signals: [Int32]

  /// Creates a set.
  public init(_ signals: [Int32]) {
    self.signals = signals
  }

  /// Termination requests: SIGINT, SIGTERM and SIGHUP.
  public static let termination = SignalSet([SIGINT, SIGTERM, SIGHUP])

  private var cSet: sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    return set
  }

  /// Blocks the signals in the calling thread (and the threads it starts later).
  ///
  /// The corresponding C function is `pthread_sigmask(3)`.
  public func block() {
    var set = cSet
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// Waits for one of the signals and returns its number.
  ///
  /// The corresponding C function is `sigwait(3)`.
  public func wait() -> Int32 {
    var set = cSet
    var received: Int32 = 0
    while sigwait(&set, &received) != 0 {}
    return received
  }

  /// Waits for one of the signals or for `wakeUp`'s signal, and returns its number.
  ///
  /// Call it on the thread that created `wakeUp`.
  public func wait(orWakeUp wakeUp: ThreadWakeUp) -> Int32 {
    SignalSet(signals + [ThreadWakeUp.signal]).wait()
  }

  /// Ignores SIGPIPE, so that writing to a closed peer gives EPIPE instead of ending the process.
  public static func ignoreBrokenPipe() {
    signal(SIGPIPE, SIG_IGN)
  }
}

/// Wakes one thread waiting in `SignalSet.wait(orWakeUp:)` from any other thread, by sending it
/// SIGUSR1 alone.
///
/// Race-free: the signal is blocked in the waiting thread from `init()` on, so a wake-up sent
/// before the thread waits stays pending and ends the wait at once. A SIGUSR1 sent to the whole
/// process from outside may end the wait too, so check why you were woken.
public struct ThreadWakeUp: Sendable {
  /// The signal sent.
  public static let signal = SIGUSR1

  private let thread: pthread_t

  /// Blocks the signal in the calling thread, which will wait for it.
  public init() {
    SignalSet([Self.signal]).block()
    thread = pthread_self()
  }

  /// Wakes the thread that created this.
  ///
  /// The corresponding C function is `pthread_kill(3)`.
  public func wake() {
    pthread_kill(thread, Self.signal)
  }
}
