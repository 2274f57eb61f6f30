import Geodesy
import Glibc
import NMEA
import Simulation

/// GST and GNS: the error statistics and the combined fix data of newer dialects.
extension EpochEncoder {
  /// GST from the fix's DOPs times the dialect's user range error (or that of the corrections
  /// the fix used).
  ///
  /// The RMS of the range residuals is the user range error itself; σ latitude, longitude and
  /// altitude are the north, east and vertical DOP times it; the error ellipse comes from the
  /// horizontal covariance `[[east², c], [c, north²]] · UERE²` (c the east-north cofactor): its
  /// axes are the square roots of the eigenvalues and its orientation is the major axis's
  /// direction, degrees clockwise from true north. Without a fix or DOPs the fields are empty.
  func gst(_ f: EpochFields, talker: String) -> GST {
    var gst = GST()
    gst.talker = talker
    gst.time = f.time
    guard let errors = PositionErrors(f, dialect: dialect) else { return gst }
    gst.rangeRMS = errors.meters(1)
    gst.semiMajorDeviation = errors.meters(errors.ellipse.semiMajor)
    gst.semiMinorDeviation = errors.meters(errors.ellipse.semiMinor)
    gst.orientation = EpochFields.angle(errors.ellipse.orientationDegrees, fractionDigits: 1)
    gst.latitudeDeviation = errors.latitude
    gst.longitudeDeviation = errors.longitude
    gst.altitudeDeviation = errors.altitude
    return gst
  }

  /// GNS: the fix with one mode character per tracked system (GPS, GLONASS, Galileo, BeiDou),
  /// the satellites used by all of them, and the navigational status from 4.10 on.
  func gns(_ f: EpochFields, _ sky: EpochSky, talker: String) -> GNS {
    var gns = GNS()
    gns.talker = talker
    gns.time = f.time
    gns.latitude = f.latitude
    gns.longitude = f.longitude
    gns.mode = sky.systems.map { sky.used(of: $0).isEmpty ? "N" : f.modeIndicator }.joined()
    gns.satellitesUsed = NMEADecimal(integer: sky.used.count, width: 2)
    gns.hdop = f.hdop
    gns.altitude = f.altitude
    gns.geoidSeparation = f.geoidSeparation
    gns.differentialAge = f.correctionAge
    gns.differentialStation = f.correctionStation
    if dialect.version >= .v410 { gns.navigationalStatus = dialect.navigationalStatus }
    return gns
  }
}

/// The 1σ errors of a fix, meters, as GST and GBS write them: the DOPs times the dialect's user
/// range error, or that of the corrections the fix used.
struct PositionErrors {
  let dop: DilutionOfPrecision
  let ellipse: ErrorEllipse
  /// The user range error, meters.
  let rangeMeters: Double

  /// Nil without a fix, without DOPs or with DOPs that are not finite.
  init?(_ f: EpochFields, dialect: NMEADialect) {
    guard f.hasFix, let dop = f.fix.dop, let ellipse = ErrorEllipse(dop: dop) else { return nil }
    self.dop = dop
    self.ellipse = ellipse
    rangeMeters = f.fix.corrections?.rangeErrorMeters ?? dialect.userRangeErrorMeters
  }

  /// A figure in DOP units as meters with one decimal, at most 999.9.
  func meters(_ value: Double) -> NMEADecimal {
    NMEADecimal(min(value * rangeMeters, 999.9), fractionDigits: 1)
  }

  var latitude: NMEADecimal { meters(dop.north) }
  var longitude: NMEADecimal { meters(dop.east) }
  var altitude: NMEADecimal { meters(dop.vertical) }
}

/// The horizontal error ellipse of a geometry, in DOP units (multiply by the range error).
struct ErrorEllipse {
  let semiMajor: Double
  let semiMinor: Double
  /// The major axis, degrees clockwise from north.
  let orientationDegrees: Double

  /// Nil when the DOPs are not finite.
  init?(dop: DilutionOfPrecision) {
    let east = dop.east * dop.east
    let north = dop.north * dop.north
    // Plus zero: -0.0 becomes 0.0. atan2 tells the two zeros apart (an orientation of 90 or 270
    // degrees for a circle stretched east), and equal fixes must write equal text
    // (`EpochTextMemo` keeps an epoch for a fix equal but for its time).
    let cross = dop.eastNorthCofactor + 0.0
    guard east.isFinite, north.isFinite, cross.isFinite else { return nil }
    let mean = (east + north) / 2
    let radius = (((east - north) / 2) * ((east - north) / 2) + cross * cross).squareRoot()
    semiMajor = (mean + radius).squareRoot()
    semiMinor = max(0, mean - radius).squareRoot()
    orientationDegrees = 0.5 * atan2(2 * cross, north - east) * 180 / Double.pi
  }
}
