import Foundation
import InputFiles
import MockGPS
import MockGPSTestSupport
import Replay
import RouteFiles
import TestFixtures
import Testing
import Wire

/// An unpaced replay nobody reads, of a log that never ends (`--loop`): every epoch is due at
/// once, and it must still stop when asked (the review found SIGTERM ignored: the replay's step
/// never handed the scheduler back).
@Suite(.blocking, .timeLimit(.minutes(10))) struct ReplayStopTests {
  /// Epochs without end, 100 ms apart.
  final class EndlessEpochs: ReplayEpochSource {
    private let packets: [LogPacket]
    private var index: Int64 = 0
    var header = LogHeader()
    var statistics = ReplayStatistics()

    init() throws { packets = try RealSentences.packets(count: 3) }

    func begin(liveStartNanoseconds: Int64) {}

    func next() throws(InputFileError) -> ReplayEpoch? {
      defer { index += 1 }
      return ReplayEpoch(offsetNanoseconds: index * 100_000_000, packets: packets)
    }
  }

  @Test func aLoopedReplayNobodyReadsStopsWhenAsked() throws {
    let running = try ReplayingEmulator(
      source: try EndlessEpochs(), baud: 0, timeScale: 1_000_000, waitsForClient: false,
      settleSeconds: 0)
    usleep(300_000)
    let emulator = running.emulator
    let stopped = DispatchSemaphore(value: 0)
    Thread {
      emulator.stop()
      stopped.signal()
    }.start()
    #expect(stopped.wait(timeout: .now() + 10) == .success, "stop() returned within 10 s")
    #expect(emulator.statistics.epochsWithoutClient > 1_000)
    running.stop()
  }
}
