import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// `--gpsd-socket`: a gpsd started with only its control socket (`-F`) and no device picks up
/// mockgps without a restart, drops the device when mockgps stops, and picks it up again when
/// mockgps starts again.
@Suite(.blocking, .serialized) struct GpsdHotplugTests {
  @Test(.enabled(if: GpsdSession.runnable), .timeLimit(.minutes(10)))
  func gpsdPicksUpTheDeviceOnStartDropsItOnStopAndPicksItUpAgain() throws {
    let directory = try ScratchDirectory("gpsd-hotplug")
    defer { directory.remove() }
    let (link, socket) = (directory.path + "/ttyMOCKGPS", directory.path + "/gpsd.sock")
    let gpsd = try DevicelessGpsd(socket: socket)
    defer { gpsd.stop() }

    for (round, latitude) in [-33.856784, 35.658581].enumerated() {
      let (emulator, _) = try MockGPSBinary.start([
        "--link", link, "--gpsd-socket", socket, "--rate", "5", "--baud", "115200",
        "--position", "\(latitude),151.215297,4",
      ])
      defer { emulator.kill() }
      #expect(
        emulator.wait(seconds: 5) {
          emulator.standardError.contains("told gpsd at \(socket) about \(link)")
        })
      try gpsd.reports.next(within: 20, "the position of round \(round + 1)") {
        $0.mode == 3 && $0.isNear(latitude, 151.215297)
      }
      emulator.signal(SIGTERM)
      #expect(emulator.exitStatus(within: 10) == 0, "\(emulator.standardError)")
      #expect(emulator.standardError.contains("told gpsd at \(socket) to drop \(link)"))
      // Dropped, not merely closed: a device whose reads fail stays in gpsd's list.
      #expect(try gpsd.devices() == [], "\(gpsd.session.transcript)")
    }
  }

  @Test(.timeLimit(.minutes(10)))
  func withoutGpsdTheRunGoesOnWithAWarning() throws {
    let directory = try ScratchDirectory("gpsd-hotplug")
    defer { directory.remove() }
    let (link, socket) = (directory.path + "/ttyMOCKGPS", directory.path + "/gpsd.sock")
    let (emulator, _) = try MockGPSBinary.start(["--link", link, "--gpsd-socket", socket])
    defer { emulator.kill() }
    let warning =
      "warning: cannot tell gpsd at '\(socket)' about \(link): nothing is listening on "
      + "'\(socket)'; going on without (a gpsd started later is not told)"
    #expect(
      emulator.wait(seconds: 5) { emulator.standardError.contains(warning) },
      "\(emulator.standardError)")
    #expect(emulator.isRunning)
    emulator.signal(SIGTERM)
    #expect(emulator.exitStatus(within: 10) == 0)
    #expect(emulator.standardError.contains("cannot tell gpsd at '\(socket)' to drop \(link)"))
  }
}

extension GpsdSession {
  init(daemon: TestProcess, pipe: TestProcess, port: Int) {
    self.daemon = daemon
    self.pipe = pipe
    self.port = port
  }
}

/// gpsd with a control socket and no device, and gpspipe watching every device it gets.
struct DevicelessGpsd {
  let session: GpsdSession
  let reports: TPVWatch
  let port: Int

  init(socket: String) throws {
    let gpsd = try #require(GpsdSession.gpsd, "gpsd is not installed (scripts/test installs it)")
    let gpspipe = try #require(GpsdSession.gpspipe, "gpspipe is not installed")
    let port = try GpsdSession.freePort()
    self.port = port
    let daemon = try TestProcess(gpsd, ["-N", "-n", "-b", "-S", String(port), "-F", socket])
    guard daemon.wait(seconds: 5, until: { GpsdSession.listening(port) }) else {
      daemon.kill()
      throw TestFailure("gpsd did not start: \(daemon.standardError)")
    }
    let pipe = try TestProcess(gpspipe, ["-w", "-n", "100000", "127.0.0.1:\(port)"])
    session = GpsdSession(daemon: daemon, pipe: pipe, port: port)
    reports = TPVWatch(session)
  }

  /// The paths of the devices gpsd has now (its answer to `?DEVICES;`).
  func devices() throws -> [String] {
    let query = try TestProcess(
      "/usr/bin/env",
      [
        "python3", "-c",
        """
        import socket, sys
        c = socket.create_connection(("127.0.0.1", \(port)), timeout=5)
        c.sendall(b"?DEVICES;\\n")
        for line in c.makefile():
            if '"class":"DEVICES"' in line:
                print(line.strip())
                break
        """,
      ])
    guard query.exitStatus(within: 10) == 0,
      let reply = try JSONSerialization.jsonObject(with: Data(query.standardOutput.utf8))
        as? [String: Any], let devices = reply["devices"] as? [[String: Any]]
    else { throw TestFailure("?DEVICES: \(query.standardOutput) \(query.standardError)") }
    return devices.compactMap { $0["path"] as? String }
  }

  func stop() { session.stop() }
}
