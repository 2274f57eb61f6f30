import Glibc
import Synchronization

/// Writes lines to a descriptor from a thread of its own, so that a reader who stops reading
/// (a stalled pipe on standard error) never blocks the caller: lines wait in a bounded queue,
/// and when it is full new lines are counted and dropped.
public final class QueuedLineWriter: Sendable {
  private struct State {
    var lines: [String] = []
    var writing = false
    var dropped = 0
  }

  /// Lines the queue holds at most.
  public let capacity: Int
  private let descriptor: Int32
  private let state = Mutex(State())
  private let thread: StoppableThread

  /// The process's one writer to standard error, started on first use; nil when no thread could
  /// be started.
  public static let standardError: QueuedLineWriter? = try? QueuedLineWriter(descriptor: 2)

  /// Creates a writer to `descriptor` (not owned: standard error stays open) and starts its
  /// thread, which runs as long as the process.
  public init(descriptor: Int32, capacity: Int = 1000) throws(SystemError) {
    self.descriptor = descriptor
    self.capacity = capacity
    thread = try StoppableThread(name: "mockgps-log")
    try thread.start { [self] in run() }
  }

  /// Lines dropped because the queue was full.
  public var droppedLineCount: Int { state.withLock { $0.dropped } }

  /// Queues a line, without its newline; never blocks.
  public func write(_ line: String) {
    let queued = state.withLock { state in
      guard state.lines.count < capacity else {
        state.dropped += 1
        return false
      }
      state.lines.append(line)
      return true
    }
    if queued { thread.wake() }
  }

  /// Waits up to `timeoutMilliseconds` until every queued line is written; returns whether
  /// they were.
  @discardableResult
  public func flush(timeoutMilliseconds: Int) -> Bool {
    for _ in 0..<max(1, timeoutMilliseconds) {
      if state.withLock({ $0.lines.isEmpty && !$0.writing }) { return true }
      usleep(1000)
    }
    return state.withLock { $0.lines.isEmpty && !$0.writing }
  }

  private func run() {
    while thread.shouldRun {
      let lines = state.withLock { state in
        defer { state.lines.removeAll() }
        state.writing = !state.lines.isEmpty
        return state.lines
      }
      if lines.isEmpty {
        _ = thread.wait(for: [], timeoutMilliseconds: -1)
        continue
      }
      var bytes = Array(lines.joined(separator: "\n").utf8)
      bytes.append(UInt8(ascii: "\n"))
      writeAll(bytes)
      state.withLock { $0.writing = false }
    }
  }

  /// Writes every byte, waiting as long as the reader makes it; gives up on an error.
  private func writeAll(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress, $0.count)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }
}
