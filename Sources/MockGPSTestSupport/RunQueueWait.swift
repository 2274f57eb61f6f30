import Glibc

/// The time the threads of a process have waited for a CPU while runnable: the second field of
/// each `/proc/PID/task/TID/schedstat`, summed over its threads.
///
/// A SCHED_FIFO thread waits too: for a SCHED_FIFO thread of equal priority in another process
/// that does not block (a test beside it with an epoch thread busy for tens of milliseconds),
/// or for both CPUs while higher priorities hold them. `StealWatch` notes such waits of the
/// processes a test names, as it notes the hypervisor's steal.
enum RunQueueWait {
  /// The waiting of `process`'s threads since each started, in nanoseconds, by thread id; empty
  /// once the process is gone.
  static func nanosecondsByThread(of process: Int32) -> [Int32: Int64] {
    guard let directory = opendir("/proc/\(process)/task") else { return [:] }
    defer { closedir(directory) }
    var waits: [Int32: Int64] = [:]
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let thread = Int32(name), let wait = waitedNanoseconds(process, thread) else {
        continue
      }
      waits[thread] = wait
    }
    return waits
  }

  /// The second field of one thread's schedstat ("run time, wait, time slices").
  private static func waitedNanoseconds(_ process: Int32, _ thread: Int32) -> Int64? {
    guard let file = fopen("/proc/\(process)/task/\(thread)/schedstat", "r") else { return nil }
    defer { fclose(file) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let count = fread(&buffer, 1, buffer.count, file)
    let fields = String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: " ")
    return fields.count > 1 ? Int64(fields[1]) : nil
  }
}
