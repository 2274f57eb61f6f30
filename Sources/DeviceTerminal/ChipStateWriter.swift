import Synchronization
import SystemIO

/// The process's one thread that writes state files: a chip's save hands its file over and
/// returns, and the write with its `fsync` (tens of milliseconds on a busy disk) happens here,
/// away from the I/O thread that serves every device.
final class ChipStateWriter: Sendable {
  private let thread: StoppableThread
  /// Files with a text waiting, in the order they were saved.
  private let queue = Mutex<[ChipStateFile]>([])

  /// The writer, started on first use; nil when no thread could be started (files are then
  /// written by the caller).
  static let shared: ChipStateWriter? = try? ChipStateWriter()

  private init() throws(SystemError) {
    thread = try StoppableThread(name: "mockgps-state")
    try thread.start { [self] in run() }
  }

  /// Has `file`'s waiting text written soon.
  func enqueue(_ file: ChipStateFile) {
    queue.withLock { queue in
      if !queue.contains(where: { $0 === file }) { queue.append(file) }
    }
    thread.wake()
  }

  private func run() {
    while thread.shouldRun {
      let files = queue.withLock { queue in
        defer { queue.removeAll() }
        return queue
      }
      for file in files { file.writePending() }
      if files.isEmpty { _ = thread.wait(for: [], timeoutMilliseconds: -1) }
    }
  }
}
