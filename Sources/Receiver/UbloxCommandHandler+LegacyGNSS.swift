import UBX

/// On u-blox 9, the legacy CFG-GNSS is a view of the `CFG-SIGNAL-*` keys, their one source of
/// truth: a poll reports each block of a system the sky has with the enable bit of its `_ENA`
/// key and the `sigCfgMask` bits of its signal keys (`signalKeys`), and a setting is checked
/// against that view, so that a client's poll, change and write back round-trips. Channel
/// counts and the blocks of other systems are stored as sent.
extension UbloxCommandHandler {
  /// `gnss` with the enable bit and the modelled `sigCfgMask` bits of each block of a system
  /// of `signalKeys` set from the current key values.
  func signalView(of gnss: UBXGNSSConfiguration) -> UBXGNSSConfiguration {
    var view = gnss
    for index in view.blocks.indices {
      guard let system = Self.constellation(gnssID: view.blocks[index].gnssID),
        let keys = Self.signalKeys.first(where: { $0.system == system })
      else { continue }
      let isSet = { (key: UInt32) in value(of: UBXConfigurationKey(key)) ?? 0 != 0 }
      var flags = view.blocks[index].flags & ~1
      if isSet(keys.enable) { flags |= 1 }
      for (key, bit) in zip(keys.signals, keys.maskBits) {
        flags &= ~(bit << 16)
        if isSet(key) { flags |= bit << 16 }
      }
      view.blocks[index].flags = flags
    }
    return view
  }

  /// The CFG-GNSS the chip reports: on u-blox 9 the view of the signal keys over what was
  /// stored, elsewhere what was stored.
  func reportedSystems(_ stored: [UInt8]?) -> [UInt8]? {
    guard firmware.hasConfigurationDatabase,
      let gnss = stored.flatMap(UBXGNSSConfiguration.init(payload:))
    else { return stored }
    return signalView(of: gnss).payload
  }
}
