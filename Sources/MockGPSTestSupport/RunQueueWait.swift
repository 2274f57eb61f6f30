import Glibc

/// The time the real-time threads of a process (SCHED_FIFO or SCHED_RR: those that time
/// mockgps's output and a recording's arrivals) have waited for a CPU while runnable: the second
/// field of each one's `/proc/PID/task/TID/schedstat`. The kernel adds a wait when the thread
/// gets the CPU back, so a wait shows whole, after it ended.
///
/// A SCHED_FIFO thread waits too: for a SCHED_FIFO thread of equal priority in another process
/// that does not block (a test beside it with an epoch thread busy for tens of milliseconds),
/// or for both CPUs while higher priorities hold them. `StealWatch` notes such waits of the
/// processes a test names, as it notes the hypervisor's steal.
public enum RunQueueWait {
  /// The waiting of `process`'s real-time threads (every thread's with `realtimeOnly` false;
  /// only those called `named`, when given) since each started, in nanoseconds, by thread id;
  /// empty once the process is gone.
  static func nanosecondsByThread(
    of process: Int32, realtimeOnly: Bool = true, named: String? = nil
  ) -> [Int32: Int64] {
    guard let directory = opendir("/proc/\(process)/task") else { return [:] }
    defer { closedir(directory) }
    var waits: [Int32: Int64] = [:]
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let thread = Int32(name), !realtimeOnly || isRealtime(process, thread),
        named == nil || threadName(process, thread) == named,
        let wait = waitedNanoseconds(process, thread)
      else {
        continue
      }
      waits[thread] = wait
    }
    return waits
  }

  /// True when the thread's policy (field 41 of its `stat`) is SCHED_FIFO or SCHED_RR.
  private static func isRealtime(_ process: Int32, _ thread: Int32) -> Bool {
    guard let text = read("/proc/\(process)/task/\(thread)/stat"),
      let close = text.lastIndex(of: ")")
    else { return false }
    // After the name in parentheses: field 3 (the state) onwards.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 38, let policy = Int32(fields[38]) else { return false }
    return policy == SCHED_FIFO || policy == SCHED_RR
  }

  /// The thread's name (its `comm`).
  private static func threadName(_ process: Int32, _ thread: Int32) -> String? {
    read("/proc/\(process)/task/\(thread)/comm").map { String($0.prefix { $0 != "\n" }) }
  }

  /// The start of a small file under /proc, or nil.
  private static func read(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var buffer = [UInt8](repeating: 0, count: 1024)
    let count = fread(&buffer, 1, buffer.count, file)
    return String(decoding: buffer.prefix(count), as: UTF8.self)
  }

  /// The kernel's workers for unbound work (`kworker/uN:M`), by process id. What a writer
  /// puts into a pseudo-terminal reaches its reader on one of them (the flip buffer is pushed
  /// to the line discipline by `flush_to_ldisc` on the unbound workqueue), at ordinary
  /// priority: under load, a real-time reader waits for one as long as it waits for a CPU.
  public static func unboundKernelWorkers() -> [Int32] {
    guard let directory = opendir("/proc") else { return [] }
    defer { closedir(directory) }
    var workers: [Int32] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let process = Int32(name), read("/proc/\(process)/comm")?.hasPrefix("kworker/u") == true
      else { continue }
      workers.append(process)
    }
    return workers
  }

  /// The second field of one thread's schedstat ("run time, wait, time slices").
  private static func waitedNanoseconds(_ process: Int32, _ thread: Int32) -> Int64? {
    guard let text = read("/proc/\(process)/task/\(thread)/schedstat") else { return nil }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? Int64(fields[1]) : nil
  }
}
