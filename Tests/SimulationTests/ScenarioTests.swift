import Geodesy
import Receiver
import Simulation
import Testing

/// What each scenario action puts on the wire, through the real encoder and wire faults.
@Suite struct ScenarioTests {
  typealias Run = ScenarioRun

  struct FixCase: CustomTestStringConvertible, Sendable {
    let setting: Scenario.FixSetting
    let quality: String
    let status: String
    let mode: String
    let fixType: String
    var testDescription: String { setting.rawValue }
  }

  @Test(arguments: [
    FixCase(setting: .none, quality: "0", status: "V", mode: "N", fixType: "1"),
    FixCase(setting: .twoDimensional, quality: "1", status: "A", mode: "A", fixType: "2"),
    FixCase(setting: .threeDimensional, quality: "1", status: "A", mode: "A", fixType: "3"),
    FixCase(setting: .dgps, quality: "2", status: "A", mode: "D", fixType: "3"),
    FixCase(setting: .rtkFloat, quality: "5", status: "A", mode: "F", fixType: "3"),
    FixCase(setting: .rtkFixed, quality: "4", status: "A", mode: "R", fixType: "3"),
  ])
  func aFixModeShowsInGGARMCGLLVTGAndGSA(_ row: FixCase) {
    let source = Run.source(Run.scenario([(10, .fix(row.setting), 5)]))
    let bytes = Run.bytes(source, at: 12)
    #expect(Run.fields("GGA", in: bytes)[5] == row.quality)
    #expect(Run.fields("RMC", in: bytes)[1] == row.status)
    #expect(Run.fields("RMC", in: bytes)[11] == row.mode)
    #expect(Run.fields("GLL", in: bytes)[6] == row.mode)
    #expect(Run.fields("VTG", in: bytes)[8] == row.mode)
    #expect(Run.fields("GSA", in: bytes)[1] == row.fixType)
    let after = Run.bytes(source, at: 15)
    #expect(Run.fields("GGA", in: after)[5] == "1")
    #expect(Run.fields("GSA", in: after)[1] == "3")
  }

  @Test func aFaultWithoutDurationLastsUntilTheNextOfItsKind() {
    let source = Run.source(
      Run.scenario([
        (10, .fix(.none), nil), (15, .dop(.scale(2)), nil), (20, .fix(.threeDimensional), nil),
      ]))
    let quality = [5.0, 10, 19.5, 20, 500].map {
      Run.fields("GGA", in: Run.bytes(source, at: $0))[5]
    }
    #expect(quality == ["1", "0", "0", "1", "1"])
  }

  @Test func dopValuesReplaceTheSkysAndAScaleMultipliesThem() throws {
    let source = Run.source(
      Run.scenario([
        (10, .dop(.values(horizontal: 4.5, vertical: 6.25, position: 7.7)), 5),
        (20, .dop(.scale(3)), 5),
      ]))
    let set = Run.fields("GSA", in: Run.bytes(source, at: 10))
    #expect(Array(set[14...16]) == ["7.70", "4.50", "6.25"])
    #expect(Run.fields("GGA", in: Run.bytes(source, at: 10))[7] == "4.50")
    let clean = try #require(Double(Run.fields("GGA", in: Run.bytes(source, at: 0))[7]))
    let scaled = try #require(Double(Run.fields("GGA", in: Run.bytes(source, at: 20))[7]))
    #expect(abs(scaled - 3 * clean) <= 0.015)
    #expect(
      Run.fields("GGA", in: Run.bytes(source, at: 25))[7]
        == Run.fields("GGA", in: Run.bytes(source, at: 0))[7])
  }

  @Test func aSatelliteCountLimitsTheUsedOnesAndKeepsTheOthersInView() {
    let source = Run.source(Run.scenario([(0, .satellites(usedCount: 4), nil)]))
    let bytes = Run.bytes(source, at: 1)
    #expect(Run.fields("GGA", in: bytes)[6] == "04")
    let gsa = Run.fields("GSA", in: bytes)
    #expect(gsa[2...13].filter { !$0.isEmpty }.count == 4)
    #expect(Run.fields("GSV", in: bytes)[2] == "10")
    let three = Run.source(Run.scenario([(0, .satellites(usedCount: 3), nil)]))
    #expect(Run.fields("GSA", in: Run.bytes(three, at: 1))[1] == "2")
  }

  @Test func aJumpMovesTheReportedPositionByItsOffset() throws {
    let source = Run.source(
      Run.scenario([(10, .jump(northMeters: 30, eastMeters: 40, upMeters: 5), 10)]))
    let clean = try #require(source.epoch(at: Run.time(9)).fix)
    let jumped = try #require(source.epoch(at: Run.time(10)).fix)
    let line = Geodesic.wgs84.inverse(from: clean.position, to: jumped.position)
    #expect(abs(line.distanceMeters - 50) < 0.001)
    #expect(abs(line.initialAzimuthDegrees - 53.130_102_354) < 1e-6)
    #expect(abs(jumped.position.altitudeMeters - clean.position.altitudeMeters - 5) < 1e-9)
    let wireClean = try #require(Run.ggaPosition(in: Run.bytes(source, at: 9)))
    let wireJumped = try #require(Run.ggaPosition(in: Run.bytes(source, at: 10)))
    let wire = Geodesic.wgs84.inverse(from: wireClean, to: wireJumped)
    #expect(abs(wire.distanceMeters - 50) < 0.05)
    #expect(abs(wireJumped.altitudeMeters - wireClean.altitudeMeters - 5) < 0.11)
    let back = try #require(source.epoch(at: Run.time(20)).fix)
    #expect(back.position == clean.position)
  }

  @Test func aClockJumpShiftsTheReportedTimeOnly() throws {
    let source = Run.source(Run.scenario([(10, .clock(offsetNanoseconds: 3_600_000_000_000), 5)]))
    let bytes = Run.bytes(source, at: 10)
    #expect(Run.fields("RMC", in: bytes)[0] == "130010.00")
    #expect(Run.fields("GGA", in: bytes)[0] == "130010.00")
    #expect(Run.fields("RMC", in: Run.bytes(source, at: 15))[0] == "120015.00")
  }

  @Test func theWeekRolloverReportsDates1024WeeksEarly() {
    let source = Run.source(
      Run.scenario([(0, .clock(offsetNanoseconds: FixFaultKind.weekRolloverNanoseconds), nil)]))
    let bytes = Run.bytes(source, at: 30)
    #expect(Run.fields("RMC", in: bytes)[8] == "151104")
    #expect(Run.fields("RMC", in: bytes)[0] == "120030.00")
    #expect(Array(Run.fields("ZDA", in: bytes)[1...3]) == ["15", "11", "2004"])
    #expect(Run.fields("GGA", in: bytes)[5] == "1")
  }

  @Test func aColdStartAcquiresSatellitesThenFixesAtTheTimeToFirstFix() {
    let source = Run.source(
      Run.scenario([(10, .coldStart(timeToFirstFixNanoseconds: 20_000_000_000), nil)]))
    let inView = (10..<30).map {
      Int(Run.fields("GSV", in: Run.bytes(source, at: Double($0)))[2]) ?? -1
    }
    #expect(inView.first == 0)
    #expect(inView == inView.sorted())
    #expect(inView[10] == 5)
    #expect(inView.last == 9)
    for second in 10..<30 {
      let bytes = Run.bytes(source, at: Double(second))
      #expect(Run.fields("GGA", in: bytes)[5] == "0")
      #expect(Run.fields("GGA", in: bytes)[6] == "00")
      #expect(Run.fields("RMC", in: bytes)[1] == "V")
    }
    let fixed = Run.bytes(source, at: 30)
    #expect(Run.fields("GGA", in: fixed)[5] == "1")
    #expect(Run.fields("GSV", in: fixed)[2] == "10")
    #expect(Run.fields("GGA", in: Run.bytes(source, at: 9))[5] == "1")
  }

  @Test func silenceSendsNoBytesForItsDuration() {
    let source = Run.source(Run.scenario([(10, .silence, 3)]))
    #expect(!Run.bytes(source, at: 9.5).isEmpty)
    for seconds in [10.0, 11, 12.9] { #expect(Run.bytes(source, at: seconds).isEmpty) }
    #expect(!Run.bytes(source, at: 13).isEmpty)
  }

  @Test func corruptionBreaksTheGivenFractionOfChecksums() {
    let source = Run.source(Run.scenario([(0, .corrupt(rate: 0.3, style: .checksum), nil)]))
    let lines = (0..<300).flatMap { Run.lines(Run.bytes(source, at: Double($0))) }
    let bad = lines.filter { !Run.hasValidChecksum($0) }.count
    let fraction = Double(bad) / Double(lines.count)
    #expect(lines.count == 300 * 9)
    #expect(abs(fraction - 0.3) < 0.035, "fraction \(fraction)")
    #expect(
      Run.lines(Run.bytes(Run.source(Run.scenario([])), at: 1)).allSatisfy(Run.hasValidChecksum))
  }

  @Test func truncationCutsEverySentenceBeforeItsChecksum() {
    let clean = Run.lines(Run.bytes(Run.source(Run.scenario([])), at: 4))
    let source = Run.source(Run.scenario([(0, .corrupt(rate: 1, style: .truncate), nil)]))
    let bytes = Run.bytes(source, at: 4)
    let lines = Run.lines(bytes)
    #expect(bytes.suffix(2) == [0x0D, 0x0A])
    #expect(lines.count == clean.count)
    for (cut, whole) in zip(lines, clean) {
      #expect(!cut.isEmpty && cut.count <= whole.count - 3 && whole.hasPrefix(cut))
    }
  }

  @Test func noiseMovesThePositionAndTheSameSeedGivesTheSameBytes() throws {
    let scenario = Run.scenario(
      [(0, .noise(sigmaMeters: 5, timeConstantSeconds: 10), nil)], seed: 7)
    let clean = try #require(Run.source(Run.scenario([])).epoch(at: Run.time(3)).fix)
    let noisy = try #require(Run.source(scenario).epoch(at: Run.time(3)).fix)
    let offset = Geodesic.wgs84.inverse(from: clean.position, to: noisy.position).distanceMeters
    #expect(offset > 0 && offset < 40)
    #expect(Run.bytes(Run.source(scenario), at: 3) == Run.bytes(Run.source(scenario), at: 3))
  }
}

extension ScenarioTests {
  @Test func ofTwoFaultsOfOneKindAtTheSameTimeTheLastWins() {
    let source = Run.source(Run.scenario([(10, .fix(.none), nil), (10, .fix(.dgps), nil)]))
    #expect(Run.fields("GGA", in: Run.bytes(source, at: 10))[5] == "2")
  }

  @Test func aLongTimelineCompilesQuickly() {
    let events = (0..<50_000).map { index in
      (
        at: Double(index), action: Scenario.Action.fix(index % 2 == 0 ? .none : .dgps),
        duration: Double?.none
      )
    }
    let compiled = Run.scenario(events).compiled()
    #expect(compiled.scene.faults.faults.count == 50_000)
    #expect(compiled.scene.fix(at: Run.time(30_000.5)).mode == .noFix)
  }
}
