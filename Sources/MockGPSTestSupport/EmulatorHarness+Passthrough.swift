import DeviceRuntime
import Glibc
import MockGPS
import Simulation
import Synchronization
import SystemIO

/// A passthrough on the manual clock: the real receiver is a terminal the test writes into (a
/// `FakeReceiver`), read on the runtime's I/O thread as it would be; the passthrough's timers
/// (reopening the port, the rate trial, the silence warning, the line-speed check, the quiet
/// hand-over of an epoch to the listeners) run only when the test moves the clock.
///
/// ```swift
/// let receiver = try FakeReceiver(linkPath: directory + "/ttyREAL")
/// let harness = try EmulatorHarness(passingThrough: receiver.linkPath, log: log)
/// harness.advance(nanoseconds: 5_000_000_000)  // the silence warning is logged now
/// ```
extension EmulatorHarness {
  /// Starts an emulator passing the terminal at `receiverPath` through at `baud` (nil finds
  /// it), with `override` and what `configure` adds. With `holdsClient` (the default), the
  /// harness opens the device and waits until the emulator has seen it.
  public convenience init(
    passingThrough receiverPath: String, baud: Int? = 9600,
    override: PassthroughSettings.OverrideMode = .off, holdsClient: Bool = true,
    device: Device = .memory, log: Log = Log(level: .warning),
    configure: (inout EmulatorConfiguration) -> Void = { _ in }
  ) throws {
    var configuration = EmulatorConfiguration()
    configuration.passthrough = PassthroughSettings(
      target: .path(receiverPath), baud: baud, override: override)
    configure(&configuration)
    try self.init(
      configuration: configuration, holdsClient: holdsClient, device: device, log: log)
  }

  /// Moves the clock forward by `nanoseconds`, from deadline to deadline, running every step
  /// due on the way (each at its own time), and returns how many ran.
  @discardableResult
  public func advance(nanoseconds: Int64) -> Int {
    let target = clock.now().nanoseconds + nanoseconds
    var ran = runtime.runDue()
    while let next = runtime.nextDeadlineNanoseconds, next <= target {
      clock.set(UTCInstant(nanosecondsSinceEpoch: max(next, clock.now().nanoseconds)))
      ran += runtime.runDue()
    }
    clock.set(UTCInstant(nanosecondsSinceEpoch: target))
    return ran + runtime.runDue()
  }

  /// Waits (bounded) until the passthrough has read `byteCount` bytes from the receiver since
  /// it started (rewritten or held while the rate is found), and until the I/O thread's round
  /// that read them is over: what the bytes do at their arrival (forwarding, counting,
  /// gathering an epoch, on the clock's time then) is done.
  public func waitUntilReceived(byteCount: Int) throws {
    try waitBounded("the passthrough did not read \(byteCount) bytes") {
      guard let statistics = emulator.passthroughStatistics else { return false }
      return statistics.rewriter.bytesReceived + statistics.bytesBeforeData >= byteCount
    }
    // A task on the I/O thread runs after the handlers of the round it was queued in.
    let roundOver = Atomic<Bool>(false)
    runtime.io.perform { roundOver.store(true, ordering: .releasing) }
    try waitBounded("the I/O thread did not finish its round") {
      roundOver.load(ordering: .acquiring)
    }
  }

  /// Waits until `condition` holds, for the kernel or the I/O thread; 5 s at most.
  private func waitBounded(_ failure: String, _ condition: () -> Bool) throws {
    let deadline = SystemClock.monotonicNanoseconds() + 5_000_000_000
    while !condition() {
      guard SystemClock.monotonicNanoseconds() < deadline else {
        throw StepError(description: failure)
      }
      usleep(1000)
    }
  }
}
