import Simulation

extension SceneSource {
  /// Tracks `systems` from the next epoch on, as a chip does after its GNSS configuration
  /// changes: of those the encoder's NMEA dialect can write, the sky holds only their
  /// satellites (so the solution's count and DOPs follow; of SBAS those of `sbasPRNs`), and the
  /// NMEA lists them. Without `skyTracking` the sky stays and only the sentences follow.
  public mutating func track(_ systems: Set<Constellation>, sbasPRNs: Set<Int>) {
    let writable = systems.intersection(encoder.nmea.dialect.writableConstellations)
    if let skyTracking { scene.sky = skyTracking(writable, sbasPRNs) }
    encoder.nmea.constellations = writable
  }
}
