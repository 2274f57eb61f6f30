import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// A `route` whose file takes seconds to read stalls nothing else: it is read on a thread of
/// its own while the I/O thread serves the other clients and the network output.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct RouteLoadProcessTests {
  /// Another client's `status` is answered before the `route` sent just before it, and the
  /// TCP output keeps its 5 Hz epochs while the file is read. Before, the I/O thread read the
  /// file: `status` came only after the route's reply, and the output stopped for the whole
  /// load: both waited as long as the load. So both are bounded by half the load's time (a
  /// loaded two-core machine can starve the epoch thread for seconds, which is no stall of
  /// ours), and the load must take at least 2 s (8 MB of CSV takes several in a debug build)
  /// for ten 5 Hz epochs to tell them apart.
  @Test func aLargeRouteLoadsWhileOtherClientsAndTheOutputAreServed() throws {
    let scratch = try ScratchDirectory("route-load")
    defer { scratch.remove() }
    let route = scratch.path + "/large.csv"
    try Fixtures.writeLargeCSVRoute(at: route, bytes: 8 << 20)
    let socket = scratch.path + "/control.sock"
    let process = try TestProcess(
      MockGPSBinary.path,
      [
        "run", "--link", scratch.path + "/gps", "--control", socket, "--rate", "5", "--tcp",
        "127.0.0.1:0",
      ])
    defer { process.kill() }
    #expect(process.wait(seconds: 10) { process.standardOutput.contains("serving tcp://") })
    let port = try #require(
      process.standardOutput.split(separator: ":").last.flatMap {
        UInt16($0.prefix { $0.isNumber })
      })
    let output = try #require(DescriptorLimitProcessTests.connect(port: port))
    defer { close(output) }
    let loader = try ControlClient(path: socket)
    let other = try ControlClient(path: socket)
    // The output's reads, timed on a thread of their own until the route is answered.
    let gaps = OutputGaps(socket: output)
    let reader = Thread { gaps.run() }
    reader.start()
    let start = Date()
    try loader.send(#"{"cmd":"route","file":"\#(route)"}"#)
    let status = try other.request(#"{"cmd":"status"}"#, seconds: 120)
    let statusSeconds = Date().timeIntervalSince(start)
    let routeReply = try loader.reply(seconds: 300)
    let loadSeconds = Date().timeIntervalSince(start)
    gaps.stop()
    while !gaps.isDone { usleep(10_000) }
    #expect(status["ok"] as? Bool == true)
    #expect(routeReply["ok"] as? Bool == true, "\(routeReply)")
    #expect(loadSeconds >= 2, "the load took \(loadSeconds) s: too fast to tell a stall apart")
    #expect(statusSeconds < loadSeconds / 2, "status after \(statusSeconds) s of \(loadSeconds)")
    #expect(
      gaps.largest < loadSeconds / 2,
      "the output stopped for \(gaps.largest) s up to \(gaps.largestEnd) s of \(loadSeconds)")
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 10) == 0)
  }

  /// A GeoJSON file past the route files' cap (a sparse gigabyte) is refused in one line that
  /// names the file and the limit, without reading it; the daemon goes on (before, one of
  /// 200 MB aborted it).
  @Test func aGeoJSONPastTheCapIsRefusedInOneLineAndTheDaemonGoesOn() throws {
    let scratch = try ScratchDirectory("route-cap")
    defer { scratch.remove() }
    let route = scratch.path + "/huge.geojson"
    let descriptor = open(route, O_CREAT | O_WRONLY, 0o600)
    try #require(descriptor >= 0)
    _ = write(descriptor, #"{"type": "#, 9)
    try #require(ftruncate(descriptor, 1 << 30) == 0)
    close(descriptor)
    let socket = scratch.path + "/control.sock"
    let process = try TestProcess(
      MockGPSBinary.path, ["run", "--link", scratch.path + "/gps", "--control", socket])
    defer { process.kill() }
    #expect(process.wait(seconds: 10) { FileManager.default.fileExists(atPath: socket) })
    let client = try ControlClient(path: socket)
    let reply = try client.request(#"{"cmd":"route","file":"\#(route)"}"#, seconds: 30)
    #expect(reply["ok"] as? Bool == false)
    #expect(
      reply["error"] as? String
        == "route: \(route): route file of 1073741824 bytes: at most 268435456 bytes are read;"
        + " thin the track (gpsbabel -x simplify) or split it")
    #expect(try client.request(#"{"cmd":"status"}"#)["ok"] as? Bool == true)
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 10) == 0)
  }
}

/// The largest gap between the reads of a TCP output, measured until stopped.
private final class OutputGaps: @unchecked Sendable {
  private let socket: Int32
  private let lock = NSLock()
  private var stopped = false
  private var done = false
  private var largestGap = 0.0
  /// When the largest gap ended, in seconds from the start.
  private var largestGapEnd = 0.0

  init(socket: Int32) { self.socket = socket }

  var largest: Double { lock.withLock { largestGap } }
  var largestEnd: Double { lock.withLock { largestGapEnd } }
  var isDone: Bool { lock.withLock { done } }
  func stop() { lock.withLock { stopped = true } }

  func run() {
    let begin = Date()
    var last = begin
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !lock.withLock({ stopped }) {
      var request = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      if poll(&request, 1, 100) > 0 {
        guard read(socket, &buffer, buffer.count) > 0 else { break }
        let now = Date()
        lock.withLock {
          if now.timeIntervalSince(last) > largestGap {
            largestGap = now.timeIntervalSince(last)
            largestGapEnd = now.timeIntervalSince(begin)
          }
        }
        last = now
      }
    }
    let end = Date().timeIntervalSince(last)
    lock.withLock {
      largestGap = max(largestGap, end)
      done = true
    }
  }
}
