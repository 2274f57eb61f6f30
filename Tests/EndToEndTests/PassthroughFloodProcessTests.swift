import Foundation
import Glibc
import MockGPSTestSupport
import Synchronization
import TestFixtures
import Testing

/// A receiver that floods a passthrough whose client does not read: the `mockgps run`
/// process's memory stays flat. Measured on the process, not in the test process, whose
/// resident set other tests beside it grow (a full run once saw 27 MB in 3 s there).
@Suite(.blocking, .serialized, .timeLimit(.minutes(5))) struct PassthroughFloodProcessTests {
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
    // The first second warms the buffers a flood needs once (read buffer, malloc arenas);
    // what grows after it grows with the bytes.
    usleep(1_000_000)
    let warm = try #require(Self.residentKilobytes(of: process.pid))
    let sentWarm = sentBytes.load(ordering: .relaxed)
    usleep(4_000_000)
    let after = try #require(Self.residentKilobytes(of: process.pid))
    let sent = sentBytes.load(ordering: .relaxed) - sentWarm
    print("passthrough process flood: \(sent) bytes in 4 s, RSS \(warm) → \(after) KiB")
    // More than a 921,600-baud line carries in 4 s: the flood is a flood.
    #expect(sent > 400_000, "\(process.standardError.suffix(2000))")
    // Keeping a tenth of what flowed would show.
    #expect(after - warm < sent / 1024 / 10, "\(process.standardError.suffix(2000))")
    #expect(process.isRunning)
    withExtendedLifetime(client) {}
  }
}
