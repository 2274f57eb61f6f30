import DeviceRuntime
import Passthrough
import Replay
import SystemIO

extension PassthroughLoop {
  /// The loop's state, behind its one lock (see `PassthroughLoop`).
  struct State {
    var connection: PassthroughConnection?
    /// When the receiver went away (monotonic), while it is away.
    var lostNanoseconds: Int64?
    var nextRetryNanoseconds: Int64 = 0
    /// True while a reopening of the port waits for the I/O thread.
    var reconnectQueued = false
    /// The client line's speed last seen; a change is followed on the real port.
    var lineBaud: Int?
    var nextLineCheckNanoseconds: Int64 = 0
    var warnedOfUnrewritten = false
    /// A foreign terminal at the receiver's path was reported; again once the receiver is back.
    var warnedOfForeignTerminal = false
    /// The epochs of what was forwarded, for the listeners.
    var epochs = StreamEpochGrouper()
    /// When the receiver's line has carried the bytes forwarded so far (monotonic), each read
    /// taken as written when the line started sending it: a receiver that writes a sentence
    /// then (mockgps's own device does) is silent that long without having finished. (From a
    /// real UART the bytes come as they are carried, a few at a time: the quiet starts at once.)
    var lineCarriedNanoseconds: Int64 = 0
    /// When the gathered epoch is handed over if nothing more comes: `quietNanoseconds` after
    /// the line carried the last bytes.
    var quietAtNanoseconds: Int64 { lineCarriedNanoseconds + PassthroughLoop.quietNanoseconds }
    /// Bytes dropped (no client, a full queue) since the last epoch closed.
    var bytesDroppedInEpoch = 0
    /// Follows the baud changes clients ask and the receiver acknowledges.
    var watcher = BaudChangeWatcher()
    /// What clients wrote that the receiver's port has not taken yet.
    var toReceiver = ByteQueue()
    /// True while the clients' input is held back because `toReceiver` is full.
    var clientHeld = false
    /// The port's registration on the I/O thread, while it is open.
    var registration: IOLoop.Registration?
    /// True while the registration waits for room to write too.
    var watchingWritable = false
    /// The timers' task on the scheduler, from `start()` to `stop()`.
    var task: DeadlineScheduler.TaskID?
    /// The hotplug subscription, from `start()` to `stop()`.
    var hotplug: ReceiverHotplugHub.SubscriptionID?
    /// Set by `stop()`: nothing is done any more.
    var stopped = false
    /// The buffer the port is read into.
    var buffer = [UInt8](repeating: 0, count: 4096)
  }

  /// Bytes waiting to be written, oldest first, taken from the front without moving the rest
  /// at each write.
  struct ByteQueue {
    private var bytes: [UInt8] = []
    private var start = 0

    /// How many bytes wait.
    var count: Int { bytes.count - start }
    var isEmpty: Bool { count == 0 }
    /// The bytes waiting.
    var waiting: ArraySlice<UInt8> { bytes[start...] }

    /// Adds bytes at the end.
    mutating func append(_ more: ArraySlice<UInt8>) {
      bytes.append(contentsOf: more)
    }

    /// Drops `taken` bytes from the front.
    mutating func removeFirst(_ taken: Int) {
      start += taken
      if start == bytes.count {
        bytes.removeAll(keepingCapacity: true)
        start = 0
      } else if start >= 32_768 {
        bytes.removeFirst(start)
        start = 0
      }
    }

    /// Drops every byte; returns how many there were.
    mutating func removeAll() -> Int {
      defer {
        bytes = []
        start = 0
      }
      return count
    }
  }
}
