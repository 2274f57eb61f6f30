import DeviceRuntime
import Foundation
import Glibc
import InputFiles
import MockGPS
import MockGPSTestSupport
import Receiver
import Replay
import RouteFiles
import SystemIO
import TestFixtures
import Wire

/// Epochs made up by a test, given out in order: the replay loop's side of the seam, without
/// a log file.
final class MadeUpEpochs: ReplayEpochSource {
  private let epochs: [ReplayEpoch]
  private var index = 0
  var header = LogHeader()
  var statistics = ReplayStatistics()

  init(_ epochs: [ReplayEpoch]) {
    self.epochs = epochs
  }

  func begin(liveStartNanoseconds: Int64) {}

  func next() throws(InputFileError) -> ReplayEpoch? {
    guard index < epochs.count else { return nil }
    defer { index += 1 }
    statistics.epochs += 1
    return epochs[index]
  }

  /// The same epochs from the first, for a seek.
  func restarted() throws(InputFileError) -> sending (any ReplayEpochSource)? {
    MadeUpEpochs(epochs)
  }
}

/// Real sentences to replay: the NMEA lines of one of gpsd's regression logs (a u-blox NEO-5Q
/// sending GGA, RMC and ZDA at 1 Hz), with CR LF.
enum RealSentences {
  static func packets(count: Int) throws -> [LogPacket] {
    let lines = try Fixtures.nmeaLines(of: Fixtures.gpsdLog("firefly-II.log"))
    return (0..<count).map { index in
      let line = lines[index % lines.count]
      return LogPacket(kind: .nmea, bytes: Array((line.text + "\r\n").utf8), line: line.number)
    }
  }

  /// Packets of about `byteCount` bytes in all.
  static func packets(bytes byteCount: Int) throws -> [LogPacket] {
    var packets: [LogPacket] = []
    var total = 0
    for packet in try Self.packets(count: byteCount / 40 + 1) where total < byteCount {
      packets.append(packet)
      total += packet.bytes.count
    }
    return packets
  }
}

/// An emulator replaying made-up epochs on a unique link, stopped at the end of the test.
final class ReplayingEmulator {
  let emulator: Emulator
  let directory: String
  var linkPath: String { emulator.link.path }

  convenience init(
    _ epochs: [ReplayEpoch], baud: Int, timeScale: Double = 1, waitsForClient: Bool = true,
    settleSeconds: Double = 0.2
  ) throws {
    try self.init(
      source: MadeUpEpochs(epochs), baud: baud, timeScale: timeScale,
      waitsForClient: waitsForClient, settleSeconds: settleSeconds)
  }

  /// Replays `source` (a `ReplayReader` of a log, or made-up epochs).
  init(
    source: sending any ReplayEpochSource, baud: Int, timeScale: Double = 1,
    waitsForClient: Bool = true, settleSeconds: Double = 0.2
  ) throws {
    directory = NSTemporaryDirectory() + "mockgps-replay-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let configuration = EmulatorConfiguration(
      linkPath: directory + "/ttyMOCKGPS",
      source: .replay(
        path: "made-up",
        ReplayPlayback(waitsForClient: waitsForClient, settleSeconds: settleSeconds)),
      pacing: try BytePacing(baud: baud), groupName: nil, timeScale: timeScale)
    emulator = try Emulator(
      configuration: configuration, replaying: source, log: Log(level: .error))
    try emulator.start()
  }

  func stop() {
    emulator.stop()
    try? FileManager.default.removeItem(atPath: directory)
  }
}

/// What a client read: the bytes, and when each read returned.
struct ReceivedBytes {
  var bytes: [UInt8] = []
  /// For each read: the offset after it and the monotonic time it returned.
  var reads: [(end: Int, nanoseconds: Int64)] = []

  /// When the byte at `offset` arrived.
  func arrival(ofByteAt offset: Int) -> Int64? {
    reads.first { $0.end > offset }?.nanoseconds
  }

  /// Reads from `descriptor` until `count` bytes arrived or `timeoutSeconds` pass, at most
  /// `chunk` bytes a read, pausing `pauseMicroseconds` after each read (a slow client).
  static func read(
    from descriptor: borrowing FileDescriptor, count: Int, timeoutSeconds: Double,
    chunk: Int = 4096,
    pauseMicroseconds: UInt32 = 0
  ) -> ReceivedBytes {
    var received = ReceivedBytes()
    let deadline = DeviceReader.monotonicNanoseconds() + Int64(timeoutSeconds * 1e9)
    var buffer = [UInt8](repeating: 0, count: chunk)
    while received.bytes.count < count, DeviceReader.monotonicNanoseconds() < deadline {
      let ready = (try? Poll.wait([descriptor.pollRequest(.readable)], timeoutMilliseconds: 20))
      guard ready?.first?.contains(.readable) == true else { continue }
      guard case .transferred(let got) = (try? descriptor.read(into: &buffer)) ?? .wouldBlock,
        got > 0
      else { continue }
      received.bytes += buffer.prefix(got)
      received.reads.append((received.bytes.count, DeviceReader.monotonicNanoseconds()))
      if pauseMicroseconds > 0 { usleep(pauseMicroseconds) }
    }
    return received
  }
}
