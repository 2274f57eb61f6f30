/// UBX-CFG-NAV5's apply mask: a setting changes only the fields whose mask bit is set.
///
///     mask X2 | dynModel U1 | fixMode U1 | fixedAlt I4 | fixedAltVar U4 | minElev I1 |
///     drLimit U1 | pDop U2 | tDop U2 | pAcc U2 | tAcc U2 | staticHoldThresh U1 |
///     dgnssTimeout U1 | cnoThreshNumSVs U1 | cnoThresh U1 | reserved U1[2] |
///     staticHoldMaxDist U2 | utcStandard U1 | reserved U1[5]                       (36 bytes)
public enum UBXNavigationEngineSettings {
  /// A group of fields one mask bit applies: their offsets and widths.
  struct Group {
    var bit: Int
    var fields: [(offset: Int, width: Int)]
  }

  /// The payload length.
  public static let length = 36
  /// The mask bits the receiver description defines (dyn, minEl, posFixMode, drLim, posMask,
  /// timeMask, staticHoldMask, dgpsMask, cnoThreshold, utc); a poll reports them all set.
  public static let definedMask: UInt16 = 0x05FF

  /// Mask bit → fields, per the receiver description.
  static let groups: [Group] = [
    Group(bit: 0, fields: [(2, 1)]),  // dynModel
    Group(bit: 1, fields: [(12, 1)]),  // minElev
    Group(bit: 2, fields: [(3, 1), (4, 4), (8, 4)]),  // fixMode, fixedAlt, fixedAltVar
    Group(bit: 3, fields: [(13, 1)]),  // drLimit
    Group(bit: 4, fields: [(14, 2), (18, 2)]),  // pDop, pAcc
    Group(bit: 5, fields: [(16, 2), (20, 2)]),  // tDop, tAcc
    Group(bit: 6, fields: [(22, 1), (28, 2)]),  // staticHoldThresh, staticHoldMaxDist
    Group(bit: 7, fields: [(23, 1)]),  // dgnssTimeout
    Group(bit: 8, fields: [(24, 1), (25, 1)]),  // cnoThreshNumSVs, cnoThresh
    Group(bit: 10, fields: [(30, 1)]),  // utcStandard
  ]

  /// The ranges of the fields a mask bit applies (dynamic models 0 and 2–10, fix modes 1–3,
  /// the UTC standards of protocol 18), checked only when their bit is set.
  public static let rules: [Int: UBXFieldRule] = [
    0: UBXFieldRule("dynModel", offset: 2, allowed: [0...0, 2...10]),
    2: UBXFieldRule("fixMode", offset: 3, allowed: [1...3]),
    10: UBXFieldRule("utcStandard", offset: 30, allowed: [0...0, 3...3, 5...7]),
  ]

  /// `current` with the fields of `setting` whose mask bit is set; the mask of the result is
  /// `definedMask`.
  ///
  /// - Throws: `UBXConfigurationError` for a length other than 36 or an applied field out of
  ///   its range.
  public static func merge(_ current: [UInt8], with setting: [UInt8])
    throws(UBXConfigurationError) -> [UInt8]
  {
    guard setting.count == length, current.count == length else {
      throw .wrongLength(.cfgNAV5, count: setting.count)
    }
    let mask = Int(setting[0]) | Int(setting[1]) << 8
    var merged = current
    for group in groups where mask & (1 << group.bit) != 0 {
      try rules[group.bit]?.check(setting, in: .cfgNAV5)
      for field in group.fields {
        merged.replaceSubrange(
          field.offset..<(field.offset + field.width),
          with: setting[field.offset..<(field.offset + field.width)])
      }
    }
    merged[0] = UInt8(truncatingIfNeeded: definedMask)
    merged[1] = UInt8(truncatingIfNeeded: definedMask >> 8)
    return merged
  }
}
