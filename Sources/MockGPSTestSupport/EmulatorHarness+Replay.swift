import DeviceRuntime
import MockGPS
import Replay
import Simulation

extension EmulatorHarness {
  /// A harness replaying `source` (a `ReplayReader` of a log, or epochs a test made up) as
  /// `configuration` says (its `.replay` playback: wait for a client, settle time), on the
  /// manual clock as a simulated receiver: nothing is sent by itself, `step()` runs the next
  /// epoch of the log and its whole burst at their times on the clock, and returns its bytes.
  ///
  /// A replay that waits for its first client (the default playback) starts its timeline at
  /// the clock's time when the harness's client was seen, plus the settle time.
  public convenience init(
    replaying source: sending any ReplayEpochSource, configuration: EmulatorConfiguration,
    start: UTCInstant = UTCInstant(nanosecondsSinceEpoch: 1_767_225_600_500_000_000),
    holdsClient: Bool = true, device: Device = .memory, log: Log = Log(level: .warning)
  ) throws {
    nonisolated(unsafe) var pending: (any ReplayEpochSource)? = source
    try self.init(
      configuration: configuration, start: start, holdsClient: holdsClient, linkPath: nil,
      device: device
    ) { settings, runtime in
      // Called once: the source goes to the one emulator made.
      guard let taken = pending.take() else { throw StepError(description: "no source left") }
      nonisolated(unsafe) let given = taken
      return try Emulator(configuration: settings, replaying: given, log: log, runtime: runtime)
    }
  }

  /// Moves the clock from deadline to deadline, running what is due, until `nanoseconds`
  /// after now (the clock ends there); returns how many bytes were written to the device
  /// meanwhile. For a test that looks at what a replay did between its epochs.
  @discardableResult
  public func advance(byNanoseconds nanoseconds: Int64) -> Int {
    let bytesBefore = emulator.statistics.bytesSent
    let end = clock.now().nanoseconds + nanoseconds
    runtime.runDue()
    while let next = runtime.nextDeadlineNanoseconds, next <= end {
      clock.set(UTCInstant(nanosecondsSinceEpoch: max(next, clock.now().nanoseconds)))
      runtime.runDue()
    }
    clock.set(UTCInstant(nanosecondsSinceEpoch: end))
    runtime.runDue()
    return emulator.statistics.bytesSent - bytesBefore
  }
}
