import Foundation
import Glibc
import MockGPSTestSupport
import SystemIO
import TestFixtures
import Testing

/// `mockgps run --replay` as a process: on a real pseudo-terminal, read by a test client or by
/// the real gpsd.
@Suite(.blocking, .serialized) struct ReplayProcessTests {
  /// A raw NMEA log from real data: the sentences of one of gpsd's regression logs (a u-blox
  /// NEO-5Q at 1 Hz, GGA RMC ZDA) without its comment lines, `copies` times over.
  static func rawLog(in directory: ScratchDirectory, copies: Int = 1) throws -> (String, [UInt8]) {
    let lines = try Fixtures.nmeaLines(of: Fixtures.gpsdLog("firefly-II.log"))
    let once = lines.map { $0.text + "\r\n" }.joined()
    let bytes = Array(String(repeating: once, count: copies).utf8)
    let path = directory.path + "/drive.log"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return (path, bytes)
  }

  /// Reads from the device at `path` until `count` bytes or `seconds` have passed.
  static func read(
    _ path: String, count: Int, seconds: Double, chunk: Int = 4096, pauseMicroseconds: UInt32 = 0
  ) throws -> [UInt8] {
    let device = try FileDescriptor.open(path, flags: O_RDWR | O_NOCTTY | O_NONBLOCK)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: chunk)
    let deadline = Date().addingTimeInterval(seconds)
    while received.count < count, Date() < deadline {
      let ready = try Poll.wait([device.pollRequest(.readable)], timeoutMilliseconds: 20)
      guard ready.first?.contains(.readable) == true,
        case .transferred(let got) = (try? device.read(into: &buffer)) ?? .wouldBlock, got > 0
      else { continue }
      received += buffer.prefix(got)
      if pauseMicroseconds > 0 { usleep(pauseMicroseconds) }
    }
    return received
  }

  @Test func aMissingLogExits66BeforeAnyDeviceExists() throws {
    let directory = try ScratchDirectory("replay-missing")
    defer { directory.remove() }
    let link = directory.path + "/tty"
    let (status, output, errors) = try MockGPSBinary.run([
      "run", "--replay", directory.path + "/none.log", "--link", link,
    ])
    #expect(status == 66)
    #expect(errors == "\(directory.path)/none.log: No such file or directory\n")
    #expect(output == "")
    #expect(!FileManager.default.fileExists(atPath: link))
  }

  @Test func aLogWithNothingToReplayExits65() throws {
    let directory = try ScratchDirectory("replay-empty")
    defer { directory.remove() }
    let path = directory.path + "/comments.log"
    try "# Serial: 4800 8N1\n# nothing else\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    let link = directory.path + "/tty"
    let (status, _, errors) = try MockGPSBinary.run(["run", "--replay", path, "--link", link])
    #expect(status == 65)
    #expect(errors.hasPrefix(path), "\(errors)")
    #expect(errors.split(separator: "\n").count == 1, "\(errors)")
    #expect(!FileManager.default.fileExists(atPath: link))
  }

  /// `--once` waits until the client has read the last byte: a client that reads 1 KiB every
  /// 50 ms gets every byte of a log far larger than what the pseudo-terminal holds.
  @Test func onceExitsZeroAfterASlowClientReadEveryByte() throws {
    let directory = try ScratchDirectory("replay-once")
    defer { directory.remove() }
    let (log, bytes) = try Self.rawLog(in: directory, copies: 12)
    let link = directory.path + "/tty"
    let (process, _) = try MockGPSBinary.start([
      "--replay", log, "--link", link, "--once", "--baud", "0", "--wait-for-client", "--time-scale",
      "1000000",
      "--settle", "0",
    ])
    defer { process.kill() }
    let received = try Self.read(
      link, count: bytes.count, seconds: 10, chunk: 1024, pauseMicroseconds: 50_000)
    #expect(received.count == bytes.count)
    #expect(received == bytes)
    #expect(process.exitStatus(within: 5) == 0, "\(process.standardError)")
    #expect(process.standardError.contains("0 epochs (0 bytes) without a client"))
    #expect(!FileManager.default.fileExists(atPath: link))
  }

  /// Without a client the log plays into the void, as a receiver on an unplugged line: lost,
  /// counted, and `--once` ends at its end. A log made for gpsd's UDP transport is replayed on
  /// the pseudo-terminal all the same, with a warning.
  @Test func withoutAClientTheLogIsLostAndCountedAndAUDPLogIsWarnedAbout() throws {
    let directory = try ScratchDirectory("replay-void")
    defer { directory.remove() }
    let (_, bytes) = try Self.rawLog(in: directory)
    let log = directory.path + "/udp.log"
    try Data(Array("# Transport: UDP\n".utf8) + bytes).write(to: URL(fileURLWithPath: log))
    let (status, _, errors) = try MockGPSBinary.run([
      "run", "--replay", log, "--link", directory.path + "/tty", "--once", "--baud", "0",
      "--time-scale", "1000000",
    ])
    #expect(status == 0, "\(errors)")
    #expect(
      errors.contains(
        "warning: \(log): '# Transport: UDP' is for gpsd's test harness; mockgps replays it on "
          + "the pseudo-terminal"), "\(errors)")
    #expect(errors.contains("sent 0 epochs (0 packets, 0 bytes)"), "\(errors)")
    #expect(errors.contains("bytes) without a client"), "\(errors)")
  }

  @Test func loopStartsTheLogAgainAfterItsEnd() throws {
    let directory = try ScratchDirectory("replay-loop")
    defer { directory.remove() }
    let (log, bytes) = try Self.rawLog(in: directory)
    let link = directory.path + "/tty"
    let (process, _) = try MockGPSBinary.start([
      "--replay", log, "--link", link, "--loop", "--baud", "0", "--wait-for-client",
      "--settle", "0", "--time-scale", "1000000",
    ])
    defer { process.kill() }
    let received = try Self.read(link, count: 2 * bytes.count, seconds: 5)
    #expect(received.count >= 2 * bytes.count, "\(process.standardError)")
    #expect(Array(received.prefix(bytes.count)) == bytes)
    #expect(Array(received.dropFirst(bytes.count).prefix(bytes.count)) == bytes)
    #expect(process.isRunning)
  }

  @Test func sigtermMidReplayRemovesTheLinkAndExitsZero() throws {
    let directory = try ScratchDirectory("replay-term")
    defer { directory.remove() }
    let (log, _) = try Self.rawLog(in: directory)
    let link = directory.path + "/tty"
    let (process, _) = try MockGPSBinary.start([
      "--replay", log, "--link", link, "--baud", "4800", "--wait-for-client", "--settle", "0",
    ])
    defer { process.kill() }
    let received = try Self.read(link, count: 300, seconds: 3)
    #expect(received.count >= 300)
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 5) == 0, "\(process.standardError)")
    #expect(!FileManager.default.fileExists(atPath: link))
    #expect(process.standardError.contains("SIGTERM: removing \(link)"))
  }

  /// gpsd reads a replayed regression log as it reads it from gpsfake: the TPV reports of the
  /// log's `.chk` file, in order.
  @Test(.enabled(if: GpsdSession.runnable))
  func gpsdGivesTheTPVsOfTheLogsCheckFile() throws {
    let log = try Fixtures.gpsdLog("firefly-II.log")
    let expected = try String(contentsOf: log.appendingPathExtension("chk"), encoding: .utf8)
      .split(whereSeparator: \.isNewline).compactMap(Self.tpv)
    try #require(expected.count == 23)
    let directory = try ScratchDirectory("replay-gpsd")
    defer { directory.remove() }
    let link = directory.path + "/ttyGPS"
    let (process, _) = try MockGPSBinary.start([
      "--replay", log.path, "--link", link, "--wait-for-client", "--once", "--baud", "0",
      "--time-scale", "1000",
    ])
    defer { process.kill() }
    let session = try GpsdSession(
      device: link, directory: directory, readOnly: true, reports: 1000)
    defer { session.stop() }
    let tpvs = {
      session.pipe.standardOutput.split(whereSeparator: \.isNewline).compactMap(Self.tpv)
    }
    session.pipe.wait(seconds: 15) { tpvs().count >= expected.count }
    #expect(tpvs() == expected, "\(session.transcript)")
    #expect(process.exitStatus(within: 15) == 0, "\(process.standardError)")
  }

  /// A TPV report without the device it came from (regress-driver's captures have none).
  static func tpv(_ line: Substring) -> NSDictionary? {
    guard line.contains("\"class\":\"TPV\""),
      var object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    else { return nil }
    object["device"] = nil
    return object as NSDictionary
  }
}
