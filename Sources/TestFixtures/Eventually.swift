import Glibc

/// Bounded waiting for a condition that another thread or process makes true.
public enum Eventually {
  /// Checks `condition` every `intervalMicroseconds` until it holds or `seconds` have passed;
  /// returns whether it held. A loaded machine gets the whole bound, an idle one returns early.
  public static func holds(
    within seconds: Double, intervalMicroseconds: UInt32 = 2_000, _ condition: () -> Bool
  ) -> Bool {
    let deadline = monotonicNanoseconds() + Int64(seconds * 1e9)
    while !condition() {
      guard monotonicNanoseconds() < deadline else { return condition() }
      usleep(intervalMicroseconds)
    }
    return true
  }

  /// CLOCK_MONOTONIC in nanoseconds: the one clock tests measure waits with.
  public static func monotonicNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}
