/// The NAV messages of geodetic position, velocity, status, UTC and clock, built from one
/// solution (u-blox 8 / M8 receiver description and ZED-F9P interface description; the same
/// layouts in both).
extension UBXNavigationSolution {
  /// UBX-NAV-POSLLH (0x01 0x02), 28 bytes: longitude, latitude (1e-7°), heights and
  /// accuracies (mm).
  public var navPOSLLH: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    payload.i4(Self.signed(longitude, scale: 1e7))
    payload.i4(Self.signed(latitude, scale: 1e7))
    payload.i4(Self.signed(heightAboveEllipsoidMeters, scale: 1000))
    payload.i4(Self.signed(heightAboveMeanSeaLevelMeters, scale: 1000))
    payload.u4(Self.unsigned(horizontalAccuracyMeters, scale: 1000))
    payload.u4(Self.unsigned(verticalAccuracyMeters, scale: 1000))
    return UBXFrame(.navPOSLLH, payload: payload.bytes)
  }

  /// UBX-NAV-VELNED (0x01 0x12), 36 bytes: velocity north, east, down, 3D and ground speed
  /// (cm/s), heading of motion (1e-5°) and their accuracies.
  public var navVELNED: UBXFrame {
    let velocity = velocityNED
    let speed3D = (velocity.x * velocity.x + velocity.y * velocity.y + velocity.z * velocity.z)
      .squareRoot()
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    payload.i4(Self.signed(velocity.x, scale: 100))
    payload.i4(Self.signed(velocity.y, scale: 100))
    payload.i4(Self.signed(velocity.z, scale: 100))
    payload.u4(Self.unsigned(speed3D, scale: 100))
    payload.u4(Self.unsigned(groundSpeedMetersPerSecond, scale: 100))
    payload.i4(Self.signed(headingDegrees, scale: 1e5))
    payload.u4(Self.unsigned(speedAccuracyMetersPerSecond, scale: 100))
    payload.u4(Self.unsigned(headingAccuracyDegrees, scale: 1e5))
    return UBXFrame(.navVELNED, payload: payload.bytes)
  }

  /// UBX-NAV-STATUS (0x01 0x03), 16 bytes: fix type, `gpsFixOk`/`diffSoln`/`wknSet`/`towSet`,
  /// differential corrections and the carrier-phase solution, then time to first fix and time
  /// since startup (ms).
  ///
  /// - Parameters:
  ///   - timeToFirstFixMilliseconds: `ttff`, 0 while the chip has had no fix.
  ///   - millisecondsSinceStartup: `msss`.
  public func navSTATUS(timeToFirstFixMilliseconds: UInt32, millisecondsSinceStartup: UInt32)
    -> UBXFrame
  {
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    payload.u1(fixType.rawValue)
    payload.u1((isFixOK ? 0x01 : 0) | (isDifferential ? 0x02 : 0) | 0x0C)
    // fixStat: diffCorr, carrSolnValid, no map matching
    payload.u1((isDifferential ? 0x01 : 0) | (carrierSolution != .none ? 0x02 : 0))
    // flags2: power save "acquisition", no spoofing claimed, carrSoln
    payload.u1(carrierSolution.rawValue << 6)
    payload.u4(isFixOK ? timeToFirstFixMilliseconds : 0)
    payload.u4(millisecondsSinceStartup)
    return UBXFrame(.navSTATUS, payload: payload.bytes)
  }

  /// UBX-NAV-TIMEUTC (0x01 0x21), 20 bytes: UTC date and time with `validTOW`, `validWKN`,
  /// `validUTC` and the UTC standard of GPS (USNO, 3).
  public var navTIMEUTC: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    payload.u4(Self.unsigned(timeAccuracyNanoseconds, scale: 1))
    payload.i4(Int32(clamping: utc.nanosecond))
    payload.u2(UInt16(clamping: utc.year))
    payload.u1(UInt8(clamping: utc.month))
    payload.u1(UInt8(clamping: utc.day))
    payload.u1(UInt8(clamping: utc.hour))
    payload.u1(UInt8(clamping: utc.minute))
    payload.u1(UInt8(clamping: utc.second))
    payload.u1(0x37)
    return UBXFrame(.navTIMEUTC, payload: payload.bytes)
  }

  /// UBX-NAV-CLOCK (0x01 0x22), 20 bytes: clock bias (ns) and drift (ns/s), time accuracy
  /// (ns) and frequency accuracy (ps/s, the speed accuracy over the speed of light).
  ///
  /// - Parameters:
  ///   - biasNanoseconds: the receiver clock's offset from GPS time.
  ///   - driftNanosecondsPerSecond: how fast that offset grows.
  public func navCLOCK(biasNanoseconds: Int32, driftNanosecondsPerSecond: Int32) -> UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    payload.i4(biasNanoseconds)
    payload.i4(driftNanosecondsPerSecond)
    payload.u4(Self.unsigned(timeAccuracyNanoseconds, scale: 1))
    payload.u4(Self.unsigned(speedAccuracyMetersPerSecond / 299_792_458, scale: 1e12))
    return UBXFrame(.navCLOCK, payload: payload.bytes)
  }
}
