/// The GLONASS frequency channels: each satellite broadcasts its FDMA signals on the channel k
/// (−7…6) of its orbital slot, L1 at 1602 + 0.5625 k MHz and L2 at 1246 + 0.4375 k MHz
/// (GLONASS ICD 5.1, 3.3.1.4).
public enum GLONASSChannels {
  /// The channel of each orbital slot 1–24, as GLONASS-IAC publishes it (antipodal slots share
  /// a channel).
  static let bySlot: [Int] = [
    1, -4, 5, 6, 1, -4, 5, 6, -2, -7, 0, -1, -2, -7, 0, -1, 4, -3, 3, 2, 4, -3, 3, 2,
  ]

  /// The channel of orbital slot `slot`, nil for a slot without a published channel.
  public static func channel(ofSlot slot: Int) -> Int? {
    (1...bySlot.count).contains(slot) ? bySlot[slot - 1] : nil
  }
}
