import Foundation
import InputFiles
import TestFixtures
import Testing
import Wire

@testable import Replay

/// `seek` on a replayed log: the first epoch at or after a time, a log played once held at its
/// last epoch, a looping log wrapped, an untimed log refused, `--time now` going on from now.
@Suite(.blocking) struct ReplaySeekTests {
  typealias Support = ReplayReaderTestSupport
  static let second: Int64 = 1_000_000_000

  /// A log of `count` epochs at 1 Hz from 12:00:00, on 15 March 2024.
  static func log(count: Int = 10) throws -> String {
    let text = (0..<count).map {
      Support.epochText(centiseconds: 4_320_000 + 100 * $0, date: "150324")
    }.joined()
    return try Support.temporaryLog(Array(text.utf8))
  }

  /// The time field of the first GGA of an epoch, as written.
  static func ggaTime(_ epoch: ReplayEpoch) -> String? {
    let text = String(decoding: epoch.bytes, as: UTF8.self)
    guard let line = text.split(separator: "\r\n").first(where: { $0.hasPrefix("$GPGGA") })
    else { return nil }
    return line.split(separator: ",", omittingEmptySubsequences: false).dropFirst().first.map(
      String.init)
  }

  @Test(arguments: [(0.0, 0), (3.0, 3), (3.2, 4), (8.999, 9)])
  func landsOnTheFirstEpochAtOrAfterTheTime(seconds: Double, landed: Int64) throws {
    let path = try Self.log()
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path)
    _ = try reader.next()
    let landing = try ReplaySeek.land(in: reader, atSeconds: seconds)
    #expect(landing.epoch.offsetNanoseconds == landed * Self.second)
    #expect(landing.targetNanoseconds == ReplaySeek.nanoseconds(ofSeconds: seconds))
    #expect(!landing.isPastTheEnd)
    if landed < 9 {
      #expect(try landing.source.next()?.offsetNanoseconds == (landed + 1) * Self.second)
    }
    // The sought source is untouched: it goes on from where it was.
    #expect(try reader.next()?.offsetNanoseconds == Self.second)
  }

  @Test func pastTheEndOfALogPlayedOnceLandsOnItsLastEpoch() throws {
    let path = try Self.log()
    defer { Support.remove(path) }
    let landing = try ReplaySeek.land(in: try ReplayReader(path: path), atSeconds: 600)
    #expect(landing.epoch.offsetNanoseconds == 9 * Self.second)
    #expect(landing.targetNanoseconds == 9 * Self.second)
    #expect(landing.isPastTheEnd)
    #expect(try landing.source.next() == nil)
  }

  @Test func aLoopingLogWrapsByOnePass() throws {
    // Ten epochs and a typical gap of 1 s: a pass is 10 s.
    let path = try Self.log()
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(looping: true))
    let epochs = try Support.epochs(of: reader, limit: 25)
    #expect(epochs[10].loopStartNanoseconds == 10 * Self.second)
    #expect(epochs[23].offsetNanoseconds == 23 * Self.second)
    #expect(epochs[23].loopStartNanoseconds == 20 * Self.second)
    #expect(epochs[3].loopStartNanoseconds == 0)

    let wrapped = try ReplaySeek.land(in: reader, atSeconds: 1_000_003.5)
    #expect(wrapped.targetNanoseconds == 3_500_000_000)
    #expect(wrapped.epoch.offsetNanoseconds == 4 * Self.second)
    #expect(wrapped.epoch.loopStartNanoseconds == 0)
    // In the gap after the last epoch: the next pass's first epoch, still at the target.
    let inGap = try ReplaySeek.land(in: reader, atSeconds: 9.5)
    #expect(inGap.targetNanoseconds == 9_500_000_000)
    #expect(inGap.epoch.offsetNanoseconds == 10 * Self.second)
    #expect(inGap.epoch.loopStartNanoseconds == 10 * Self.second)
    #expect(!inGap.isPastTheEnd)
  }

  @Test func timeNowGoesOnFromTheMomentOfTheSeek() throws {
    let path = try Self.log()
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    // 2025-12-01 08:30:00 UTC: the epoch at the target shows it, the one after a second more.
    let now: Int64 = 1_764_577_800 * Self.second
    let landing = try ReplaySeek.land(in: reader, atSeconds: 4, utcNowNanoseconds: now)
    #expect(landing.epoch.offsetNanoseconds == 4 * Self.second)
    #expect(Self.ggaTime(landing.epoch) == "083000.00")
    #expect(try landing.source.next().flatMap(Self.ggaTime) == "083001.00")
  }

  @Test func anEpochHeldByAPauseIsRetimedOnlyUnderTimeNow() throws {
    let path = try Self.log()
    defer { Support.remove(path) }
    let now: Int64 = 1_764_577_800 * Self.second
    let live = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    live.begin(liveStartNanoseconds: now)
    let epoch = try #require(try live.next())
    #expect(Self.ggaTime(epoch) == "083000.00")
    let held = live.retimed(epoch, byNanoseconds: 2_500_000_000)
    #expect(Self.ggaTime(held) == "083002.50")
    #expect(held.offsetNanoseconds == epoch.offsetNanoseconds)
    let original = try ReplayReader(path: path)
    let recorded = try #require(try original.next())
    #expect(original.retimed(recorded, byNanoseconds: 2_500_000_000) == recorded)
  }

  @Test(arguments: [-1, -0.001, Double.nan, -Double.infinity, Double.infinity])
  func aTimeThatIsNotZeroOrMoreIsRefused(seconds: Double) throws {
    let path = try Self.log()
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path)
    #expect {
      try ReplaySeek.land(in: reader, atSeconds: seconds)
    } throws: { error in
      guard case .invalidTime = error as? ReplaySeek.Refusal else { return false }
      return "\(error)"
        == "'time' expected a number of seconds from the start of the log, 0 or more"
    }
  }

  @Test func anUntimedLogStartsAgainButIsNotSought() throws {
    let untimed = [0, 1, 2].map { _ in
      ReplayEpoch(
        offsetNanoseconds: nil, packets: [LogPacket(kind: .garbage, bytes: [1, 2], line: 1)])
    }
    let source = Epochs(untimed)
    let start = try ReplaySeek.land(in: source, atSeconds: 0)
    #expect(start.epoch == untimed[0])
    #expect(throws: ReplaySeek.Refusal.untimed) {
      try ReplaySeek.land(in: source, atSeconds: 1)
    }
    #expect(throws: ReplaySeek.Refusal.untimed) {
      try ReplaySeek.land(in: Epochs(untimed, loops: true), atSeconds: 1)
    }
    #expect(
      ReplaySeek.Refusal.untimed.description
        == "the log carries no times to seek by; only 'seek 0' (its start) applies")
  }

  @Test func anUntimedEpochStandsAtTheTimedOneBeforeIt() throws {
    let packet = LogPacket(kind: .garbage, bytes: [7], line: 1)
    let epochs = [
      ReplayEpoch(offsetNanoseconds: 0, packets: [packet]),
      ReplayEpoch(offsetNanoseconds: nil, packets: [packet]),
      ReplayEpoch(offsetNanoseconds: 2 * Self.second, packets: [packet]),
      ReplayEpoch(offsetNanoseconds: nil, packets: [packet]),
    ]
    #expect(try ReplaySeek.land(in: Epochs(epochs), atSeconds: 1).epoch == epochs[2])
    let end = try ReplaySeek.land(in: Epochs(epochs), atSeconds: 3)
    #expect(end.epoch == epochs[3])
    #expect(end.targetNanoseconds == 2 * Self.second)
  }

  @Test func aSourceThatCannotStartAgainIsRefused() {
    final class Once: ReplayEpochSource {
      var header = LogHeader()
      var statistics = ReplayStatistics()
      func begin(liveStartNanoseconds: Int64) {}
      func next() throws(InputFileError) -> ReplayEpoch? { nil }
    }
    #expect(throws: ReplaySeek.Refusal.cannotRestart) {
      try ReplaySeek.land(in: Once(), atSeconds: 0)
    }
  }

  @Test func aLogRemovedSinceIsRefusedWithItsReason() throws {
    let path = try Self.log()
    let reader = try ReplayReader(path: path)
    Support.remove(path)
    #expect {
      try ReplaySeek.land(in: reader, atSeconds: 1)
    } throws: { error in
      guard case .unreadable = error as? ReplaySeek.Refusal else { return false }
      return "\(error)".contains(path)
    }
  }
}

/// Epochs made up by a test that can start again, looping when asked (a loop counted after
/// each pass, as the reader counts).
private final class Epochs: ReplayEpochSource {
  let epochs: [ReplayEpoch]
  let loops: Bool
  var index = 0
  var header = LogHeader()
  var statistics = ReplayStatistics()

  init(_ epochs: [ReplayEpoch], loops: Bool = false) {
    self.epochs = epochs
    self.loops = loops
  }

  func begin(liveStartNanoseconds: Int64) {}

  func next() throws(InputFileError) -> ReplayEpoch? {
    if index == epochs.count, loops {
      index = 0
      statistics.loops += 1
    }
    guard index < epochs.count else { return nil }
    defer { index += 1 }
    return epochs[index]
  }

  func restarted() throws(InputFileError) -> sending (any ReplayEpochSource)? {
    Epochs(epochs, loops: loops)
  }
}
