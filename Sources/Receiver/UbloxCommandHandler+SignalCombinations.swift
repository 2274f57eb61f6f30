import UBX

/// The signal combinations a u-blox 9 can track, which the ZED-F9P integration manual lists
/// (GNSS signal configuration): each system's second signal only with its first (GPS L2C with
/// L1C/A, GLONASS L2 with L1, Galileo E5b with E1, BeiDou B2I with B1I), and an enabled system
/// with its first signal. A CFG-VALSET or a legacy CFG-GNSS that would leave another
/// combination is refused, nothing applied.
extension UbloxCommandHandler {
  /// True when the `CFG-SIGNAL-*` values `value` gives (RAM as it would be) are a combination
  /// the chip tracks, per system of `signalKeys`.
  static func allowsSignals(_ value: (UBXConfigurationKey) -> UInt64) -> Bool {
    signalKeys.allSatisfy { keys in
      let signals = keys.signals.map { value(UBXConfigurationKey($0)) != 0 }
      guard let first = signals.first else { return true }
      let enabled = value(UBXConfigurationKey(keys.enable)) != 0
      return first || (!signals.dropFirst().contains(true) && !enabled)
    }
  }

  /// The RAM value of a key in `database`, its default when RAM does not hold it.
  static func ramValue(_ key: UBXConfigurationKey, in database: UbloxConfigurationDatabase)
    -> UInt64
  {
    database.ram[key] ?? catalogue.definition(of: key)?.defaultValue ?? 0
  }
}
