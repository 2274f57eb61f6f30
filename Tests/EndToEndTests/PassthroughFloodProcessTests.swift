import Foundation
import Glibc
import MockGPSTestSupport
import Synchronization
import TestFixtures
import Testing

/// A receiver that floods a passthrough whose client does not read: the `mockgps run`
/// process's memory stays flat. Measured on the process, not in the test process, whose
/// resident set other tests beside it grow (a full run once saw 27 MB in 3 s there).
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct PassthroughFloodProcessTests {
  /// Process `pid`'s resident set in KiB, from /proc/PID/status; nil once it is gone.
  static func residentKilobytes(of pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
  }

  @Test func aFloodWithAClientNotReadingKeepsTheProcessFlat() throws {
    let directory = try ScratchDirectory("passthrough-flood")
    defer { directory.remove() }
    let receiver = try FakeReceiver(linkPath: directory.path + "/ttyREAL")
    defer { receiver.close() }
    let link = directory.path + "/ttyOUT"
    let (process, _) = try MockGPSBinary.start([
      "--passthrough", receiver.linkPath, "--passthrough-baud", "9600", "--override", "replace",
      "--position", "48.8584,2.2945,35",
      "--link", link,
    ])
    defer { process.kill() }
    let client = try DeviceReader(path: link)
    let garbage = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
    let flooding = Atomic<Bool>(true)
    let sentBytes = Atomic<Int>(0)
    let finished = Atomic<Bool>(false)
    Thread {
      while flooding.load(ordering: .relaxed), receiver.send(garbage) {
        sentBytes.add(garbage.count, ordering: .relaxed)
      }
      finished.store(true, ordering: .releasing)
    }.start()
    defer {
      flooding.store(false, ordering: .relaxed)
      _ = process.wait(seconds: 3) { finished.load(ordering: .acquiring) }
    }
    // The first second warms the buffers a flood needs once (read buffer, malloc arenas). What
    // grows after it with the bytes grows in each of two windows; a page first touched late (a
    // loaded run grew 312 KiB in 4 s with 2.4 MB sent; beside two hogs the first window grew
    // 184-340 KiB, the second 0-8 KiB) grows in one of them only: at least one window must grow
    // by less than a twentieth of what flowed in it. Three windows: a loaded clean clone saw
    // late pages in two (128 and 32 KiB, with 0.8 and 0.6 MB sent), which a leak of a
    // twentieth shows in all.
    usleep(1_000_000)
    var resident = [try #require(Self.residentKilobytes(of: process.pid))]
    var sent = [sentBytes.load(ordering: .relaxed)]
    for _ in 0..<3 {
      usleep(2_000_000)
      resident.append(try #require(Self.residentKilobytes(of: process.pid)))
      sent.append(sentBytes.load(ordering: .relaxed))
    }
    let grown = zip(resident, resident.dropFirst()).map { $1 - $0 }
    let flowed = zip(sent, sent.dropFirst()).map { $1 - $0 }
    print("passthrough process flood: \(flowed) bytes in three 2 s windows, RSS \(resident) KiB")
    // More than a 921,600-baud line carries in 2 s, in each window: the flood is a flood.
    #expect(flowed.allSatisfy { $0 > 200_000 }, "\(flowed); \(process.standardError.suffix(2000))")
    // Keeping a twentieth of what flowed would show in every window.
    #expect(
      zip(grown, flowed).contains { $0 < $1 / 1024 / 20 },
      "RSS grew \(grown) KiB with \(flowed) bytes; \(process.standardError.suffix(2000))")
    #expect(process.isRunning)
    withExtendedLifetime(client) {}
  }
}
