import Replay

/// Rewrites one NMEA sentence under an override: its positions (every sentence
/// `NMEASentenceLayout` lists, for every talker), the altitude of GGA and GNS when it is
/// replaced, and the speed and course of RMC and VTG when the motion is overridden.
///
/// A sentence that says it has no fix keeps its position and motion; empty fields stay empty;
/// the checksum is recomputed in the received letter case.
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

  /// Formatters whose motion is overridden.
  private static let motionFormatters: Set<String> = ["RMC", "VTG"]

  /// The sentence rewritten, unchanged, or unparsed.
  static func rewrite(
    _ bytes: [UInt8], mapping: inout OverrideMapping, motion: OverriddenMotion?
  ) -> Outcome {
    guard var sentence = NMEASentenceText(bytes) else {
      return carriesPosition(bytes) ? .unparsed : .unchanged
    }
    let formatter =
      sentence.address.count == 5 ? String(decoding: sentence.address.suffix(3), as: UTF8.self) : ""
    let layout = NMEASentenceLayout.of(sentence)
    let hasFix = !(layout?.saysNoFix(sentence) ?? false) && !vtgSaysNoFix(sentence, formatter)
    guard hasFix else { return .unchanged }
    if let layout, !layout.positions.isEmpty, mapping.movesWaypoints || !isWaypoint(formatter) {
      if formatter == "GGA", let separation = NMEANumberField(sentence[11]) {
        mapping.geoidSeparationMeters = separation.value
      }
      var optional: OverrideMapping? = mapping
      guard NMEASentenceRewriter.movePositions(of: &sentence, layout: layout, mover: &optional),
        let moved = optional
      else { return .unparsed }
      if isWaypoint(formatter) {
        // A waypoint is not where the receiver is: the last real position stays.
        let (lastReal, lastMove) = (mapping.lastReal, mapping.lastMove)
        mapping = moved
        (mapping.lastReal, mapping.lastMove) = (lastReal, lastMove)
      } else {
        mapping = moved
      }
      if let altitude = mapping.replacedAltitude, formatter == "GGA" || formatter == "GNS" {
        guard replace(9, of: &sentence, with: altitude) else { return .unparsed }
      }
    }
    if let motion {
      switch formatter {
      case "RMC":
        guard overrideRMC(&sentence, motion) else { return .unparsed }
      case "VTG":
        guard overrideVTG(&sentence, motion) else { return .unparsed }
      default: break
      }
    }
    let rewritten = sentence.bytes
    return rewritten == bytes ? .unchanged : .rewritten(rewritten)
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
    guard address.count == 5 else { return false }
    let formatter = String(decoding: address.suffix(3), as: UTF8.self)
    return motionFormatters.contains(formatter)
      || !(NMEASentenceLayout.table[formatter]?.positions.isEmpty ?? true)
  }

  /// RMB and BWC give a destination waypoint, not the receiver's position: a track moved
  /// moves them too, a position replaced leaves them.
  private static func isWaypoint(_ formatter: String) -> Bool {
    formatter == "RMB" || formatter == "BWC"
  }

  /// VTG's mode field (NMEA 2.3) `N`: no valid data.
  private static func vtgSaysNoFix(_ sentence: NMEASentenceText, _ formatter: String) -> Bool {
    formatter == "VTG" && sentence[9].elementsEqual("N".utf8)
  }

  /// RMC: speed in knots (field 7), course true (field 8).
  private static func overrideRMC(_ sentence: inout NMEASentenceText, _ motion: OverriddenMotion)
    -> Bool
  {
    guard replace(7, of: &sentence, with: motion.speedKnots) else { return false }
    if let course = motion.courseDegrees {
      return replace(8, of: &sentence, with: course)
    }
    return true
  }

  /// VTG: `course,T,course,M,knots,N,kmh,K` (NMEA 2.x), or `course,course,knots,kmh` (the
  /// older form without unit letters). The magnetic course turns by as much as the true one.
  private static func overrideVTG(_ sentence: inout NMEASentenceText, _ motion: OverriddenMotion)
    -> Bool
  {
    let lettered = sentence[2].elementsEqual("T".utf8)
    let (trueCourse, magnetic, knots, kilometers) = lettered ? (1, 3, 5, 7) : (1, 2, 3, 4)
    guard replace(knots, of: &sentence, with: motion.speedKnots),
      replace(kilometers, of: &sentence, with: motion.speedKilometersPerHour)
    else { return false }
    guard let course = motion.courseDegrees, let real = NMEANumberField(sentence[trueCourse])
    else { return sentence[trueCourse].isEmpty || NMEANumberField(sentence[trueCourse]) != nil }
    let turn = course - real.value
    if let magneticCourse = NMEANumberField(sentence[magnetic]) {
      let turned = (magneticCourse.value + turn).truncatingRemainder(dividingBy: 360)
      sentence.set(magnetic, magneticCourse.written(turned < 0 ? turned + 360 : turned))
    } else if !sentence[magnetic].isEmpty {
      return false
    }
    sentence.set(trueCourse, real.written(course))
    return true
  }

  /// Writes `value` into a numeric field in its shape; an empty field stays empty; false when
  /// the field is malformed.
  private static func replace(_ index: Int, of sentence: inout NMEASentenceText, with value: Double)
    -> Bool
  {
    let field = sentence[index]
    if field.isEmpty { return true }
    guard let number = NMEANumberField(field) else { return false }
    sentence.set(index, number.written(value))
    return true
  }
}
