/// The high-precision geodetic position of u-blox 9 (ZED-F9P interface description,
/// UBX-NAV-HPPOSLLH): the NAV-POSLLH fields with their residues below 1e-7° and 1 mm.
extension UBXNavigationSolution {
  /// UBX-NAV-HPPOSLLH (0x01 0x14), 36 bytes: version 0, `invalidLlh` while there is no fix,
  /// longitude and latitude in 1e-7° plus `lonHp`/`latHp` in 1e-9°, heights in mm plus
  /// `heightHp`/`hMSLHp` in 0.1 mm, accuracies in 0.1 mm.
  public var navHPPOSLLH: UBXFrame {
    let longitude = Self.split(longitude, coarse: 1e7, fine: 1e9)
    let latitude = Self.split(latitude, coarse: 1e7, fine: 1e9)
    let height = Self.split(heightAboveEllipsoidMeters, coarse: 1e3, fine: 1e4)
    let heightAboveSea = Self.split(heightAboveMeanSeaLevelMeters, coarse: 1e3, fine: 1e4)
    var payload = UBXPayloadWriter()
    payload.u1(0)  // version
    payload.u1(0)
    payload.u1(0)  // reserved0
    payload.u1(fixType == .noFix ? 0x01 : 0)  // flags: invalidLlh
    payload.u4(timeOfWeekMilliseconds)
    payload.i4(longitude.coarse)
    payload.i4(latitude.coarse)
    payload.i4(height.coarse)
    payload.i4(heightAboveSea.coarse)
    for residue in [longitude.fine, latitude.fine, height.fine, heightAboveSea.fine] {
      payload.u1(UInt8(bitPattern: residue))
    }
    payload.u4(Self.unsigned(horizontalAccuracyMeters, scale: 1e4))
    payload.u4(Self.unsigned(verticalAccuracyMeters, scale: 1e4))
    return UBXFrame(.navHPPOSLLH, payload: payload.bytes)
  }

  /// `value` as a coarse `I4` in units of 1/`coarse` and the `I1` residue in units of
  /// 1/`fine` that makes up the rest (within ±half a coarse unit, so it fits the byte's
  /// ±99 range); a coarse value clamped to `I4` carries no residue.
  static func split(_ value: Double, coarse: Double, fine: Double) -> (coarse: Int32, fine: Int8) {
    let coarseValue = signed(value, scale: coarse)
    let ratio = fine / coarse
    let residue = ((value * fine).rounded() - Double(coarseValue) * ratio)
    guard residue.isFinite, abs(residue) <= 99 else { return (coarseValue, 0) }
    return (coarseValue, Int8(residue))
  }
}
