/// The NAV messages of the sky, built from one solution's satellites.
extension UBXNavigationSolution {
  /// UBX-NAV-SAT (0x01 0x35), u-blox 8 and later: 8 bytes then 12 per satellite.
  ///
  /// Flags: quality "code and carrier locked" (7) when tracked, `svUsed`, health "healthy",
  /// orbit source and availability "ephemeris".
  public var navSAT: UBXFrame {
    listing(.navSAT, version: 1, satellites) { payload, satellite in
      payload.u1(satellite.system.rawValue)
      payload.u1(UInt8(clamping: satellite.number))
      payload.u1(UInt8(clamping: satellite.carrierToNoise))
      payload.i1(Int8(clamping: Self.wholeDegrees(satellite.elevationDegrees)))
      payload.i2(Int16(clamping: Self.wholeAzimuth(satellite.azimuthDegrees)))
      payload.i2(0)  // prRes
      let quality: UInt32 = satellite.carrierToNoise > 0 ? 7 : 1
      let used: UInt32 = satellite.isUsed ? 0x08 : 0
      payload.u4(quality | used | 0x10 | 0x100 | 0x800)
    }
  }

  /// A message of u-blox 8 and later listing `items` (at most 255): time of week, `version`,
  /// the count and 2 reserved bytes, then each item's block as `block` writes it.
  func listing<Item>(
    _ type: UBXMessageType, version: UInt8, _ items: [Item],
    block: (inout UBXPayloadWriter, Item) -> Void
  ) -> UBXFrame {
    let listed = items.prefix(255)
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    payload.u1(version)
    payload.u1(UInt8(listed.count))
    payload.zeros(2)
    for item in listed { block(&payload, item) }
    return UBXFrame(type, payload: payload.bytes)
  }

  /// UBX-NAV-SVINFO (0x01 0x30), u-blox 6–8: 8 bytes then 12 per channel, satellites numbered
  /// in the single numbering (`UBXSatellite.singleNumber`); those without a number are left out.
  public var navSVINFO: UBXFrame {
    let listed = satellites.compactMap { satellite in
      satellite.singleNumber.map { (satellite, $0) }
    }.prefix(255)
    var payload = UBXPayloadWriter()
    payload.u4(timeOfWeekMilliseconds)
    payload.u1(UInt8(listed.count))
    payload.u1(0x04)  // globalFlags: chipGen u-blox 8
    payload.zeros(2)
    for (channel, (satellite, number)) in listed.enumerated() {
      payload.u1(UInt8(channel))
      payload.u1(number)
      payload.u1((satellite.isUsed ? 0x01 : 0) | 0x0C)  // svUsed, orbitAvail, orbitEph
      payload.u1(satellite.carrierToNoise > 0 ? 7 : 1)
      payload.u1(UInt8(clamping: satellite.carrierToNoise))
      payload.i1(Int8(clamping: Self.wholeDegrees(satellite.elevationDegrees)))
      payload.i2(Int16(clamping: Self.wholeAzimuth(satellite.azimuthDegrees)))
      payload.i4(0)  // prRes
    }
    return UBXFrame(.navSVINFO, payload: payload.bytes)
  }

  /// Degrees rounded to a whole number, NaN as 0 and beyond ±1000 clamped.
  static func wholeDegrees(_ degrees: Double) -> Int {
    guard !degrees.isNaN else { return 0 }
    return Int(max(-1000, min(1000, degrees)).rounded())
  }

  /// An azimuth rounded to whole degrees in 0…359.
  static func wholeAzimuth(_ degrees: Double) -> Int {
    let rounded = wholeDegrees(degrees) % 360
    return rounded < 0 ? rounded + 360 : rounded
  }
}
