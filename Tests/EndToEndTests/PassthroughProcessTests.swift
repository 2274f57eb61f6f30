import Foundation
import Glibc
import MockGPSTestSupport
import Synchronization
import TestFixtures
import Testing

/// `mockgps run --passthrough` as a process: how it refuses a device it cannot pass through,
/// and how it outlives a receiver that is unplugged and plugged back in (`FakeReceiver`).
@Suite(.blocking, .serialized) struct PassthroughProcessTests {
  @Test func aMissingDeviceExits66NamingIt() throws {
    let directory = try ScratchDirectory("passthrough-missing")
    defer { directory.remove() }
    let device = directory.path + "/ttyACM9"
    let link = directory.path + "/ttyOUT"
    let (status, output, errors) = try MockGPSBinary.run([
      "run", "--passthrough", device, "--link", link,
    ])
    #expect(status == 66, "\(errors)")
    #expect(errors == "mockgps: --passthrough: '\(device)' does not exist\n")
    #expect(output.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: link))
  }

  @Test func aFileThatIsNotATerminalExits1() throws {
    let directory = try ScratchDirectory("passthrough-notty")
    defer { directory.remove() }
    let link = directory.path + "/ttyOUT"
    let (status, _, errors) = try MockGPSBinary.run([
      "run", "--passthrough", "/dev/null", "--link", link,
    ])
    #expect(status == 1, "\(errors)")
    #expect(errors == "mockgps: --passthrough: '/dev/null' is not a terminal\n")
    #expect(!FileManager.default.fileExists(atPath: link))
  }

  /// This machine has no GNSS receiver: `auto` finds none, and says what it found instead.
  @Test func autoWithoutAReceiverExits66ListingWhatItFound() throws {
    let directory = try ScratchDirectory("passthrough-auto")
    defer { directory.remove() }
    let link = directory.path + "/ttyOUT"
    let (_, listing, _) = try MockGPSBinary.run(["devices"])
    let (status, _, errors) = try MockGPSBinary.run([
      "run", "--passthrough", "auto", "--link", link,
    ])
    #expect(status == 66, "\(errors)")
    #expect(errors.hasPrefix("mockgps: --passthrough auto"), "\(errors)")
    let devices = listing.split(whereSeparator: \.isWhitespace).filter { $0.hasPrefix("/dev/") }
    for device in devices {
      #expect(errors.contains(device), "\(device) missing from: \(errors)")
    }
    #expect(!FileManager.default.fileExists(atPath: link))
  }

  /// Unplugged, the receiver leaves the link in place and silent; plugged back in, its data
  /// flows again within 2 s, without a restart; both are logged.
  @Test func aReceiverUnpluggedAndPluggedBackInIsFollowed() throws {
    let directory = try ScratchDirectory("passthrough-hotplug")
    defer { directory.remove() }
    let receiver = try FakeReceiver(linkPath: directory.path + "/ttyREAL")
    defer { receiver.close() }
    let link = directory.path + "/ttyOUT"
    let (process, slave) = try MockGPSBinary.start([
      "--passthrough", receiver.linkPath, "--passthrough-baud", "9600", "--override", "off",
      "--link", link,
    ])
    defer { process.kill() }
    // Standard error is collected by another thread: the line may come after the start line.
    let passing = "passing through \(receiver.linkPath) at 9600 baud, override off"
    #expect(process.wait(seconds: 3) { process.standardError.contains(passing) })
    let feeder = try SentenceFeeder(receiver: receiver)
    defer { feeder.stop() }
    let client = try DeviceReader(path: link)
    #expect(client.readUntil(type: "GGA", timeoutSeconds: 3) != nil, "\(process.standardError)")

    receiver.unplug()
    let lost = "receiver '\(receiver.linkPath)' went away; the link stays up"
    #expect(process.wait(seconds: 3) { process.standardError.contains(lost) })
    #expect(process.isRunning)
    _ = client.readLines(10_000, timeoutSeconds: 0.3)
    #expect(client.readLines(1, timeoutSeconds: 0.5).isEmpty, "data while unplugged")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == slave)

    try receiver.replug()
    let replugged = DeviceReader.monotonicNanoseconds()
    let line = try #require(
      client.readUntil(type: "GGA", timeoutSeconds: 3), "\(process.standardError)")
    #expect(line.arrivalNanoseconds - replugged < 2_000_000_000)
    let back = "receiver '\(receiver.linkPath)' is back (after "
    #expect(process.wait(seconds: 1) { process.standardError.contains(back) })
    #expect(process.isRunning)
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == slave)
  }
}

/// Sends real GGA and RMC sentences (the first of a gpsd corpus log) through a fake receiver,
/// ten a second, whether it is plugged in or not, until stopped.
final class SentenceFeeder: Sendable {
  private let running = Atomic(true)
  private let finished = Atomic(false)

  init(receiver: FakeReceiver) throws {
    let lines = try Fixtures.nmeaLines(of: Fixtures.gpsdLog("ublox-zed-f9p-nmea.log"))
      .map(\.text).filter { $0.dropFirst(3).hasPrefix("GGA") || $0.dropFirst(3).hasPrefix("RMC") }
    try #require(!lines.isEmpty)
    Thread { [self] in
      var index = 0
      while running.load(ordering: .acquiring) {
        if receiver.isPluggedIn {
          receiver.send(lines[index % lines.count] + "\r\n")
          index += 1
        }
        usleep(100_000)
      }
      finished.store(true, ordering: .releasing)
    }.start()
  }

  /// Stops sending, and waits (up to 3 s) for the last send to end.
  func stop() {
    running.store(false, ordering: .releasing)
    let deadline = DeviceReader.monotonicNanoseconds() + 3_000_000_000
    while !finished.load(ordering: .acquiring), DeviceReader.monotonicNanoseconds() < deadline {
      usleep(10_000)
    }
  }
}
