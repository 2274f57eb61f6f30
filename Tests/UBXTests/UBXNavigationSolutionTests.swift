import Testing
import UBX

@Suite struct UBXNavigationSolutionTests {
  static let solution = UBXNavigationSolution(
    gpsWeek: 2412, nanosecondsOfWeek: 86_418_250_000_000, leapSeconds: 18,
    utc: .init(
      year: 2026, month: 3, day: 30, hour: 0, minute: 0, second: 0, nanosecond: 250_000_000),
    fixType: .threeDimensional, isDifferential: false, latitude: 48.858_400_04,
    longitude: -2.294_500_06, heightAboveEllipsoidMeters: 82.345,
    heightAboveMeanSeaLevelMeters: 35.0,
    velocityNED: .init(x: 1.5, y: -2.25, z: 0.125), groundSpeedMetersPerSecond: 2.704,
    headingDegrees: 303.69, positionECEF: .init(x: 4_200_996.78, y: -168_333.1, z: 4_780_201.01),
    velocityECEF: .init(x: -0.01, y: 2.2, z: 1.0), horizontalAccuracyMeters: 2.5,
    verticalAccuracyMeters: 3.75, positionAccuracyMeters: 4.5, speedAccuracyMetersPerSecond: 0.18,
    headingAccuracyDegrees: 3.8, timeAccuracyNanoseconds: 9.5,
    dop: .init(
      geometric: 2.02, position: 1.8, time: 0.92, vertical: 1.5, horizontal: 1.0, north: 0.8,
      east: 0.6),
    satellites: [
      UBXSatellite(
        system: .gps, number: 5, carrierToNoise: 41, elevationDegrees: 44.6,
        azimuthDegrees: 359.7, isUsed: true),
      UBXSatellite(
        system: .glonass, number: 24, carrierToNoise: 0, elevationDegrees: 3.2,
        azimuthDegrees: 120.2, isUsed: false),
      UBXSatellite(
        system: .beidou, number: 40, carrierToNoise: 30, elevationDegrees: 12,
        azimuthDegrees: 200, isUsed: true),
    ])

  @Test func eachMessageHasTheLengthOfItsInterfaceDescription() {
    let solution = Self.solution
    #expect(solution.navPVT.payload.count == 92)
    #expect(solution.navPOSECEF.payload.count == 20)
    #expect(solution.navVELECEF.payload.count == 20)
    #expect(solution.navSOL.payload.count == 52)
    #expect(solution.navDOP.payload.count == 18)
    #expect(solution.navTIMEGPS.payload.count == 16)
    #expect(solution.navEOE.payload.count == 4)
    #expect(solution.navSAT.payload.count == 8 + 12 * 3)
    // BeiDou 40 has no number in the single numbering of NAV-SVINFO.
    #expect(solution.navSVINFO.payload.count == 8 + 12 * 2)
  }

  @Test func navPVTCarriesTimePositionAndVelocityInItsUnits() {
    var reader = UBXPayloadReader(Self.solution.navPVT.payload)
    #expect(reader.u4() == 86_418_250)
    #expect(reader.u2() == 2026)
    _ = reader.unsigned(byteCount: 6)
    #expect(reader.u4() == 10)  // tAcc, ns
    #expect(reader.i4() == 250_000_000)
    #expect(reader.u1() == 3)
    #expect(reader.u1() == 0x01)
    _ = reader.u1()
    #expect(reader.u1() == 2)  // numSV: used ones
    #expect(reader.i4() == -22_945_001)
    #expect(reader.i4() == 488_584_000)
    #expect(reader.i4() == 82_345)
    #expect(reader.i4() == 35_000)
    #expect(reader.u4() == 2_500)
    #expect(reader.u4() == 3_750)
    #expect(reader.i4() == 1_500)
    #expect(reader.i4() == -2_250)
    #expect(reader.i4() == 125)
    #expect(reader.i4() == 2_704)
    #expect(reader.i4() == 30_369_000)
    _ = reader.unsigned(byteCount: 8)
    #expect(reader.u2() == 180)
  }

  @Test func navSATListsEverySatelliteWithItsSystemAndFlags() {
    var reader = UBXPayloadReader(Self.solution.navSAT.payload)
    _ = reader.u4()
    #expect(reader.u1() == 1)
    #expect(reader.u1() == 3)
    _ = reader.u2()
    #expect(reader.u1() == 0)
    #expect(reader.u1() == 5)
    #expect(reader.u1() == 41)
    #expect(reader.u1() == 45)
    #expect(reader.i2() == 0)  // 359.7° rounds to 360, which is 0
    _ = reader.i2()
    let usedFlags = reader.u4() ?? 0
    #expect(usedFlags & 0x0F == 0x0F)  // quality 7, used
    #expect(reader.u1() == 6)  // GLONASS
    #expect(reader.u1() == 24)
    #expect(reader.u1() == 0)
    _ = reader.unsigned(byteCount: 5)
    let searchingFlags = reader.u4() ?? 0
    #expect(searchingFlags & 0x0F == 0x01)  // searching, not used
  }

  @Test func timeOfWeekSplitsIntoMillisecondsAndAFraction() {
    var solution = Self.solution
    solution.nanosecondsOfWeek = 1_000_700_000
    #expect(solution.timeOfWeekMilliseconds == 1_001)
    #expect(solution.timeOfWeekFractionNanoseconds == -300_000)
  }

  @Test func impossibleValuesAreClampedNotTrapped() {
    var solution = Self.solution
    solution.latitude = .nan
    solution.heightAboveEllipsoidMeters = .infinity
    solution.horizontalAccuracyMeters = -5
    solution.dop.position = 1e9
    solution.satellites[0].elevationDegrees = .nan
    solution.satellites[0].azimuthDegrees = -1e300
    var reader = UBXPayloadReader(solution.navPVT.payload)
    _ = reader.unsigned(byteCount: 28)
    #expect(reader.i4() == 0)
    #expect(reader.i4() == .max)
    _ = reader.i4()
    #expect(reader.u4() == 0)
    _ = reader.unsigned(byteCount: 32)
    #expect(reader.u2() == 9_999)
    #expect(solution.navSAT.payload.count == 44)
  }

  @Test(arguments: [
    (UBXSatellite.System.gps, 32, 32), (.glonass, 1, 65), (.galileo, 36, 246), (.beidou, 5, 163),
    (.beidou, 6, 33), (.beidou, 37, 64),
  ])
  func svinfoUsesTheSingleNumbering(system: UBXSatellite.System, number: Int, expected: Int) {
    let satellite = UBXSatellite(
      system: system, number: number, carrierToNoise: 40, elevationDegrees: 10, azimuthDegrees: 0,
      isUsed: true)
    #expect(satellite.singleNumber == UInt8(expected))
  }
}
