import CMicroHTTPD
import Synchronization

/// One `GET /api/events` stream: epochs' lines queue here from the epoch thread (bounded: a
/// browser that does not read loses lines, counted), and libmicrohttpd's thread takes them
/// through the content reader. With nothing queued the connection is suspended, so an idle
/// stream costs no CPU; a new line resumes it.
final class PanelEventStream: Sendable {
  /// The most bytes queued for a stream before further lines are dropped.
  static let maximumBacklog = 64 << 10

  private struct State {
    var connection = LibraryHandle(nil)
    var pending: [UInt8] = []
    var sentOffset = 0
    var isSuspended = false
    var hasEnded = false
    var linesDropped = 0
    var lastQueuedNanoseconds: Int64 = 0
  }

  private let state: Mutex<State>
  private let closeAction = Mutex<(@Sendable () -> Void)?>(nil)

  /// A stream that starts with `first` (the status event).
  init(first: [UInt8], now: Int64) {
    state = Mutex(State(pending: first, lastQueuedNanoseconds: now))
  }

  /// The connection to suspend and resume; set before the response is queued.
  func attach(_ connection: OpaquePointer?) {
    state.withLock { $0.connection = LibraryHandle(connection) }
  }

  /// Sets what happens once, when the library lets go of the stream's connection.
  func onClose(_ action: @escaping @Sendable () -> Void) {
    closeAction.withLock { $0 = action }
  }

  /// Called by the library's free callback: the connection is gone.
  func closed() {
    finish()
    closeAction.withLock { $0.take() }?()
  }

  /// Lines dropped because the browser did not read them.
  var linesDropped: Int { state.withLock { $0.linesDropped } }

  /// The bytes the stream's queue holds in memory, sent ones not yet let go included.
  var bytesHeld: Int { state.withLock { $0.pending.capacity } }

  /// Queues bytes (whole events), from any thread, without blocking on the network: over the
  /// backlog they are dropped and counted. Returns false when dropped.
  @discardableResult
  func queue(_ bytes: [UInt8], now: Int64) -> Bool {
    state.withLock { state in
      guard !state.hasEnded else { return false }
      guard state.pending.count - state.sentOffset + bytes.count <= Self.maximumBacklog else {
        state.linesDropped += 1
        return false
      }
      if state.sentOffset == state.pending.count {
        state.pending.removeAll(keepingCapacity: true)
        state.sentOffset = 0
      }
      state.pending.append(contentsOf: bytes)
      state.lastQueuedNanoseconds = now
      Self.resumeIfSuspended(&state)
      return true
    }
  }

  /// True when nothing was queued since `nanoseconds`: time for a keepalive.
  func isQuiet(since nanoseconds: Int64) -> Bool {
    state.withLock { $0.lastQueuedNanoseconds <= nanoseconds }
  }

  /// Ends the stream once what is queued is sent.
  func finish() {
    state.withLock { state in
      state.hasEnded = true
      Self.resumeIfSuspended(&state)
    }
  }

  /// libmicrohttpd's content reader: copies queued bytes into `buffer`; with nothing queued,
  /// suspends the connection (until `queue` or `finish` resumes it) and returns 0, or ends the
  /// stream once finished.
  func read(into buffer: UnsafeMutablePointer<CChar>?, capacity: Int) -> Int {
    state.withLock { state in
      let available = state.pending.count - state.sentOffset
      guard available > 0 else {
        if state.hasEnded { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
        state.isSuspended = true
        MHD_suspend_connection(state.connection.pointer)
        return 0
      }
      let count = min(available, capacity)
      let offset = state.sentOffset
      state.pending.withUnsafeBytes { bytes in
        guard let source = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(buffer)?.copyMemory(from: source + offset, byteCount: count)
      }
      state.sentOffset += count
      if state.sentOffset == state.pending.count {
        state.pending.removeAll(keepingCapacity: state.pending.capacity <= 8192)
        state.sentOffset = 0
      } else if state.sentOffset >= Self.maximumBacklog {
        // A browser that reads a little less than comes never empties the queue: what it has
        // read goes now, or the buffer would grow by every byte the stream ever sent.
        state.pending.removeFirst(state.sentOffset)
        state.sentOffset = 0
      }
      return count
    }
  }

  private static func resumeIfSuspended(_ state: inout State) {
    guard state.isSuspended else { return }
    state.isSuspended = false
    MHD_resume_connection(state.connection.pointer)
  }
}
