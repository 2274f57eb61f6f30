import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// `mockgps run --panel` as a process: the URL line, and a port in use.
@Suite(.blocking, .timeLimit(.minutes(10))) struct PanelProcessTests {
  @Test func panelZeroPicksAPortAndPrintsTheURL() throws {
    let scratch = try ScratchDirectory("panel")
    defer { scratch.remove() }
    let link = scratch.path + "/gps"
    let (process, _) = try MockGPSBinary.start([
      "--link", link, "--no-control", "--panel", "0", "--baud", "115200",
    ])
    defer { process.kill() }
    #expect(process.wait(seconds: 10) { process.standardError.contains("panel at http://") })
    let line = process.standardError.split(separator: "\n").first { $0.contains("panel at") }
    let match = try #require(
      line?.wholeMatch(
        of: /mockgps: panel at http:\/\/127\.0\.0\.1:([0-9]+)\/\?token=([0-9a-f]{32})/))
    #expect(Int(match.output.1).map { $0 > 0 && $0 < 65_536 } == true)
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 10) == 0)
    #expect(access(link, F_OK) != 0)
  }

  @Test func aPortInUseFailsTheRunWithNothingLeftBehind() throws {
    let scratch = try ScratchDirectory("panel-busy")
    defer { scratch.remove() }
    // A listener that holds a port.
    let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(holder) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    try withUnsafeMutablePointer(to: &address) { pointer in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        guard bind(holder, $0, length) == 0, listen(holder, 1) == 0,
          getsockname(holder, $0, &length) == 0
        else { throw TestFailure("cannot hold a port: errno \(errno)") }
      }
    }
    let port = UInt16(bigEndian: address.sin_port)
    let link = scratch.path + "/gps"
    let control = scratch.path + "/control.sock"
    let (status, output, error) = try MockGPSBinary.run([
      "run", "--link", link, "--control", control, "--panel", "\(port)",
    ])
    #expect(status == 1)
    #expect(
      error == "mockgps: cannot serve panel on 127.0.0.1:\(port): Address already in use\n")
    #expect(output.isEmpty)
    #expect(access(link, F_OK) != 0, "the link was left behind")
    #expect(access(control, F_OK) != 0, "the control socket was left behind")
  }

  @Test func onePanelServesEveryDeviceOfAConfig() throws {
    let scratch = try ScratchDirectory("panel-config")
    defer { scratch.remove() }
    let config = scratch.path + "/devices.json"
    let devices =
      #"[{"link": "\#(scratch.path)/gps0", "baud": 115200}, "#
      + #"{"link": "\#(scratch.path)/gps1", "profile": "ublox-m8"}]"#
    try #"{"devices": \#(devices)}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let process = try TestProcess(MockGPSBinary.path, ["run", "--config", config, "--panel", "0"])
    defer { process.kill() }
    #expect(process.wait(seconds: 10) { process.standardError.contains("panel at http://") })
    let url = try #require(
      process.standardError.split(separator: "\n").first { $0.contains("panel at") }?
        .split(separator: " ").last)
    let base = String(url.prefix { $0 != "?" })
    let token = String(url.split(separator: "=").last ?? "")
    let curl = try #require(findExecutable("curl"))
    let (status, listed, _) = try runProgram(
      curl, ["-s", "\(base)api/devices?token=\(token)"])
    #expect(status == 0)
    #expect(listed.contains(#"{"id":0,"link":"\#(scratch.path)/gps0","profile":"generic""#))
    #expect(listed.contains(#"{"id":1,"link":"\#(scratch.path)/gps1","profile":"ublox-m8""#))
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 10) == 0)
  }

  /// Runs a program to its end: status, standard output and standard error.
  func runProgram(_ path: String, _ arguments: [String]) throws -> (Int32?, String, String) {
    let process = try TestProcess(path, arguments)
    let status = process.exitStatus(within: 10)
    return (status, process.standardOutput, process.standardError)
  }
}
