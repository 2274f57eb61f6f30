import Testing

@testable import GNSSMeasurements

@Suite struct AtmosphereModelTests {
  @Test func klobucharGivesItsNightFloorAtTheZenithAtNight() {
    // At 02:00 local time the cosine term is off: 5 ns times the obliquity factor at 90°.
    let delay = KlobucharModel.typical.delayMeters(
      latitude: 0, longitude: 0, azimuthDegrees: 0, elevationDegrees: 90,
      gpsSecondsOfWeek: 86_400 * 3 + 7200)
    let obliquity = 1 + 16 * (0.53 - 0.5) * (0.53 - 0.5) * (0.53 - 0.5)
    #expect(abs(delay - obliquity * 5e-9 * GPSSignal.speedOfLight) < 1e-9)
  }

  @Test func klobucharPeaksInTheAfternoonAndGrowsTowardsTheHorizon() {
    let model = KlobucharModel.typical
    let afternoon = 86_400.0 * 3 + 14 * 3600
    let zenith = model.delayMeters(
      latitude: 10, longitude: 0, azimuthDegrees: 0, elevationDegrees: 90,
      gpsSecondsOfWeek: afternoon)
    let low = model.delayMeters(
      latitude: 10, longitude: 0, azimuthDegrees: 0, elevationDegrees: 10,
      gpsSecondsOfWeek: afternoon)
    #expect(zenith > 3 && zenith < 15)
    #expect(low > 2 * zenith)
  }

  @Test func saastamoinenIsAboutTwoPointFourMetersAtTheZenithAtSeaLevel() {
    let model = SaastamoinenModel()
    let zenith = model.delayMeters(latitude: 45, heightMeters: 0, elevationDegrees: 90)
    #expect(zenith > 2.3 && zenith < 2.6)
    let high = model.delayMeters(latitude: 45, heightMeters: 3000, elevationDegrees: 90)
    #expect(high < 0.75 * zenith)
    let low = model.delayMeters(latitude: 45, heightMeters: 0, elevationDegrees: 10)
    // The mapping is the secant of the zenith angle, and so exactly 1 / sin(10°) here.
    #expect(abs(low * MeasurementMath.sine(10 * .pi / 180) - zenith) < 1e-9)
  }

  @Test func theReceiverClockStepsAMillisecondAndMatchesNAVCLOCKAtWholeSeconds() {
    let clock = ReceiverClockModel()
    #expect(abs(clock.biasSeconds(atSecondsOfWeek: 0) + 0.5e-3) < 1e-15)
    #expect(abs(clock.biasSeconds(atSecondsOfWeek: 1000) - (300e-6 - 0.5e-3)) < 1e-12)
    // 1 ms of drift takes 3333.3 s: the bias wraps from +0.5 ms to −0.5 ms there.
    #expect(clock.stepCount(atSecondsOfWeek: 3333) == 0)
    #expect(clock.stepCount(atSecondsOfWeek: 3334) == 1)
    #expect(clock.biasSeconds(atSecondsOfWeek: 3334) < -0.49e-3)
    // At whole seconds, what integer nanoseconds give (to rounding), at the steps too (10,000 s).
    for second in [0, 1, 3333, 3334, 6667, 10_000, 345_618, 604_799] {
      let nanoseconds = second * 300 % 1_000_000 - 500_000
      let bias = clock.biasSeconds(atSecondsOfWeek: Double(second)) * 1e9
      #expect(abs(bias - Double(nanoseconds)) < 1e-6, "\(second) s")
    }
  }
}
