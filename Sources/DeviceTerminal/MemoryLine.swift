import Receiver
import Synchronization
import SystemIO

/// The emulated serial port's line without a kernel, for tests: what the device writes stays
/// here until the test reads it, and the one client opens, closes, writes and sets its
/// terminal's speed when the test says, as swift-nio's `EmbeddedChannel` stands in for a
/// socket. Nothing waits: a write takes what the client's queue has room for at once, and a
/// wait for room ends when the test reads.
///
/// A `SerialDevice` made `inMemory` holds one (`SerialDevice.memoryLine`) instead of a
/// pseudo-terminal; everything above the line (admission, pacing, the client's input, its
/// speed's garbling, the counters) is the device's own, the same as with a terminal. The client
/// is opened and closed, and writes, through the device (`openMemoryClient()`,
/// `closeMemoryClient()`, `writeFromMemoryClient(_:)`), which sees it at once.
public final class MemoryLine: Sendable {
  private struct State {
    /// What was written and the client has not read, oldest first.
    var unread: [UInt8] = []
    /// How many unread bytes the client's queue holds before a write takes nothing.
    var room = Int.max
    /// The client's terminal settings: the line's raw ones until the client changes its speed.
    var clientSettings: TerminalAttributes
    /// The wait for room in progress, if any.
    var roomWait: (wait: Wait, ready: @Sendable () -> Void)?
    /// What the client wrote and the device has not read yet (held back, or being handled).
    var input: [UInt8] = []
    /// True while a thread hands `input` to the device.
    var delivering = false
  }

  /// A wait for room on a memory line.
  final class Wait: RoomWaiting {
    private weak let line: MemoryLine?

    init(line: MemoryLine) {
      self.line = line
    }

    func cancel() {
      line?.state.withLock { state in
        if state.roomWait?.wait === self { state.roomWait = nil }
      }
    }
  }

  /// How many bytes of client input the device handles as one read, as a terminal's read of
  /// 4 KiB would hand them over.
  static let inputChunkCapacity = 4096

  /// Numbers the memory lines of this process.
  private static let lineCount = Atomic<Int>(0)

  /// A name for the line, unique in the process: what the device's link points to (nothing
  /// exists there).
  public let path: String
  private let state: Mutex<State>

  /// A line whose client finds `settings` (raw, at the chip's baud) when it opens.
  init(settings: TerminalAttributes) {
    let number = Self.lineCount.wrappingAdd(1, ordering: .relaxed).oldValue
    path = "memory-line-\(number)"
    state = Mutex(State(clientSettings: settings))
  }

  // MARK: The test's side

  /// Bytes written that the client has not read.
  public var unreadByteCount: Int { state.withLock { $0.unread.count } }

  /// Reads up to `count` of the bytes written, oldest first, as the client reads them: the
  /// room they leave ends a wait for room.
  public func read(upTo count: Int = .max) -> [UInt8] {
    let (bytes, ready) = state.withLock { state -> ([UInt8], (@Sendable () -> Void)?) in
      let taken = Array(state.unread.prefix(count))
      state.unread.removeFirst(taken.count)
      return (taken, Self.takeWaitIfRoom(&state))
    }
    ready?()
    return bytes
  }

  /// Sets how many unread bytes the client's queue holds (unbounded by default): a write
  /// takes only what fits (a replay then waits for room, a passthrough drops the rest), and
  /// an epoch of a simulated chip is dropped unless it fits in this and in the terminal's
  /// `SerialDevice.unreadCapacity`.
  public func setClientRoom(_ byteCount: Int) {
    let ready = state.withLock { state in
      state.room = max(0, byteCount)
      return Self.takeWaitIfRoom(&state)
    }
    ready?()
  }

  /// Sets the client's terminal to any Linux speed (0: `B0`), as `tcsetattr` by the client.
  public func setClientSpeed(_ bitsPerSecond: Int) {
    state.withLock { $0.clientSettings.setLineSpeed(bitsPerSecond) }
  }

  // MARK: The device's side

  /// The client's terminal settings.
  var clientSettings: TerminalAttributes { state.withLock { $0.clientSettings } }

  /// Admits `byteCount` bytes as the terminal does (see `SerialDevice.admit(byteCount:)`).
  func admit(byteCount: Int, clientOpen: Bool) -> SinkAdmission {
    guard clientOpen else { return .noReader }
    let unread = unreadByteCount
    let capacity = state.withLock { min($0.room, SerialDevice.unreadCapacity) }
    return SerialDevice.admission(of: byteCount, unread: unread, room: capacity)
  }

  /// Keeps what the client's queue has room for of `bytes`; returns how many.
  func write(_ bytes: ArraySlice<UInt8>) -> Int {
    state.withLock { state in
      let taken = bytes.prefix(max(0, state.room - state.unread.count))
      state.unread.append(contentsOf: taken)
      return taken.count
    }
  }

  /// Calls `ready` once when the client's queue has room again (the test read or gave room)
  /// or the client left; replaces a wait in progress. Room made between the write that found
  /// none and this call is not missed: `ready` is called at once, as a terminal's writable
  /// readiness (level-triggered) would report it.
  func waitForRoom(_ ready: @escaping @Sendable () -> Void) -> any RoomWaiting {
    let wait = Wait(line: self)
    let roomNow = state.withLock { state -> Bool in
      state.roomWait = nil
      guard state.unread.count >= state.room else { return true }
      state.roomWait = (wait, ready)
      return false
    }
    if roomNow { ready() }
    return wait
  }

  /// The client opened: it finds nothing unread.
  func clientOpened() {
    state.withLock { $0.unread.removeAll() }
  }

  /// The client left: what it left unread and wrote is gone, its terminal goes back to
  /// `settings`, and a wait for room ends.
  func clientLeft(settings: TerminalAttributes) {
    let ready = state.withLock { state -> (@Sendable () -> Void)? in
      state.unread.removeAll()
      state.input.removeAll()
      state.clientSettings = settings
      return state.roomWait.take()?.ready
    }
    ready?()
  }

  /// Queues what the client wrote, for `nextInput`.
  func clientWrote(_ bytes: [UInt8]) {
    state.withLock { $0.input.append(contentsOf: bytes) }
  }

  /// Whether the calling thread is to hand the client's input to the device: false while
  /// another does (it hands over what comes meanwhile too).
  func startDelivering() -> Bool {
    state.withLock { state in
      guard !state.delivering else { return false }
      state.delivering = true
      return true
    }
  }

  /// The next chunk of the client's input for the thread that `startDelivering()`; nil (and
  /// the delivery over) when there is none or `isHeld()`, asked under the line's lock so that
  /// an input released meanwhile is handed over by the one who released it.
  func nextInput(unless isHeld: () -> Bool) -> ArraySlice<UInt8>? {
    state.withLock { state in
      guard !isHeld(), !state.input.isEmpty else {
        state.delivering = false
        return nil
      }
      let chunk = Array(state.input.prefix(Self.inputChunkCapacity))
      state.input.removeFirst(chunk.count)
      return chunk[...]
    }
  }

  /// The ready callback of a wait for room, taken, when the client's queue has room.
  private static func takeWaitIfRoom(_ state: inout State) -> (@Sendable () -> Void)? {
    guard state.unread.count < state.room else { return nil }
    return state.roomWait.take()?.ready
  }
}
