/// The NAV messages of u-blox 9's signals and orbits and of its rover solution, built from one
/// solution's satellites (ZED-F9P interface description, HPG 1.32; pyubx2's definitions).
extension UBXNavigationSolution {
  /// UBX-NAV-SIG (0x01 0x43), u-blox 9: 8 bytes then 16 per signal, one block for each signal
  /// of each satellite in `signalIDs[system]` (a system not listed: signal 0, its first).
  ///
  /// Every signal of a satellite shows its carrier-to-noise (the sky has one per satellite);
  /// a tracked signal is "code and carrier locked" (quality 7), a signal of a satellite used
  /// has its pseudorange and Doppler used, and the ionosphere is the dual-frequency estimate
  /// where a used satellite has two signals, the broadcast model otherwise.
  public func navSIG(signalIDs: [UBXSatellite.System: [UInt8]]) -> UBXFrame {
    let signals = satellites.flatMap { satellite in
      (signalIDs[satellite.system] ?? [0]).map { (satellite, $0) }
    }
    return listing(.navSIG, version: 0, signals) { payload, listed in
      let (satellite, signal) = listed
      let tracked = satellite.carrierToNoise > 0
      let dualFrequency = (signalIDs[satellite.system]?.count ?? 1) > 1
      payload.u1(satellite.system.rawValue)
      payload.u1(UInt8(clamping: satellite.number))
      payload.u1(satellite.signalID(signal))
      payload.u1(satellite.frequencyID)
      payload.i2(0)  // prRes
      payload.u1(UInt8(clamping: satellite.carrierToNoise))
      payload.u1(tracked ? 7 : 1)  // qualityInd
      payload.u1(0)  // corrSource: none
      payload.u1(satellite.isUsed ? (dualFrequency ? 8 : 1) : 0)  // ionoModel
      // health "healthy"; prUsed and doUsed for a satellite in the solution.
      payload.u2(0x01 | (satellite.isUsed ? 0x08 | 0x20 : 0))
      payload.zeros(4)
    }
  }

  /// UBX-NAV-ORB (0x01 0x34), u-blox 8 and later: 8 bytes then 6 per satellite of the sky.
  ///
  /// Every satellite is healthy, above the elevation mask when its elevation is at least 5°
  /// (above the horizon otherwise), and has an almanac received from the sky valid beyond
  /// 450 minutes. A tracked satellite has its ephemeris from its own broadcast, usable until the
  /// next two-hour issue of GPS time (the usability counts 15-minute steps); one not tracked
  /// has none. No AssistNow orbits.
  public var navORB: UBXFrame {
    let minutesLeft = 120 - Int(timeOfWeekMilliseconds / 60_000 % 120)
    return listing(.navORB, version: 1, satellites) { payload, satellite in
      payload.u1(satellite.system.rawValue)
      payload.u1(UInt8(clamping: satellite.number))
      let visibility: UInt8 = satellite.elevationDegrees >= 5 ? 3 : 2
      payload.u1(0x01 | visibility << 2)  // health "healthy", visibility
      let ephemeris = UInt8(max(1, min(30, minutesLeft / 15)))
      payload.u1(satellite.carrierToNoise > 0 ? ephemeris | 1 << 5 : 0)
      payload.u1(31 | 1 << 5)  // almanac usable > 450 min, from the GNSS
      payload.u1(0)  // no other orbit data
    }
  }

  /// UBX-NAV-RELPOSNED (0x01 0x3C) version 1, u-blox 9: 64 bytes, the rover's position relative
  /// to its reference station: north, east, down and length in cm plus `relPosHP…` in 0.1 mm,
  /// the vector's heading (1e-5°), each one's accuracy (0.1 mm; heading 1e-5°), and flags
  /// `gnssFixOK`, `diffSoln`, `relPosValid` and `carrSoln`. A static station gives no heading
  /// the chip vouches for (`relPosHeadingValid` is a moving base's). With no corrections used
  /// every vector and accuracy is zero and only `gnssFixOK` can be set.
  public var navRELPOSNED: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u1(1)  // version
    payload.u1(0)
    payload.u2(UInt16(clamping: relativePosition?.stationID ?? 0))
    payload.u4(timeOfWeekMilliseconds)
    guard let relative = relativePosition else {
      payload.zeros(52)  // relPos N/E/D/length/heading, reserved, HP parts, accuracies, reserved
      payload.u4(isFixOK ? 0x01 : 0)  // flags: gnssFixOK only
      return UBXFrame(.navRELPOSNED, payload: payload.bytes)
    }
    let vector = relative.northEastDown
    let parts = [vector.x, vector.y, vector.z, relative.length].map {
      Self.split($0, coarse: 100, fine: 10_000)
    }
    for part in parts { payload.i4(part.coarse) }
    payload.i4(Self.signed(relative.headingDegrees, scale: 1e5))
    payload.u4(0)  // reserved1
    for part in parts { payload.u1(UInt8(bitPattern: part.fine)) }
    let accuracy = relative.accuracy
    let horizontal = (accuracy.x * accuracy.x + accuracy.y * accuracy.y).squareRoot()
    for meters in [accuracy.x, accuracy.y, accuracy.z, horizontal] {
      payload.u4(Self.unsigned(meters, scale: 1e4))
    }
    let headingAccuracy =
      relative.length > 0 ? min(180, horizontal / relative.length * 180 / Double.pi) : 180
    payload.u4(Self.unsigned(headingAccuracy, scale: 1e5))
    payload.u4(0)  // reserved2
    // gnssFixOK, diffSoln, relPosValid, carrSoln; isMoving, refPosMiss, refObsMiss and
    // relPosHeadingValid for a moving base
    var flags = (isFixOK ? 0x01 : 0) | 0x02 | 0x04 | UInt32(relative.carrierSolution.rawValue) << 3
    if relative.isMoving {
      flags |= 0x20
      if relative.referencePositionMissed { flags |= 0x40 }
      if relative.referenceObservationsMissed { flags |= 0x80 }
      if relative.carrierSolution != .none { flags |= 0x100 }
    }
    payload.u4(flags)
    return UBXFrame(.navRELPOSNED, payload: payload.bytes)
  }
}

extension UBXSatellite {
  /// The `sigId` of one of this satellite's signals named by its D1 form: a BeiDou
  /// geostationary satellite (C01–C05, C59–C63) broadcasts D2 navigation data, whose signal
  /// IDs follow the D1 ones (B1I D2 is 1, B2I D2 is 3).
  public func signalID(_ signal: UInt8) -> UInt8 {
    let geostationary = (1...5).contains(number) || (59...63).contains(number)
    return system == .beidou && geostationary && signal % 2 == 0 ? signal + 1 : signal
  }
}
