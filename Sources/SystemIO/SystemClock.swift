import Glibc

/// The system clocks: UTC (`CLOCK_REALTIME`) for epochs, monotonic for intervals and sleeps.
public enum SystemClock {
  /// Nanoseconds since the Unix epoch.
  ///
  /// The corresponding C function is `clock_gettime(2)` with `CLOCK_REALTIME`.
  public static func nanosecondsSinceEpoch() -> Int64 {
    nanoseconds(CLOCK_REALTIME)
  }

  /// Nanoseconds on the monotonic clock, which no one can set: for intervals and deadlines
  /// that a step of the system clock must not stretch.
  ///
  /// The corresponding C function is `clock_gettime(2)` with `CLOCK_MONOTONIC`.
  public static func monotonicNanoseconds() -> Int64 {
    nanoseconds(CLOCK_MONOTONIC)
  }

  private static func nanoseconds(_ clock: clockid_t) -> Int64 {
    var now = timespec()
    clock_gettime(clock, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }

  /// CPU time this process has used, user plus system, in nanoseconds.
  ///
  /// The corresponding C function is `getrusage(2)`.
  public static func processCPUNanoseconds() -> Int64 {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Int64(usage.ru_utime.tv_sec) * 1_000_000_000 + Int64(usage.ru_utime.tv_usec) * 1000
    let system =
      Int64(usage.ru_stime.tv_sec) * 1_000_000_000 + Int64(usage.ru_stime.tv_usec) * 1000
    return user + system
  }
}
