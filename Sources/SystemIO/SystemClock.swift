import Glibc

/// The system clocks: UTC (`CLOCK_REALTIME`) for epochs, monotonic for intervals, and absolute
/// sleeps on both.
public enum SystemClock {
  /// Nanoseconds since the Unix epoch.
  ///
  /// The corresponding C function is `clock_gettime(2)` with `CLOCK_REALTIME`.
  public static func nanosecondsSinceEpoch() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }

  /// Sleeps until the clock reads `deadline` (nanoseconds since the epoch), resuming after
  /// signals. Returns at once when the deadline has passed.
  ///
  /// The corresponding C function is `clock_nanosleep(2)` with `TIMER_ABSTIME`: the wake-up is
  /// tied to the deadline itself, so time spent before the call does not add up.
  public static func sleep(untilNanosecondsSinceEpoch deadline: Int64) {
    sleep(CLOCK_REALTIME, until: deadline)
  }

  /// Nanoseconds on the monotonic clock, which no one can set: for intervals.
  ///
  /// The corresponding C function is `clock_gettime(2)` with `CLOCK_MONOTONIC`.
  public static func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }

  /// Sleeps until the monotonic clock reads `deadline`, resuming after signals.
  public static func sleep(untilMonotonicNanoseconds deadline: Int64) {
    sleep(CLOCK_MONOTONIC, until: deadline)
  }

  private static func sleep(_ clock: clockid_t, until deadline: Int64) {
    var target = timespec(
      tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    while clock_nanosleep(clock, TIMER_ABSTIME, &target, nil) == EINTR {}
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
