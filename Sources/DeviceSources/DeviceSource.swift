import Control
import DeviceRuntime
import DeviceTerminal
import Synchronization
import SystemIO

/// What produces a device's bytes: a simulated receiver (`EpochLoop`), a log's replay
/// (`ReplayLoop`) or a passed-through receiver (`PassthroughLoop`). Each decides what to send
/// and hands it to its device's `Transmitter`, which paces, admits and counts it and tells the
/// epoch listeners; `Emulator` drives every source through this protocol and asks for the
/// concrete type only for what one kind alone has (its control commands, its own counters).
package protocol DeviceSource: AnyObject, Sendable {
  /// The kind of source, as the table of control commands names it.
  var kind: ControlSource { get }
  /// The device's transmit path: its listeners get every epoch as it falls due.
  var transmitter: Transmitter { get }
  /// Set once the source has played to its end (never for a passthrough).
  var finished: FinishLatch { get }
  /// Starts producing, on the runtime's threads; does nothing a second time or after `stop()`.
  func start() throws(SystemError)
  /// Stops producing, waiting out a step in progress; may be called any number of times.
  func stop()
  /// How many times a client opened the device that no client had open, as the source saw
  /// it: a harness waits for it before stepping.
  var clientArrivalCount: Int { get }
  /// Epochs that fell due so far (`DeviceStatistics.epochsDue`): `status`'s and `subscribe`'s
  /// `epoch`.
  var epochsDue: Int { get }
  /// Adds what the source alone counts to the device's counters.
  func complete(_ statistics: inout DeviceStatistics)
  /// The line speed now (a client's command, or the real receiver's port, may change it), or
  /// nil for the configured one.
  var currentBaud: Int? { get }
  /// Whether the source itself is paused (a replay's timeline), or nil when a pause is the
  /// control protocol's (a simulated receiver's motion) or there is none.
  var pausedBySource: Bool? { get }
  /// The fields `status` adds for this kind of source, after the common ones.
  var statusExtras: [(String, ControlReply.Value)] { get }
}

extension EpochLoop: DeviceSource {
  package var kind: ControlSource { .simulated }
  package var clientArrivalCount: Int { clientArrivals.load(ordering: .acquiring) }
  package func complete(_ statistics: inout DeviceStatistics) { statistics.epochsDue = epochsDue }
  package var currentBaud: Int? { plan.withLock { $0.pacing.baud } }
  package var pausedBySource: Bool? { nil }
  package var statusExtras: [(String, ControlReply.Value)] { [] }
}

extension ReplayLoop: DeviceSource {
  package var kind: ControlSource { .replay }
  package var epochsDue: Int { device.currentStatistics.epochsDue }
  package var clientArrivalCount: Int { clientArrivals.load(ordering: .acquiring) }
  // Its transmitter counts into the device's statistics, epochs begun included.
  package func complete(_ statistics: inout DeviceStatistics) {}
  package var currentBaud: Int? { nil }
  package var pausedBySource: Bool? { isPaused }
  package var statusExtras: [(String, ControlReply.Value)] {
    [("log_offset", logOffsetSeconds.map { .number($0, digits: 3) } ?? .null)]
  }
}

extension PassthroughLoop: DeviceSource {
  package var kind: ControlSource { .passthrough }
  package var epochsDue: Int { device.currentStatistics.epochsDue }
  package var clientArrivalCount: Int { device.currentStatistics.connections }
  // Its transmitter counts into the device's statistics, epochs grouped included.
  package func complete(_ statistics: inout DeviceStatistics) {}
  package var currentBaud: Int? { baud }
  package var pausedBySource: Bool? { nil }
  package var statusExtras: [(String, ControlReply.Value)] { [] }
}
