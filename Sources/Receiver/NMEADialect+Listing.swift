import Simulation

extension NMEADialect {
  /// How this dialect's GSV lists a satellite: the number it writes for it and the talker of
  /// its GSV group; nil when the dialect cannot write it (Galileo and BeiDou before NMEA 4.10).
  public func gsvListing(_ satellite: SatelliteInView) -> (number: Int, talker: String)? {
    nmeaNumber(satellite).map { ($0, systemTalker(satellite.constellation)) }
  }
}
