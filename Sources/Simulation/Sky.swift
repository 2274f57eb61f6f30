import Geodesy

/// What the receiver's antenna sees: the satellites in view at a time and place.
///
/// This is the seam where an almanac-driven sky model plugs in; `StaticSky` is the simple one.
public protocol Sky: Sendable {
  /// The satellites in view at `time` from `position`, used ones first.
  func satellites(at time: UTCInstant, from position: GeodeticPosition) -> [SatelliteInView]
}

/// A fixed, plausible set of GPS satellites: spread over the sky, SNR rising with elevation,
/// the ones above 10° used in the fix.
public struct StaticSky: Sky {
  /// The satellites this sky always shows.
  public var satellites: [SatelliteInView]

  /// Creates a sky with the given satellites.
  public init(satellites: [SatelliteInView]) {
    self.satellites = satellites
  }

  /// Ten GPS satellites, eight of them used, giving an HDOP near 1.
  public static let typicalGPS = StaticSky(
    satellites: [
      (2, 62.0, 48.0), (5, 41.0, 297.0), (7, 18.0, 142.0), (9, 74.0, 210.0), (13, 33.0, 96.0),
      (16, 12.0, 331.0), (20, 27.0, 253.0), (26, 55.0, 165.0), (29, 6.0, 18.0), (31, 3.0, 199.0),
    ].map { id, elevation, azimuth in
      SatelliteInView(
        constellation: .gps, id: id, elevation: elevation, azimuth: azimuth,
        snr: elevation < 5 ? nil : Int(22 + elevation * 0.3), isUsed: elevation >= 10)
    })

  public func satellites(at time: UTCInstant, from position: GeodeticPosition)
    -> [SatelliteInView]
  {
    satellites.filter(\.isUsed) + satellites.filter { !$0.isUsed }
  }
}
