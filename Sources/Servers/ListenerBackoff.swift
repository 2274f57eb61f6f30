import DeviceRuntime
import Glibc
import Synchronization
import SystemIO

/// What a listening socket does when the process has run out of descriptors (or the system of
/// memory): the connection waiting cannot be accepted, and its listener stays readable, so an
/// `accept` retried at once would spin at full CPU and log without end.
///
/// Instead the listener stops being watched for a pause and is watched again after it; the
/// refusals are counted and logged at most once a minute, with their count since the last line.
/// Connections keep waiting in the kernel's backlog meanwhile and are accepted once descriptors
/// are free again.
final class ListenerBackoff: Sendable {
  /// How long a listener rests after a refusal.
  static let pauseNanoseconds: Int64 = 250_000_000
  /// The least time between two log lines about refusals.
  static let logIntervalNanoseconds: Int64 = 60_000_000_000

  private struct State {
    var refusals = 0
    var lastLogNanoseconds: Int64?
    /// The listener waiting for the end of its pause, and the events it waits for after.
    var paused: (IOLoop.Registration, Poll.Events)?
  }

  private let name: String
  private let io: IOLoop
  private let log: Log
  private let state = Mutex(State())
  /// The timer that ends a pause (a deadline of the loop's: it needs no descriptor).
  private let resume = Mutex<IOLoop.Registration?>(nil)

  /// A backoff for the listener called `name` in messages (`control socket`, `TCP output`).
  init(name: String, io: IOLoop, log: Log) {
    self.name = name
    self.io = io
    self.log = log
    let timer = io.addOneShotTimer { [weak self] in self?.endPause() }
    resume.withLock { $0 = timer }
  }

  private func endPause() {
    guard let (listener, events) = state.withLock({ $0.paused.take() }) else { return }
    io.change(listener, events: events)
  }

  /// True for the errors that say the process or the system has no room for a connection now,
  /// as opposed to a connection that went away before it was accepted.
  static func isOutOfResources(_ error: Int32) -> Bool {
    [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error)
  }

  /// Refusals counted so far.
  var refusals: Int { state.withLock { $0.refusals } }

  /// Notes that accepting on `listener` failed with `error` (out of resources): stops watching
  /// it for a pause, then watches it for `events` again; logs once a minute at most.
  func pause(_ listener: IOLoop.Registration, after error: SystemError, events: Poll.Events) {
    let now = SystemClock.monotonicNanoseconds()
    let message: String? = state.withLock { state in
      state.refusals += 1
      guard
        state.lastLogNanoseconds.map({ now - $0 >= Self.logIntervalNanoseconds }) ?? true
      else { return nil }
      state.lastLogNanoseconds = now
      return "\(name): cannot accept connections (\(error)); \(state.refusals) refused so far, "
        + "trying again every \(Self.pauseNanoseconds / 1_000_000) ms"
    }
    if let message { log.warning(message) }
    io.change(listener, events: [])
    state.withLock { $0.paused = (listener, events) }
    if let timer = resume.withLock({ $0 }) {
      io.arm(timer, atMonotonicNanoseconds: now + Self.pauseNanoseconds)
    }
  }

  /// Removes the timer (the listener is closing); a pause in progress does not end.
  func cancel() {
    state.withLock { $0.paused = nil }
    if let timer = resume.withLock({ $0.take() }) { io.remove(timer) }
  }
}
