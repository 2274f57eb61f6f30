import Receiver
import Simulation
import Testing

@Suite struct CadencePlanTests {
  static let noon = UTCInstant(year: 2026, month: 11, day: 29, hour: 12)

  @Test(arguments: [0.05, 20.5, -1, Double.nan, Double.infinity])
  func refusesRatesOutside0point1To20Hz(rate: Double) {
    #expect(throws: CadencePlan.RateError.self) { try CadencePlan(rateHz: rate) }
  }

  @Test func epochsAtOneHertzFallOnWholeSeconds() throws {
    let plan = try CadencePlan(rateHz: 1)
    let justAfter = Self.noon.adding(nanoseconds: 1)
    #expect(plan.nextEpoch(after: justAfter) == Self.noon.adding(nanoseconds: 1_000_000_000))
    #expect(plan.nextEpoch(after: Self.noon) == Self.noon.adding(nanoseconds: 1_000_000_000))
  }

  @Test func tenHertzGridHasNoDriftOverADay() throws {
    let plan = try CadencePlan(rateHz: 10)
    var epoch = Self.noon
    for _ in 0..<36_000 { epoch = plan.nextEpoch(after: epoch) }
    #expect(epoch == Self.noon.adding(nanoseconds: 3_600 * 1_000_000_000))
  }

  @Test func thirdsOfASecondStillMeetEverySecond() throws {
    let plan = try CadencePlan(rateHz: 3)
    var epoch = Self.noon
    var times: [Int64] = []
    for _ in 0..<3 {
      epoch = plan.nextEpoch(after: epoch)
      times.append(epoch.nanoseconds - Self.noon.nanoseconds)
    }
    #expect(times == [333_333_333, 666_666_666, 1_000_000_000])
  }

  @Test func theRateIsWrittenAsPeopleWriteIt() throws {
    #expect(try CadencePlan(rateHz: 1).rateText == "1")
    #expect(try CadencePlan(rateHz: 0.5).rateText == "0.5")
    #expect(try CadencePlan(rateHz: 2.5).rateText == "2.5")
  }

  @Test func slowRatesAlignToMultiplesOfThePeriod() throws {
    let plan = try CadencePlan(rateHz: 0.1)
    let start = Self.noon.adding(nanoseconds: 3_500_000_000)
    #expect(plan.nextEpoch(after: start) == Self.noon.adding(nanoseconds: 10_000_000_000))
  }

  @Test func theGridRestartsAtMidnight() throws {
    // 0.123 Hz: 86400 s hold 10627.2 periods, so only a restart puts an epoch on midnight.
    let plan = try CadencePlan(rateHz: 0.123)
    let day = UTCInstant(year: 2026, month: 11, day: 29)
    let midnight = UTCInstant(year: 2026, month: 11, day: 30)
    // Epoch 10627 of the day: 10627 × 1000/123 s = 86398.373983739… s.
    let lastOfTheDay = day.adding(nanoseconds: 86_398_373_983_739)
    #expect(plan.nextEpoch(after: day.adding(nanoseconds: 86_398_000_000_000)) == lastOfTheDay)
    #expect(lastOfTheDay.description == "2026-11-29T23:59:58.373983739Z")
    #expect(plan.nextEpoch(after: lastOfTheDay) == midnight)
    #expect(plan.nextEpoch(after: lastOfTheDay).description == "2026-11-30T00:00:00Z")
    // The new day's grid counts from midnight: 1000/123 s later, not 8.13 s after the last.
    #expect(plan.nextEpoch(after: midnight) == midnight.adding(nanoseconds: 8_130_081_300))
  }
}

@Suite struct BytePacingTests {
  @Test(arguments: [1, 300, 9601, 14_400, -9600])
  func refusesNonStandardBauds(baud: Int) {
    #expect(throws: BytePacing.BaudError.notStandard(baud)) { try BytePacing(baud: baud) }
  }

  @Test func ninetySixHundredBaudSends960BytesASecond() throws {
    let pacing = try BytePacing(baud: 9600)
    #expect(pacing.bytesPerSecond == 960)
    #expect(pacing.durationNanoseconds(ofBytes: 960) == 1_000_000_000)
  }

  @Test func sentencesAreGroupedUpToTheGranularityAndNeverSplit() throws {
    let pacing = try BytePacing(baud: 9600)
    // 20 + 10 bytes take 31 ms, within 40 ms; the next 70 would make 104 ms.
    let chunks = pacing.chunks(
      forLineLengths: [20, 10, 70, 12], granularityNanoseconds: 40_000_000)
    #expect(chunks.map(\.range) == [0..<30, 30..<100, 100..<112])
    // Each write goes out when the line would start sending its first byte, and its last
    // byte has arrived after the line time of the bytes up to it: 30 bytes at 960 a second.
    #expect(chunks.map(\.startOffsetNanoseconds) == [0, 31_250_000, 104_166_666])
    #expect(chunks.map(\.offsetNanoseconds) == [31_250_000, 104_166_666, 116_666_666])
  }

  /// A last group of less than a quarter of the granularity's line time (10 of 40 ms) is not a
  /// write of its own: it joins the one before. Five bytes at 9600 baud take 5.2 ms; twelve,
  /// 12.5 ms, stay apart (above). At 115200 baud, a 10 Hz epoch of 496 bytes (43 ms) is one
  /// write, not 460 bytes and then its last 36.
  @Test func aLastSliverJoinsTheWriteBefore() throws {
    let slow = try BytePacing(baud: 9600)
    let chunks = slow.chunks(forLineLengths: [20, 10, 70, 5], granularityNanoseconds: 40_000_000)
    #expect(chunks.map(\.range) == [0..<30, 30..<105])
    #expect(chunks.map(\.offsetNanoseconds) == [31_250_000, 109_375_000])
    let fast = try BytePacing(baud: 115_200)
    let epoch = [70, 40, 75, 60, 70, 70, 40, 35, 36]
    #expect(fast.chunks(forLineLengths: epoch).map(\.range) == [0..<496])
    #expect(fast.chunks(forLineLengths: epoch + [120]).count == 2, "120 bytes take 10.4 ms")
  }

  @Test func unpacedIsOneWrite() throws {
    let pacing = try BytePacing(baud: 0)
    #expect(pacing.chunks(forLineLengths: [70, 80, 90]).count == 1)
    #expect(pacing.durationNanoseconds(ofBytes: 500) == 0)
  }

  /// The largest epoch of a second decides: nine small ones do not hide the one with GSV.
  @Test func budgetCountsTheLargestEpochOfASecond() throws {
    let cadence = try CadencePlan(rateHz: 10)
    #expect(EpochBudget.epochsPerSecond(cadence) == 10)
    #expect(EpochBudget.epochsPerSecond(try CadencePlan(rateHz: 0.5)) == 1)
    let budget = EpochBudget(
      epochByteCounts: [500] + Array(repeating: 80, count: 9),
      pacing: try BytePacing(baud: 38_400), cadence: cadence)
    #expect(budget.bytesPerEpoch == 500)
    #expect(budget.warning?.hasPrefix("500 bytes per epoch need 130 ms at 38400 baud") == true)
  }

  @Test func budgetWarnsWhenAnEpochDoesNotFit() throws {
    let fits = EpochBudget(
      bytesPerEpoch: 600, pacing: try BytePacing(baud: 9600), cadence: try CadencePlan(rateHz: 1))
    #expect(fits.warning == nil)
    let tooMuch = EpochBudget(
      bytesPerEpoch: 600, pacing: try BytePacing(baud: 9600), cadence: try CadencePlan(rateHz: 10))
    #expect(
      tooMuch.warning
        == "600 bytes per epoch need 625 ms at 9600 baud, more than the 100 ms period at 10 Hz: epochs will be skipped (raise --baud or lower --rate)"
    )
  }
}
