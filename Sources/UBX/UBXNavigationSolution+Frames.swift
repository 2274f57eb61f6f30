/// The NAV messages of position, velocity and time, built from one solution.
///
/// Field layouts follow the u-blox 8 / M8 and F9 HPG interface descriptions; values are rounded
/// to each field's unit and clamped to its range.
extension UBXNavigationSolution {
  /// UBX-NAV-PVT (0x01 0x07), 92 bytes: time, fix, position, velocity, accuracies, pDOP.
  public var navPVT: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    payload.u2(UInt16(clamping: utc.year))
    payload.u1(UInt8(clamping: utc.month))
    payload.u1(UInt8(clamping: utc.day))
    payload.u1(UInt8(clamping: utc.hour))
    payload.u1(UInt8(clamping: utc.minute))
    payload.u1(UInt8(clamping: utc.second))
    payload.u1(0x07)  // validDate, validTime, fullyResolved
    payload.u4(Self.unsigned(timeAccuracyNanoseconds, scale: 1))
    payload.i4(Int32(clamping: utc.nanosecond))
    payload.u1(fixType.rawValue)
    payload.u1((isFixOK ? 0x01 : 0) | (isDifferential ? 0x02 : 0) | carrierSolution.rawValue << 6)
    payload.u1(0x00)  // flags2: no confirmed date/time claimed
    payload.u1(UInt8(clamping: satellitesUsedCount))
    payload.i4(Self.signed(longitude, scale: 1e7))
    payload.i4(Self.signed(latitude, scale: 1e7))
    payload.i4(Self.signed(heightAboveEllipsoidMeters, scale: 1000))
    payload.i4(Self.signed(heightAboveMeanSeaLevelMeters, scale: 1000))
    payload.u4(Self.unsigned(horizontalAccuracyMeters, scale: 1000))
    payload.u4(Self.unsigned(verticalAccuracyMeters, scale: 1000))
    payload.i4(Self.signed(velocityNED.x, scale: 1000))
    payload.i4(Self.signed(velocityNED.y, scale: 1000))
    payload.i4(Self.signed(velocityNED.z, scale: 1000))
    payload.i4(Self.signed(groundSpeedMetersPerSecond, scale: 1000))
    payload.i4(Self.signed(headingDegrees, scale: 1e5))
    payload.u4(Self.unsigned(speedAccuracyMetersPerSecond, scale: 1000))
    payload.u4(Self.unsigned(headingAccuracyDegrees, scale: 1e5))
    payload.u2(Self.dopField(dop.position))
    payload.u2(UInt16(lastCorrectionAgeBand) << 1)  // flags3
    payload.zeros(4)  // reserved0
    payload.i4(0)  // headVeh: not valid (flags bit headVehValid clear)
    payload.i2(0)  // magDec
    payload.u2(0)  // magAcc
    return UBXFrame(.navPVT, payload: payload.bytes)
  }

  /// UBX-NAV-POSECEF (0x01 0x01), 20 bytes: ECEF position in centimeters and its accuracy.
  public var navPOSECEF: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    appendCentimeters(positionECEF, accuracyMeters: positionAccuracyMeters, to: &payload)
    return UBXFrame(.navPOSECEF, payload: payload.bytes)
  }

  /// UBX-NAV-VELECEF (0x01 0x11), 20 bytes: ECEF velocity in cm/s and its accuracy.
  public var navVELECEF: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    appendCentimeters(velocityECEF, accuracyMeters: speedAccuracyMetersPerSecond, to: &payload)
    return UBXFrame(.navVELECEF, payload: payload.bytes)
  }

  /// UBX-NAV-SOL (0x01 0x06), 52 bytes: the u-blox 6/7/8 solution that gpsd still decodes.
  public var navSOL: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    payload.i4(timeOfWeekFractionNanoseconds)
    payload.i2(Int16(clamping: gpsWeek))
    payload.u1(fixType.rawValue)
    payload.u1((isFixOK ? 0x01 : 0) | (isDifferential ? 0x02 : 0) | 0x0C)  // WKNSET, TOWSET
    appendCentimeters(positionECEF, accuracyMeters: positionAccuracyMeters, to: &payload)
    appendCentimeters(velocityECEF, accuracyMeters: speedAccuracyMetersPerSecond, to: &payload)
    payload.u2(Self.dopField(dop.position))
    payload.u1(0)
    payload.u1(UInt8(clamping: satellitesUsedCount))
    payload.u4(0)
    return UBXFrame(.navSOL, payload: payload.bytes)
  }

  /// UBX-NAV-DOP (0x01 0x04), 18 bytes: the seven DOPs in units of 0.01.
  public var navDOP: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    for value in [
      dop.geometric, dop.position, dop.time, dop.vertical, dop.horizontal, dop.north, dop.east,
    ] {
      payload.u2(Self.dopField(value))
    }
    return UBXFrame(.navDOP, payload: payload.bytes)
  }

  /// UBX-NAV-TIMEGPS (0x01 0x20), 16 bytes: GPS week, time of week and leap seconds.
  public var navTIMEGPS: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    payload.i4(timeOfWeekFractionNanoseconds)
    payload.i2(Int16(clamping: gpsWeek))
    payload.i1(Int8(clamping: leapSeconds))
    payload.u1(0x07)  // towValid, weekValid, leapSValid
    payload.u4(Self.unsigned(timeAccuracyNanoseconds, scale: 1))
    return UBXFrame(.navTIMEGPS, payload: payload.bytes)
  }

  /// UBX-NAV-EOE (0x01 0x61), 4 bytes: the end of the epoch's navigation messages.
  public var navEOE: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    return UBXFrame(.navEOE, payload: payload.bytes)
  }

  /// Three `I4` centimeter components and a `U4` centimeter accuracy.
  private func appendCentimeters(
    _ vector: Vector, accuracyMeters: Double, to payload: inout UBXPayloadWriter
  ) {
    payload.i4(Self.signed(vector.x, scale: 100))
    payload.i4(Self.signed(vector.y, scale: 100))
    payload.i4(Self.signed(vector.z, scale: 100))
    payload.u4(Self.unsigned(accuracyMeters, scale: 100))
  }

  /// `value × scale` rounded to the nearest `I4`, clamped; 0 for NaN.
  static func signed(_ value: Double, scale: Double) -> Int32 {
    let scaled = (value * scale).rounded()
    guard scaled.isFinite else { return scaled.isNaN ? 0 : scaled > 0 ? .max : .min }
    return Int32(clamping: Int64(max(-9.0e18, min(9.0e18, scaled))))
  }

  /// `value × scale` rounded to the nearest `U4`, clamped; 0 for NaN and negative values.
  static func unsigned(_ value: Double, scale: Double) -> UInt32 {
    let scaled = (value * scale).rounded()
    guard scaled.isFinite else { return scaled.isNaN ? 0 : scaled > 0 ? .max : 0 }
    return UInt32(clamping: Int64(max(0, min(9.0e18, scaled))))
  }

  /// A DOP in units of 0.01 (`U2`), 99.99 at most as receivers report.
  static func dopField(_ value: Double) -> UInt16 {
    UInt16(clamping: unsigned(min(value, 99.99), scale: 100))
  }
}
