import MockGPSTestSupport
import Passthrough
import TestFixtures
import Testing

@testable import DeviceSources
@testable import MockGPS

/// One connection's timers: the rates `auto` tries in turn, and the one warning of silence.
@Suite(.blocking) struct PassthroughConnectionTests {
  static let dwell = GNSSDataDetector.dwellNanoseconds
  static let silence: Int64 = 5_000_000_000

  @Test func autoTriesEachRateForItsDwellThenTheNextGoingRound() {
    let bauds = GNSSDataDetector.candidateBauds
    var connection = PassthroughConnection(now: 0, candidateIndex: 0)
    var now: Int64 = 0
    var tried: [Int] = []
    for _ in 0..<bauds.count {
      now += Self.dwell
      if let baud = connection.nextCandidateBaud(now: now) { tried.append(baud) }
    }
    #expect(tried == Array(bauds.dropFirst()) + [bauds[0]])
  }

  @Test func silenceIsReportedOnceAfterFiveSeconds() {
    var connection = PassthroughConnection(now: 1_000, candidateIndex: nil)
    let early = connection.shouldWarnOfSilence(
      now: 999 + Self.silence, silenceNanoseconds: Self.silence)
    let due = connection.shouldWarnOfSilence(
      now: 1_000 + Self.silence, silenceNanoseconds: Self.silence)
    let again = connection.shouldWarnOfSilence(
      now: 9 * Self.silence, silenceNanoseconds: Self.silence)
    #expect([early, due, again] == [false, true, false])
  }

  @Test func fixedBaudAndAutoBaudBeforeTheDwellChangeNothing() {
    var fixed = PassthroughConnection(now: 0, candidateIndex: nil)
    var auto = PassthroughConnection(now: 0, candidateIndex: 0)
    let changes = [
      fixed.nextCandidateBaud(now: 100 * Self.dwell), auto.nextCandidateBaud(now: Self.dwell - 1),
    ]
    #expect(changes == [nil, nil])
    #expect(!fixed.isFindingBaud && auto.isFindingBaud)
  }
}
