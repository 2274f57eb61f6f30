import Receiver
import Simulation
import Testing

@Suite struct OutputDelayTests {
  @Test func parsesMillisecondsAndAJitter() throws {
    #expect(try OutputDelay.parse(milliseconds: "0") == OutputDelay.none)
    #expect(try OutputDelay.parse(milliseconds: "45")?.nominalNanoseconds == 45_000_000)
    let jittered = try #require(try OutputDelay.parse(milliseconds: "45±5"))
    #expect(jittered.jitterNanoseconds == 5_000_000)
    #expect(try OutputDelay.parse(milliseconds: "45+-5") == jittered)
    #expect(jittered.description == "45±5 ms")
    #expect(throws: OutputDelay.Refusal.negative) { try OutputDelay.parse(milliseconds: "-5") }
    for text in ["", "--5", "4.5", "45±", "±5", "45±5±1", "1e2", " 45", "45 ms", "1234567"] {
      #expect(try OutputDelay.parse(milliseconds: text) == nil, "\(text)")
    }
    #expect(throws: OutputDelay.Refusal.jitterAboveDelay) {
      try OutputDelay.parse(milliseconds: "5±6")
    }
    #expect(throws: OutputDelay.Refusal.tooLong) { try OutputDelay.parse(milliseconds: "1000") }
    #expect(throws: OutputDelay.Refusal.negative) {
      try OutputDelay(nominalNanoseconds: -1)
    }
  }

  /// The extra delay of an epoch is within twice the jitter, from its seed and time only.
  @Test func theJitterOfAnEpochIsSeededAndBounded() throws {
    let delay = try OutputDelay(nominalNanoseconds: 50_000_000, jitterNanoseconds: 3)
    var seen: Set<Int64> = []
    for second in 0..<200 {
      let time = UTCInstant(nanosecondsSinceEpoch: Int64(second) * 1_000_000_000)
      let extra = delay.extraNanoseconds(epochAt: time, seed: 1)
      #expect((0...6).contains(extra))
      #expect(delay.extraNanoseconds(epochAt: time, seed: 1) == extra)
      seen.insert(extra)
    }
    #expect(seen == Set(0...6), "every value of the range is drawn")
    #expect(
      OutputDelay.none.extraNanoseconds(epochAt: UTCInstant(nanosecondsSinceEpoch: 5), seed: 1) == 0
    )
  }
}
