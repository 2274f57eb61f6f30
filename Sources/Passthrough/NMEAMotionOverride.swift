import NMEA
import Wire

#if canImport(Glibc)
  import Glibc
#endif

/// Writes an overridden motion into the NMEA sentences that carry one, field by field as gpsd
/// 3.22's `driver_nmea0183.c` reads them: RMC, VTG, `$PASHR,POS`, `$PUBX,00` and `$PSTI,030`.
/// Empty fields stay empty; a course stays the receiver's when the motion sets none.
enum NMEAMotionOverride {
  /// Where a sentence writes its motion (fields numbered from 1 after the address).
  struct Fields {
    /// Speeds over ground in knots.
    var knots: [Int] = []
    /// Speeds over ground in km/h.
    var kilometersPerHour: [Int] = []
    /// Course over ground, degrees true.
    var course: Int?
    /// Vertical speed in m/s, and whether it is positive downwards.
    var climb: (field: Int, downwards: Bool)?
    /// Velocity east, north and up in m/s.
    var eastNorthUp: (east: Int, north: Int, up: Int)?
  }

  /// The sentences with a motion, keyed as `NMEASentenceLayout.table` (VTG, whose fields move
  /// with its form, is apart). RMC's fields are numbered by NMEA's `SentenceSpec`.
  static let table: [String: Fields] = [
    "RMC": Fields(
      knots: [RMC.spec.knownFieldNumber(of: \.speedKnots)],
      course: RMC.spec.knownFieldNumber(of: \.course)),
    "PASHR,POS": Fields(kilometersPerHour: [12], course: 11, climb: (13, false)),
    "PUBX,00": Fields(kilometersPerHour: [11], course: 12, climb: (13, true)),
    "PSTI,030": Fields(eastNorthUp: (9, 10, 11)),
  ]

  /// True when `key` names a sentence with a motion.
  static func carriesMotion(_ key: String) -> Bool {
    key == "VTG" || table[key] != nil
  }

  /// Writes `motion` into the sentence `key` names; false when a field to write is malformed.
  static func apply(_ motion: OverriddenMotion, to sentence: inout NMEASentenceText, key: String)
    -> Bool
  {
    if key == "VTG" { return overrideVTG(&sentence, motion) }
    guard let fields = table[key] else { return true }
    for field in fields.knots where !sentence.replaceNumber(field, with: motion.speedKnots) {
      return false
    }
    for field in fields.kilometersPerHour
    where !sentence.replaceNumber(field, with: motion.speedKilometersPerHour) {
      return false
    }
    if let field = fields.course, let course = motion.courseDegrees {
      guard sentence.replaceNumber(field, with: course) else { return false }
    }
    if let climb = fields.climb {
      let value = climb.downwards ? -motion.climbMetersPerSecond : motion.climbMetersPerSecond
      guard sentence.replaceNumber(climb.field, with: value) else { return false }
    }
    if let velocity = fields.eastNorthUp {
      return overrideEastNorthUp(&sentence, motion, velocity)
    }
    return true
  }

  /// East, north, up velocities: along the motion's course, or the real one when it sets none.
  private static func overrideEastNorthUp(
    _ sentence: inout NMEASentenceText, _ motion: OverriddenMotion,
    _ fields: (east: Int, north: Int, up: Int)
  ) -> Bool {
    var courseDegrees = motion.courseDegrees ?? 0
    if motion.courseDegrees == nil, let east = NMEANumberField(sentence[fields.east]),
      let north = NMEANumberField(sentence[fields.north])
    {
      courseDegrees = atan2(east.value, north.value) * 180 / .pi
    }
    let course = courseDegrees * .pi / 180
    let speed = motion.speedMetersPerSecond
    return sentence.replaceNumber(fields.east, with: speed * sin(course))
      && sentence.replaceNumber(fields.north, with: speed * cos(course))
      && sentence.replaceNumber(fields.up, with: motion.climbMetersPerSecond)
  }

  /// VTG's fields in NMEA 2.x, `course,T,course,M,knots,N,kmh,K,mode`, as NMEA's
  /// `SentenceSpec` numbers them.
  private static let vtg = (
    trueCourse: VTG.spec.knownFieldNumber(of: \.courseTrue),
    trueCourseUnit: VTG.spec.knownFieldNumber(of: \.courseTrueUnit),
    magnetic: VTG.spec.knownFieldNumber(of: \.courseMagnetic),
    knots: VTG.spec.knownFieldNumber(of: \.speedKnots),
    kilometers: VTG.spec.knownFieldNumber(of: \.speedKilometersPerHour),
    mode: VTG.spec.knownFieldNumber(of: \.mode)
  )

  /// VTG's mode field (NMEA 2.3) `N`: no valid data.
  static func vtgSaysNoFix(_ sentence: NMEASentenceText) -> Bool {
    sentence[vtg.mode].elementsEqual("N".utf8)
  }

  /// VTG: `course,T,course,M,knots,N,kmh,K` (NMEA 2.x), or `course,course,knots,kmh` (the
  /// older form without unit letters). The magnetic course turns by as much as the true one.
  private static func overrideVTG(_ sentence: inout NMEASentenceText, _ motion: OverriddenMotion)
    -> Bool
  {
    let lettered = sentence[vtg.trueCourseUnit].elementsEqual("T".utf8)
    let (trueCourse, magnetic, knots, kilometers) =
      lettered ? (vtg.trueCourse, vtg.magnetic, vtg.knots, vtg.kilometers) : (1, 2, 3, 4)
    guard sentence.replaceNumber(knots, with: motion.speedKnots),
      sentence.replaceNumber(kilometers, with: motion.speedKilometersPerHour)
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
}
