import Glibc
import Synchronization
import SystemIO

/// Writes a recording's records on a thread of its own, so that the thread that reads the device
/// and stamps each read never waits on the file: a write that blocks (a busy disk, an SD card,
/// the kernel throttling a writer of dirty pages, a pipe nobody reads) would hold back the next
/// read, and the bytes that came meanwhile would be stamped late.
///
/// Nothing is lost: the reader waits only when `maximumQueuedBytes` are queued (then the file
/// is that far behind, and timing is already lost). A failed write (a full disk) ends the
/// writing; the reader learns it at its next record and stops.
final class RecordingWriter: Sendable {
  /// The most bytes queued before the reader waits for the file.
  static let maximumQueuedBytes = 16 << 20

  private struct Queue {
    var records: [[UInt8]] = []
    var byteCount = 0
    var failure: SystemError?
  }

  private let output: FileDescriptor
  private let queue = Mutex(Queue())
  private let thread: StoppableThread

  /// Starts the thread that writes to `output`, which it owns from now on.
  init(output: consuming FileDescriptor) throws(SystemError) {
    self.output = output
    thread = try StoppableThread(name: "mockgps-record")
    try thread.start { [self] in run() }
  }

  /// Hands `record` over to be written; returns the failure of an earlier write instead, once
  /// there is one. Waits while the queue is full.
  func enqueue(_ record: [UInt8]) -> SystemError? {
    while true {
      let (failure, queued) = queue.withLock { queue -> (SystemError?, Bool) in
        if let failure = queue.failure { return (failure, false) }
        guard queue.byteCount < Self.maximumQueuedBytes else { return (nil, false) }
        queue.records.append(record)
        queue.byteCount += record.count
        return (nil, true)
      }
      if let failure { return failure }
      if queued {
        thread.wake()
        return nil
      }
      usleep(1_000)
    }
  }

  /// Writes what is queued, ends the thread, and returns the failure of a write, if any.
  func finish() -> SystemError? {
    thread.stop()
    return queue.withLock { $0.failure }
  }

  private func run() {
    while true {
      let records = queue.withLock { queue in
        defer { queue.records.removeAll(keepingCapacity: true) }
        return queue.records
      }
      if records.isEmpty {
        guard thread.shouldRun else { return }
        _ = thread.wait(for: [], timeoutMilliseconds: -1)
        continue
      }
      for record in records {
        do {
          try Self.writeAll(record, to: output)
        } catch {
          queue.withLock { $0.failure = error }
          return
        }
        queue.withLock { $0.byteCount -= record.count }
      }
    }
  }

  /// Writes all of `bytes` to a file: one `write`, unless the kernel takes less.
  static func writeAll(_ bytes: [UInt8], to file: borrowing FileDescriptor) throws(SystemError) {
    var start = 0
    while start < bytes.count {
      guard case .transferred(let count) = try file.write(bytes[start...]), count > 0 else {
        throw SystemError("write recording", errno: ENOSPC)
      }
      start += count
    }
  }
}
