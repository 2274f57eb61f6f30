import Glibc
import Synchronization

/// Turns signals into a readable descriptor, so that a loop waiting in `poll` on its own
/// descriptors notices a signal at once, between two of its reads, never inside one.
///
/// `init` blocks the signals in the calling thread (call it first thing, before any other thread
/// starts, so that every thread inherits the mask); a thread of its own then waits for the first
/// of them and makes `pollRequest` readable. Later signals of the set stay blocked and pending:
/// the loop finishes its work undisturbed.
public final class SignalNotifier: Sendable {
  private let pipe: WakePipe
  private let received = Atomic<Int32>(0)

  /// Blocks `signals` and starts the thread that waits for them.
  public init(_ signals: SignalSet) throws(SystemError) {
    signals.block()
    pipe = try WakePipe()
    let thread = try SystemThread.start(name: "mockgps-signals") { [self] in
      received.store(signals.wait(), ordering: .releasing)
      pipe.wake()
    }
    // The thread ends with the first signal or with the process; no one joins it.
    pthread_detach(thread)
  }

  /// Readable once a signal has arrived.
  public var pollRequest: Poll.Request { pipe.readEnd.pollRequest(.readable) }

  /// The signal that arrived, or nil while none has.
  public var receivedSignal: Int32? {
    let signal = received.load(ordering: .acquiring)
    return signal == 0 ? nil : signal
  }
}
