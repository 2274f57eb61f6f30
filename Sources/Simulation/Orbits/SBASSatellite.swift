import Geodesy

/// A geostationary SBAS satellite: its PRN, the longitude it stands over and the augmentation
/// system it broadcasts for.
///
/// A geostationary satellite stays over one point of the equator, so its ECEF position is
/// fixed: (r cos λ, r sin λ, 0) with r the geostationary orbit's radius. Its elevation and
/// azimuth depend only on where the receiver is.
public struct SBASSatellite: Hashable, Sendable {
  /// The augmentation system a satellite broadcasts for.
  public enum System: String, Hashable, Sendable {
    case waas, egnos, msas, gagan, sdcm, bdsbas, kass, southpan
  }

  /// The radius of the geostationary orbit, meters (42,164 km from the Earth's centre).
  public static let orbitRadiusMeters = 42_164_000.0
  /// The PRNs SBAS may use: 120–158.
  public static let prns: ClosedRange<Int> = 120...158

  /// The PRN, 120–158.
  public var prn: Int
  /// The orbital longitude, degrees east (west negative).
  public var longitudeDegrees: Double
  /// The augmentation system.
  public var system: System

  /// Creates a satellite.
  public init(prn: Int, longitudeDegrees: Double, system: System) {
    self.prn = prn
    self.longitudeDegrees = longitudeDegrees
    self.system = system
  }

  /// The satellite's position, ECEF.
  public var position: EarthCenteredPosition {
    let longitude = longitudeDegrees * NominalConstellation.degree
    return EarthCenteredPosition(
      x: Self.orbitRadiusMeters * orbitCosine(longitude),
      y: Self.orbitRadiusMeters * orbitSine(longitude), z: 0)
  }

  /// Azimuth, elevation and range of the satellite from `observer` (its altitude taken as
  /// height above the ellipsoid).
  public func direction(from observer: GeodeticPosition) -> TopocentricDirection {
    TopocentricDirection(of: position, from: observer)
  }

  /// The geostationary SBAS satellites broadcasting today, by PRN.
  ///
  /// Read on 2026-12-02; the assignments change every few years as satellites are replaced, so
  /// update the table then. Confirmed in the sources read:
  /// - WAAS: Eutelsat 117 West B 117° W PRN 131, Galaxy 30 125° W PRN 135, SES-15 129° W PRN
  ///   133 (the FAA's list of May 2022 as quoted at continuouswave.com, "WAAS Satellite
  ///   Changes", 2023).
  /// - EGNOS: Astra 5B 31.5° E PRN 123, SES-5 5° E PRN 136 (ESA Navipedia, "EGNOS Space
  ///   Segment"; Spirent FAQ18382 on EGNOS service notice 015).
  /// - SDCM 16° W PRN 125 and GAGAN 55° E PRN 127: received near Cologne in September 2018 as
  ///   NMEA 38 and 40 at those positions (naviboard.de, a Garmin Colorado's log of SBAS PRNs).
  ///
  /// Not confirmed in a source read for this table (the commonly published assignments, to be
  /// checked against the operators' notices or a receiver maker's SBAS PRN table): EGNOS
  /// Eutelsat 5 West B 5° W PRN 121 (the GEO-3 payload launched in 2019); MSAS QZS-3 127° E PRN
  /// 137; GAGAN GSAT-10 83° E PRN 128, GSAT-15 93.5° E PRN 132; SDCM Luch-5B 95° E PRN 140,
  /// Luch-4 167° E PRN 141; BDSBAS 80° E PRN 130, 110.5° E PRN 143, 140° E PRN 144; KASS
  /// Koreasat 116° E PRN 134; SouthPAN Inmarsat-4 F1 143.5° E PRN 122.
  public static let operational: [SBASSatellite] = [
    SBASSatellite(prn: 121, longitudeDegrees: -5, system: .egnos),
    SBASSatellite(prn: 122, longitudeDegrees: 143.5, system: .southpan),
    SBASSatellite(prn: 123, longitudeDegrees: 31.5, system: .egnos),
    SBASSatellite(prn: 125, longitudeDegrees: -16, system: .sdcm),
    SBASSatellite(prn: 127, longitudeDegrees: 55, system: .gagan),
    SBASSatellite(prn: 128, longitudeDegrees: 83, system: .gagan),
    SBASSatellite(prn: 130, longitudeDegrees: 80, system: .bdsbas),
    SBASSatellite(prn: 131, longitudeDegrees: -117, system: .waas),
    SBASSatellite(prn: 132, longitudeDegrees: 93.5, system: .gagan),
    SBASSatellite(prn: 133, longitudeDegrees: -129, system: .waas),
    SBASSatellite(prn: 134, longitudeDegrees: 116, system: .kass),
    SBASSatellite(prn: 135, longitudeDegrees: -125, system: .waas),
    SBASSatellite(prn: 136, longitudeDegrees: 5, system: .egnos),
    SBASSatellite(prn: 137, longitudeDegrees: 127, system: .msas),
    SBASSatellite(prn: 140, longitudeDegrees: 95, system: .sdcm),
    SBASSatellite(prn: 141, longitudeDegrees: 167, system: .sdcm),
    SBASSatellite(prn: 143, longitudeDegrees: 110.5, system: .bdsbas),
    SBASSatellite(prn: 144, longitudeDegrees: 140, system: .bdsbas),
  ]
}
