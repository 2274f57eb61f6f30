// PLACEHOLDER CONTRACT (issue 11): the owner of the scheduler fills in the deadline queue, the
// manual mode and the conversion of the epoch and device loops; `io` and `init`/`stop` are the
// contract others build on now.
import Simulation
import SystemIO

/// The threads that serve emulators, shared by every device of a process: one I/O thread
/// (`io`: client input of every device, control connections, network outputs, through epoll)
/// and one scheduler thread (every device's epochs and their paced writes, on one deadline
/// queue). The number of threads does not grow with the number of devices.
public final class EmulatorRuntime: Sendable {
  /// The I/O thread, started by `init`.
  public let io: IOLoop

  /// Creates and starts the runtime's threads.
  public init(clock: any UTCClock = SystemUTCClock()) throws(SystemError) {
    io = try IOLoop(name: "mockgps-io")
    try io.start()
  }

  /// Stops the threads; call after every emulator on it has stopped. Any number of times.
  public func stop() {
    io.stop()
  }
}
