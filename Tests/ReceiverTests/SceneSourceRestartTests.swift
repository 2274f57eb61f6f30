import Receiver
import Simulation
import Testing

/// A restart of the simulated chip as the epochs show it: the silence of its boot, its
/// power-up sentences, then epochs without a fix for the start's time to first fix.
@Suite struct SceneSourceRestartTests {
  static let noon = UTCInstant(year: 2026, month: 11, day: 30, hour: 12)
  static let second: Int64 = 1_000_000_000
  static let banner: [[UInt8]] = ["$PMTK011,MTKGPS*08\r\n", "$PMTK010,001*2E\r\n"].map {
    Array($0.utf8)
  }

  /// A MediaTek source restarted 0.3 s after noon.
  static func restarted(_ restart: ReceiverRestart) -> SceneSource {
    var source = SceneSource(
      scene: Scene(motion: FixedPosition(EmulatorConfigurationDefaults.greenwich)),
      encoder: ReceiverEncoder(profile: .mtk))
    source.restart(restart, at: noon.adding(nanoseconds: 300_000_000))
    return source
  }

  static func epoch(_ source: SceneSource, second: Int64) -> Epoch {
    source.epoch(at: noon.adding(nanoseconds: second * Self.second))
  }

  /// The fix quality of the epoch's GGA, or nil without one.
  static func ggaQuality(_ epoch: Epoch) -> String? {
    let gga = epoch.packets.map { String(decoding: $0, as: UTF8.self) }.first {
      $0.hasPrefix("$GPGGA")
    }
    return gga.map { $0.split(separator: ",", omittingEmptySubsequences: false)[6] }.map(
      String.init)
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var start: ReceiverRestart.Start
    /// The second of the first epoch with a fix: the MT3301 is up 1 s after the order
    /// (12:00:01.3), and fixes after its time to first fix.
    var firstFixSecond: Int64
    var testDescription: String { "\(start) start, fix at \(firstFixSecond) s" }
  }

  static let cases = [
    Case(start: .hot, firstFixSecond: 3), Case(start: .warm, firstFixSecond: 35),
    Case(start: .cold, firstFixSecond: 38),
  ]

  @Test(arguments: cases) func powerUpSilencesThenSendsTheBannerThenSearches(_ test: Case) {
    let source = Self.restarted(ReceiverRestart(start: test.start, powersUp: true))
    #expect(Self.ggaQuality(Self.epoch(source, second: 0)) == "1")
    #expect(Self.epoch(source, second: 1).packets.isEmpty)
    let firstUp = Self.epoch(source, second: 2)
    #expect(Array(firstUp.packets.prefix(2)) == Self.banner)
    #expect(firstUp.fix?.mode == .noFix)
    #expect(Self.ggaQuality(firstUp) == "0")
    for second in 3..<test.firstFixSecond {
      let epoch = Self.epoch(source, second: second)
      #expect(epoch.fix?.mode == .noFix, "at \(second) s")
      #expect(epoch.packets.first != Self.banner.first, "banner again at \(second) s")
    }
    let fixed = Self.epoch(source, second: test.firstFixSecond)
    #expect(fixed.fix?.mode == .threeDimensional)
    #expect(Self.ggaQuality(fixed) == "1")
  }

  @Test func navigationOnlyRestartKeepsThePortSending() {
    let source = Self.restarted(ReceiverRestart(start: .hot, powersUp: false))
    let searching = Self.epoch(source, second: 1)
    #expect(Self.ggaQuality(searching) == "0")
    #expect(searching.packets.first != Self.banner.first)
    #expect(Self.ggaQuality(Self.epoch(source, second: 2)) == "1")
  }

  @Test func aRestartReplacesASearchUnderWay() {
    var source = Self.restarted(ReceiverRestart(start: .cold, powersUp: false))
    source.restart(
      ReceiverRestart(start: .hot, powersUp: false),
      at: Self.noon.adding(nanoseconds: 5 * Self.second))
    #expect(Self.ggaQuality(Self.epoch(source, second: 5)) == "0")
    #expect(Self.ggaQuality(Self.epoch(source, second: 6)) == "1")
  }

  @Test(arguments: ReceiverProfile.all) func startsAreOrderedByWhatTheChipKeeps(
    _ profile: ReceiverProfile
  ) {
    let timing = profile.restartTiming
    #expect(timing.timeToFirstFixNanoseconds(.hot) < timing.timeToFirstFixNanoseconds(.warm))
    #expect(timing.timeToFirstFixNanoseconds(.warm) <= timing.timeToFirstFixNanoseconds(.cold))
    #expect((500_000_000...1_000_000_000).contains(timing.powerUpNanoseconds))
  }
}
