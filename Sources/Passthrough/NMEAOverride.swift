import Wire

/// Rewrites one NMEA sentence under an override: its positions (every sentence
/// `NMEASentenceLayout` lists, for every talker); wherever a position moves, its heights (the
/// altitude above mean sea level when it is replaced, the height above the ellipsoid and the
/// geoid separation from EGM96 at the new place); and the motion of the sentences
/// `NMEAMotionOverride` lists when it is overridden.
///
/// A sentence that says it has no fix keeps its position and motion; a position at exactly
/// 0° 0° keeps its heights; empty fields stay empty; the checksum is recomputed in the received
/// letter case.
enum NMEAOverride {
  /// What became of a sentence.
  enum Outcome: Equatable {
    /// Nothing to rewrite: forward it as received.
    case unchanged
    /// The sentence to forward instead.
    case rewritten([UInt8])
    /// A sentence that carries a position or motion but did not parse (bad checksum, a
    /// malformed field): forward it as received, and count it.
    case unparsed
  }

  /// The sentence rewritten, unchanged, or unparsed.
  static func rewrite(
    _ bytes: [UInt8], mapping: inout OverrideMapping, motion: OverriddenMotion?
  ) -> Outcome {
    guard var sentence = NMEASentenceText(bytes) else {
      return carriesPosition(bytes) ? .unparsed : .unchanged
    }
    let entry = NMEASentenceLayout.entry(of: sentence)
    let key = entry?.key ?? talkerFormatter(sentence.address)
    let hasFix = !(entry?.layout.saysNoFix(sentence) ?? false) && !vtgSaysNoFix(sentence, key)
    guard hasFix else { return .unchanged }
    if let layout = entry?.layout, !layout.positions.isEmpty,
      mapping.movesWaypoints || !isWaypoint(key)
    {
      guard movePositions(of: &sentence, layout: layout, key: key, mapping: &mapping) else {
        return .unparsed
      }
    }
    if let motion, !NMEAMotionOverride.apply(motion, to: &sentence, key: key) {
      return .unparsed
    }
    let rewritten = sentence.bytes
    return rewritten == bytes ? .unchanged : .rewritten(rewritten)
  }

  /// Moves the positions of a sentence, and its heights where one moved; false when a field is
  /// malformed.
  private static func movePositions(
    of sentence: inout NMEASentenceText, layout: NMEASentenceLayout, key: String,
    mapping: inout OverrideMapping
  ) -> Bool {
    if let field = layout.geoidSeparation, let separation = NMEANumberField(sentence[field]) {
      mapping.geoidSeparationMeters = separation.value
    }
    var optional: OverrideMapping? = mapping
    guard
      let count = NMEASentenceRewriter.movePositions(
        of: &sentence, layout: layout, mover: &optional),
      let moved = optional
    else { return false }
    if isWaypoint(key) {
      // A waypoint is not where the receiver is: the last real position and its heights stay.
      let (lastReal, lastMove) = (mapping.lastReal, mapping.lastMove)
      mapping = moved
      (mapping.lastReal, mapping.lastMove) = (lastReal, lastMove)
      return true
    }
    mapping = moved
    guard count > 0 else { return true }
    return moveHeights(of: &sentence, layout: layout, mapping: mapping)
  }

  /// The heights of a sentence whose position moved: the altitude above mean sea level becomes
  /// the replaced one (or stays), the height above the ellipsoid follows it with EGM96's
  /// separation at the new place, and so does the geoid separation field (gpsd adds it to the
  /// altitude for altHAE).
  private static func moveHeights(
    of sentence: inout NMEASentenceText, layout: NMEASentenceLayout, mapping: OverrideMapping
  ) -> Bool {
    guard let place = mapping.lastMove?.to else { return true }
    if let field = layout.meanSeaLevelAltitude, let altitude = mapping.replacedAltitude {
      guard sentence.replaceNumber(field, with: altitude) else { return false }
    }
    if let field = layout.ellipsoidHeight, !sentence[field].isEmpty {
      guard let real = NMEANumberField(sentence[field]) else { return false }
      sentence.set(field, real.written(mapping.movedHeight(real.value)))
    }
    if let field = layout.geoidSeparation {
      return sentence.replaceNumber(field, with: OverrideMapping.separation(at: place))
    }
    return true
  }

  /// True for a `$` sentence whose formatter carries a position or motion.
  static func carriesPosition(_ bytes: [UInt8]) -> Bool {
    guard bytes.first == UInt8(ascii: "$") else { return false }
    let address = bytes.dropFirst().prefix { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "*") }
    if address.first == UInt8(ascii: "P") {
      let rest = bytes.dropFirst(address.count + 2)
      let first = rest.prefix { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "*") }
      let keys = [address + [UInt8(ascii: ",")] + first, address]
      let layout = keys.lazy.compactMap {
        NMEASentenceLayout.table[String(decoding: $0, as: UTF8.self)]
      }.first
      return !(layout?.positions.isEmpty ?? true)
    }
    let formatter = talkerFormatter(address)
    return NMEAMotionOverride.carriesMotion(formatter)
      || !(NMEASentenceLayout.table[formatter]?.positions.isEmpty ?? true)
  }

  /// The formatter of a talker sentence's address (`GGA` of `GNGGA`), or "" for a proprietary
  /// or malformed one.
  private static func talkerFormatter(_ address: ArraySlice<UInt8>) -> String {
    guard address.count == 5, address.first != UInt8(ascii: "P") else { return "" }
    return String(decoding: address.suffix(3), as: UTF8.self)
  }

  /// RMB and BWC give a destination waypoint, not the receiver's position: a track moved
  /// moves them too, a position replaced leaves them.
  private static func isWaypoint(_ key: String) -> Bool {
    key == "RMB" || key == "BWC"
  }

  /// VTG's mode field (NMEA 2.3) `N`: no valid data.
  private static func vtgSaysNoFix(_ sentence: NMEASentenceText, _ key: String) -> Bool {
    key == "VTG" && NMEAMotionOverride.vtgSaysNoFix(sentence)
  }
}
