import NMEA
import Simulation

/// GBS, GRS, DTM and VLW: the integrity, residual, datum and distance sentences a u-blox sends
/// once a client switches them on (CFG-MSG F0 09, 06, 0A, 0F).
extension EpochEncoder {
  /// GBS: the expected errors of latitude, longitude and altitude, the fix's 1σ errors as GST
  /// writes them (`PositionErrors`); empty without a fix. No satellite is ever found faulty
  /// (the emulator has no fault detection to run), so the failed satellite's fields are empty,
  /// as in gpsd's `ublox-zed-f9p-nmea.log`; from NMEA 4.10 on they include its system and
  /// signal IDs.
  func gbs(_ f: EpochFields, talker: String) -> GBS {
    var gbs = GBS()
    gbs.talker = talker
    gbs.time = f.time
    if let errors = PositionErrors(f, dialect: dialect) {
      gbs.latitudeError = errors.latitude
      gbs.longitudeError = errors.longitude
      gbs.altitudeError = errors.altitude
    }
    if dialect.version >= .v410 { gbs.fieldCount = 10 }
    return gbs
  }

  /// One GRS per system under the solution's talker, as GSA (from NMEA 4.10 on with the
  /// system's ID and its first GSV signal), or one for all systems where GSA is one.
  ///
  /// Mode 1 (residuals recomputed after the GGA position), as u-blox writes. Each used
  /// satellite, in GSA's slots, has a residual of 0.0 m: the emulated fix is the solution of
  /// its satellites by construction (mockgps does not solve from simulated pseudoranges), so
  /// nothing remains after the fit; empty slots stay empty.
  func grs(
    _ f: EpochFields, _ sky: EpochSky, talker: String, to sink: inout some EpochSentenceSink
  ) {
    forEachGSAGroup(of: sky) { used, system in
      sink.append(grs(f, used: used, talker: talker, system: system))
    }
  }

  func grs(_ f: EpochFields, used: [ListedSatellite], talker: String, system: Constellation?)
    -> GRS
  {
    var grs = GRS()
    grs.talker = talker
    grs.time = f.time
    grs.mode = NMEADecimal(integer: 1)
    grs.residuals = used.prefix(12).map { _ in NMEADecimal(0, fractionDigits: 1) }
    grs.residuals += repeatElement(nil, count: 12 - grs.residuals.count)
    if let system, dialect.version >= .v410 {
      grs.systemID = NMEADecimal(integer: system.systemID)
      grs.signalID = dialect.gsvSignals(system)?.first?.map { NMEADecimal(integer: $0) }
      grs.fieldCount = 16
    }
    return grs
  }

  /// DTM: positions are WGS-84 (`W84`) with no offsets from WGS-84, the only datum the
  /// emulator reports in (a CFG-DAT is stored and polled, not applied).
  func dtm(talker: String) -> DTM {
    var dtm = DTM()
    dtm.talker = talker
    dtm.datum = "W84"
    dtm.latitudeOffsetMinutes = NMEADecimal(0, fractionDigits: 1)
    dtm.latitudeOffsetHemisphere = "N"
    dtm.longitudeOffsetMinutes = NMEADecimal(0, fractionDigits: 1)
    dtm.longitudeOffsetHemisphere = "E"
    dtm.altitudeOffset = NMEADecimal(0, fractionDigits: 1)
    dtm.referenceDatum = "W84"
    return dtm
  }

  /// VLW as u-blox writes it from NMEA 4.0 on: the water distances empty, the ground distances
  /// (total and since reset) from the chip's odometer, in nautical miles.
  ///
  /// Both are 0.000: mockgps models no odometer, and u-blox's is off from the factory
  /// (CFG-ODO-USE_ODO), so nothing has been accumulated (an assumption: no capture at hand has
  /// a VLW). Accumulating the distance covered here was left out on purpose: the encoder
  /// writes each epoch as a function of its fix (its memos only save work), a poll writes the
  /// last epoch again, and a restart would have to clear it.
  func vlw(talker: String) -> VLW {
    var vlw = VLW()
    vlw.talker = talker
    vlw.totalWaterDistanceUnit = "N"
    vlw.waterDistanceUnit = "N"
    vlw.totalGroundDistance = NMEADecimal(0, fractionDigits: 3)
    vlw.totalGroundDistanceUnit = "N"
    vlw.groundDistance = NMEADecimal(0, fractionDigits: 3)
    vlw.groundDistanceUnit = "N"
    return vlw
  }
}
