import DeviceRuntime
import DeviceTerminal
import Passthrough
import Replay
import Simulation
import Synchronization
import SystemIO

/// The receiver side of `--passthrough`, on the runtime's shared threads: the real receiver's
/// port is read on the I/O thread as it becomes readable (at most `readsPerWake` reads a
/// wake-up, so that a flooding receiver leaves the thread to the other devices), rewritten per
/// the override and written to the device; the timers (reopening the port while the receiver
/// is away, following the client's line speed, the rate trial and the silence warning, the
/// quiet hand-over of an epoch) are one task on the runtime's scheduler, which hands the
/// reopening (a search and an `open`) to the I/O thread; hotplug comes from the runtime's one
/// udev monitor. A passthrough adds no thread to the process.
///
/// What clients write goes to the receiver through a bounded queue written when the port is
/// writable: while the queue is full the clients' input is held back (the device stops reading
/// it), as a real port holds back its writer; nothing blocks the shared I/O thread.
///
/// What it forwards goes out through the device's `Transmitter`, as a simulated receiver's and a
/// replay's epochs do, and is grouped into epochs (`StreamEpochGrouper`), counted in the device's
/// statistics and handed to the transmitter's epoch listeners (TCP, UDP, `subscribe`, the
/// panel): an epoch is closed when the next one starts or when the receiver has been quiet for
/// `quietNanoseconds` after its line carried the last bytes (at the receiver's baud: a writer
/// that writes a whole sentence as the line starts sending it is silent while it is carried).
///
/// Nothing waits on a client: the transmitter's admission is `dropBytes`, so bytes a client
/// cannot take now (no client, a full queue) are dropped and counted, as a UART drops what
/// nobody reads, so a flooding receiver never grows memory and never blocks anything.
///
/// The loop's state is one `State` behind one lock, taken by the I/O thread's handlers and the
/// scheduler's step (which never wait on each other otherwise) and by `stop()`.
package final class PassthroughLoop: Sendable {
  /// How often the port is opened again while the receiver is away.
  static let retryNanoseconds: Int64 = 200_000_000
  /// How often the client's line speed is looked at (and the rate trial and the silence).
  static let lineCheckNanoseconds: Int64 = 100_000_000
  /// How long a connection may give no GNSS data before a warning.
  static let silenceNanoseconds: Int64 = 5_000_000_000
  /// Reads in one wake-up of the I/O thread before it serves the other devices again.
  static let readsPerWake = 16
  /// How long the receiver is quiet, after its line carried the last bytes, before the epoch
  /// gathered is handed to the listeners: a receiver sends an epoch as one burst, and at 10 Hz
  /// the gap between bursts is wider. (The next epoch's first packet closes an epoch too.)
  static let quietNanoseconds: Int64 = 30_000_000

  /// The most bytes of a read counted as still on the receiver's line after it came: a long
  /// sentence (NMEA's longest is 82). A writer that writes a sentence as its line starts
  /// sending it (mockgps's own device) is silent no longer than that between writes; a read of
  /// a whole epoch (a pseudo-terminal's writer, a USB receiver whose baud means nothing) came
  /// faster than its line, and its epoch is handed over soon after, not a line time later.
  static let carriedReadBytes = 100

  /// The time a serial line at `baud` (8N1: ten bits a byte) takes to carry the last
  /// `carriedReadBytes` of a read of `byteCount` bytes.
  static func lineNanoseconds(of byteCount: Int, baud: Int) -> Int64 {
    guard baud > 0 else { return 0 }
    return Int64(min(byteCount, carriedReadBytes)) * 10 * 1_000_000_000 / Int64(baud)
  }

  /// The device's transmit path: admission (`dropBytes`), counters and listeners.
  package let transmitter: Transmitter
  /// Called with every epoch forwarded (see above): the transmitter's.
  var listeners: EpochListeners { transmitter.listeners }

  let device: SerialDevice
  let receiver: PassthroughReceiver
  /// Set when the loop ends; a passthrough never finishes by itself.
  package let finished = FinishLatch()
  /// With a fixed `--passthrough-baud`, that rate; nil finds it.
  let fixedBaud: Int?
  let rewriter: Mutex<PassthroughRewriter>
  let counters = Mutex(PassthroughRunStatistics())
  let state = Mutex(State())
  let log: Log
  let runtime: EmulatorRuntime

  /// Creates the loop; `receiver` may be connected already at `baud`.
  package init(
    receiver: PassthroughReceiver, baud: Int, fixedBaud: Int?, override: PositionOverride,
    device: SerialDevice, log: Log, runtime: EmulatorRuntime
  ) {
    self.receiver = receiver
    self.fixedBaud = fixedBaud
    self.device = device
    transmitter = Transmitter(device: device, admission: .dropBytes, runtime: runtime)
    self.log = log
    self.runtime = runtime
    rewriter = Mutex(PassthroughRewriter(override: override))
    counters.withLock { $0.baud = baud }
  }

  /// The loops' monotonic time (a test's manual clock on a manual runtime).
  func now() -> Int64 { runtime.monotonicNanoseconds() }

  /// Watches the receiver's port on the I/O thread, subscribes to hotplug and schedules the
  /// timers; does nothing after `stop()` or a second time.
  package func start() throws(SystemError) {
    let hotplug = runtime.receiverHotplug.subscribe { [self] events in handle(events) }
    if let failure = hotplug.failure {
      log.debug("no udev monitor (\(failure)); the receiver's return is seen by its path alone")
    }
    let started = state.withLock { state -> Bool in
      guard !state.stopped, state.task == nil else { return false }
      state.hotplug = hotplug.id
      let now = now()
      // The line starts at the receiver's baud: a client may change it before the first look.
      state.lineBaud = baud
      if receiver.isConnected {
        state.connection = PassthroughConnection(now: now, candidateIndex: candidateIndex(of: baud))
        watchReceiver(&state)
      } else {
        state.lostNanoseconds = now
      }
      state.task = runtime.scheduler.add(at: now) { [self] now in step(now: now) }
      return true
    }
    if !started { runtime.receiverHotplug.unsubscribe(hotplug.id) }
    // The I/O thread carries what the receiver sends: at the priority the epochs get (when
    // allowed), as the passthrough's own thread had, so that a loaded machine delays it less.
    if started { runtime.io.perform { SystemThread.raisePriorityIfAllowed() } }
  }

  /// Stops the loop, waiting out a handler or step in progress, and closes the port; may be
  /// called any number of times.
  package func stop() {
    let (registration, task, hotplug) = state.withLock { state in
      state.stopped = true
      defer { (state.registration, state.task, state.hotplug) = (nil, nil, nil) }
      return (state.registration, state.task, state.hotplug)
    }
    // Outside the lock: each waits for a handler or step that may be waiting for it.
    if let registration { runtime.io.remove(registration) }
    if let task { runtime.scheduler.remove(task) }
    if let hotplug { runtime.receiverHotplug.unsubscribe(hotplug) }
    receiver.disconnect()
    // A held client would stay held.
    device.holdClientInput(false)
  }

  /// A copy of the counters.
  package var statistics: PassthroughRunStatistics {
    let rewritten = rewriter.withLock { $0.statistics }
    return counters.withLock { counters in
      var copy = counters
      copy.rewriter = rewritten
      return copy
    }
  }

  /// Replaces the override from the next bytes on.
  package func setOverride(_ override: PositionOverride) {
    rewriter.withLock { $0.override = override }
  }

  /// The real port's baud now.
  var baud: Int { counters.withLock { $0.baud } }

  /// The index of `baud` among the rates `auto` tries, or nil with a fixed baud.
  func candidateIndex(of baud: Int) -> Int? {
    guard fixedBaud == nil else { return nil }
    return GNSSDataDetector.candidateBauds.firstIndex(of: baud) ?? 0
  }

  /// `1.3`: nanoseconds as seconds with one decimal.
  static func seconds(_ nanoseconds: Int64) -> String {
    let tenths = (max(nanoseconds, 0) + 50_000_000) / 100_000_000
    return "\(tenths / 10).\(tenths % 10)"
  }
}
