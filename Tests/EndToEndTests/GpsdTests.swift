import Foundation
import Glibc
import MockGPSTestSupport
import Testing

/// The real gpsd 3.22 on the emulator's link, read back with `gpspipe -w`.
///
/// `scripts/test` installs gpsd and sets MOCKGPS_REQUIRE_GPSD=1, so there a missing gpsd fails
/// instead of skipping.
@Suite(.serialized) struct GpsdTests {
  static let gpsd = findExecutable("gpsd")
  static let gpspipe = findExecutable("gpspipe")
  static let required = ProcessInfo.processInfo.environment["MOCKGPS_REQUIRE_GPSD"] == "1"
  static let runnable = (gpsd != nil && gpspipe != nil) || required

  /// A TCP port nobody listens on now.
  static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
      }
    }
    guard bound else { throw TestFailure("no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  @Test(.enabled(if: runnable), arguments: [true, false])
  func gpsdGetsA3DFixAtExactlyTheEmittedPosition(readOnly: Bool) throws {
    let gpsd = try #require(Self.gpsd, "gpsd is not installed (scripts/test installs it)")
    let gpspipe = try #require(Self.gpspipe, "gpspipe is not installed")
    let directory = try ScratchDirectory("gpsd")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let (latitude, longitude) = (-33.856784, 151.215297)
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--position", "\(latitude),\(longitude),4", "--rate", "5", "--baud",
      "115200", "-v",
    ])
    defer { emulator.kill() }
    let port = try Self.freePort()
    let daemon = try TestProcess(
      gpsd,
      ["-N", "-n"] + (readOnly ? ["-b"] : [])
        + ["-S", String(port), "-F", directory.path + "/gpsd.sock", link])
    defer { daemon.kill() }
    #expect(daemon.wait(seconds: 5) { Self.listening(port) })
    let pipe = try TestProcess(gpspipe, ["-w", "-n", "25", "127.0.0.1:\(port)"])
    defer { pipe.kill() }
    _ = pipe.exitStatus(within: 30)
    let reports = pipe.standardOutput.split(whereSeparator: \.isNewline).compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let fixes = reports.filter { $0["class"] as? String == "TPV" && $0["mode"] as? Int == 3 }
    let fix = try #require(
      fixes.last,
      "no 3D TPV in: \(pipe.standardOutput.prefix(1500)) gpsd: \(daemon.standardError.prefix(1500))"
    )
    #expect(abs((fix["lat"] as? Double ?? 0) - latitude) <= 2e-7)
    #expect(abs((fix["lon"] as? Double ?? 0) - longitude) <= 2e-7)
    #expect(abs((fix["altMSL"] as? Double ?? 0) - 4) < 0.05)
    let sky = try #require(
      reports.last { $0["class"] as? String == "SKY" && $0["satellites"] != nil })
    let satellites = try #require(sky["satellites"] as? [[String: Any]])
    #expect(satellites.count == 10)
    #expect(satellites.filter { $0["used"] as? Bool == true }.count == 8)
    if !readOnly {
      // Without -b gpsd probes the receiver; the probes reach the command hook.
      #expect(emulator.standardError.contains("client sent $PMTK605*31"))
    }
  }

  static func listening(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}

/// Every sentence read from the device is accepted by two independent parsers.
@Suite(.serialized) struct IndependentParserTests {
  static let python = findExecutable("python3")

  @Test func pynmea2AndPynmeagpsAcceptEveryEmittedSentence() throws {
    let directory = try ScratchDirectory("pynmea")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--position", "-45.8775915,170.500124833,14.2", "--rate", "5", "--baud", "0",
    ])
    defer { emulator.kill() }
    let capture = directory.path + "/capture.nmea"
    let reader = try DeviceReader(path: link)
    let lines = reader.readLines(45, timeoutSeconds: 5).map(\.text)
    #expect(lines.count == 45)
    try lines.map { $0 + "\r\n" }.joined().write(
      toFile: capture, atomically: true, encoding: .ascii)
    let script = ToolPaths.tools + "/validate_nmea.py"
    let check = try TestProcess(
      "/usr/bin/env", ["python3", script, capture, "-45.8775915", "170.500124833"])
    let status = check.exitStatus(within: 30)
    #expect(status == 0, "\(check.standardOutput)\(check.standardError)")
    #expect(check.standardOutput.contains("'GSV'"))
  }
}

enum ToolPaths {
  static let tools = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tools").path
}
