import Foundation
import Glibc
import Testing

/// The real gpsd watching a device, and `gpspipe -w` reading its reports: started together,
/// always ended by `stop()`.
struct GpsdSession {
  static let gpsd = findExecutable("gpsd")
  static let gpspipe = findExecutable("gpspipe")
  static let required = ProcessInfo.processInfo.environment["MOCKGPS_REQUIRE_GPSD"] == "1"
  /// True when the tests that need gpsd can run: installed, or required (then they fail).
  static let runnable = (gpsd != nil && gpspipe != nil) || required

  let daemon: TestProcess
  let pipe: TestProcess
  /// gpsd's TCP port on 127.0.0.1, for other clients (`ubxtool`, `gpsrinex`).
  let port: Int

  /// Starts gpsd on `device` (read-only with `readOnly`, so it does not probe) and gpspipe
  /// for `reports` JSON reports.
  init(device: String, directory: ScratchDirectory, readOnly: Bool, reports: Int) throws {
    let gpsd = try #require(Self.gpsd, "gpsd is not installed (scripts/test installs it)")
    let gpspipe = try #require(Self.gpspipe, "gpspipe is not installed")
    let port = try Self.freePort()
    self.port = port
    daemon = try TestProcess(
      gpsd,
      ["-N", "-n"] + (readOnly ? ["-b"] : [])
        + ["-S", String(port), "-F", directory.path + "/gpsd.sock", device])
    #expect(daemon.wait(seconds: 5) { Self.listening(port) })
    pipe = try TestProcess(gpspipe, ["-w", "-n", String(reports), "127.0.0.1:\(port)"])
  }

  /// Waits up to `seconds` for gpspipe to have its reports, and returns them all, parsed.
  func reports(within seconds: Double) -> [[String: Any]] {
    _ = pipe.exitStatus(within: seconds)
    return pipe.standardOutput.split(whereSeparator: \.isNewline).compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// The reports of one class (`TPV`, `SKY`).
  func reports(_ reportClass: String, within seconds: Double) -> [[String: Any]] {
    reports(within: seconds).filter { $0["class"] as? String == reportClass }
  }

  /// What gpsd and gpspipe wrote, for a failure message.
  var transcript: String {
    "gpspipe: \(pipe.standardOutput.prefix(1500)) gpsd: \(daemon.standardError.prefix(1500))"
  }

  func stop() {
    pipe.kill()
    daemon.kill()
  }

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
