/// The phase range lock time indicators of MSM (RTCM 10403.3, Tables 3.5-74 and 3.5-75): how
/// long the carrier has been tracked without interruption, on a logarithmic scale.
public enum MSMLockTime {
  /// The 4-bit indicator of MSM1–MSM5 (DF402): 0 below 32 ms, then i for at least 2^(i+4) ms,
  /// 15 from 524,288 ms.
  public static func indicator(milliseconds: Int) -> Int {
    guard milliseconds >= 32 else { return 0 }
    let log2 = Int.bitWidth - 1 - milliseconds.leadingZeroBitCount
    return min(15, log2 - 4)
  }

  /// The shortest lock time, milliseconds, a DF402 indicator stands for.
  public static func minimumMilliseconds(indicator: Int) -> Int {
    indicator <= 0 ? 0 : 1 << (min(indicator, 15) + 4)
  }

  /// The 10-bit indicator of MSM6 and MSM7 (DF407): the milliseconds up to 63, then bands of
  /// 32 steps each twice as long as the band before (band k, from 2^(k+5) ms, steps of 2^k ms),
  /// 704 from 67,108,864 ms.
  public static func extendedIndicator(milliseconds: Int) -> Int {
    guard milliseconds >= 64 else { return max(0, milliseconds) }
    guard milliseconds < 67_108_864 else { return 704 }
    let band = Int.bitWidth - 1 - milliseconds.leadingZeroBitCount - 5
    return milliseconds >> band + 32 * band
  }

  /// The shortest lock time, milliseconds, a DF407 indicator stands for.
  public static func minimumMilliseconds(extendedIndicator indicator: Int) -> Int {
    guard indicator >= 64 else { return max(0, indicator) }
    let band = min(indicator, 704) / 32 - 1
    return (min(indicator, 704) - 32 * band) << band
  }
}
