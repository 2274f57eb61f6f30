import DeviceRuntime
import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import Panel
import Receiver
import SystemIO
import TestFixtures

/// An emulator at 10 Hz on a unique link with a panel on a free loopback port, both stopped
/// by `stop()`.
final class PanelFixture {
  let emulator: Emulator
  let panel: PanelServer
  let directory: String
  var port: UInt16 { panel.address.port }
  var token: String { String(panel.url.split(separator: "=").last ?? "") }

  /// `filesDirectory`, relative to the fixture's folder, is the panel's `--panel-files`.
  init(rateHz: Double = 10, filesDirectory: String? = nil) throws {
    var template = Array("/tmp/mockgps-panel-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw HTTPFailure("mkdtemp") }
    directory = String(cString: made)
    // The panel opens its folder at start: it exists before.
    if let filesDirectory { mkdir(directory + "/" + filesDirectory, 0o755) }
    let configuration = EmulatorConfiguration(
      linkPath: directory + "/tty", cadence: try CadencePlan(rateHz: rateHz),
      pacing: try BytePacing(baud: 115_200))
    emulator = try Emulator(configuration: configuration, log: Log(level: .error, sink: { _ in }))
    do {
      try emulator.start()
      panel = try PanelServer(
        listener: try PanelServer.listen(on: InternetAddress(host: "127.0.0.1", port: 0)),
        emulators: [emulator], token: try PanelToken.random(),
        filesDirectory: filesDirectory.map { [directory] in directory + "/" + $0 })
    } catch {
      emulator.stop()
      throw error
    }
  }

  /// `target` with the token appended to its query.
  func withToken(_ target: String) -> String {
    target + (target.contains("?") ? "&" : "?") + "token=" + token
  }

  func request(
    _ method: String, _ target: String, host: String? = nil, headers: [String] = [],
    body: [UInt8] = []
  ) throws -> HTTPReply {
    try HTTPReply.fetch(
      port: port, method: method, target: target, host: host ?? "127.0.0.1:\(port)",
      headers: headers, body: body)
  }

  func stop() {
    panel.stop()
    emulator.stop()
    try? FileManager.default.removeItem(atPath: directory)
  }
}

struct HTTPFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A raw loopback HTTP/1.1 client for the tests (the server side is libmicrohttpd's).
struct HTTPReply {
  var status: Int
  var headers: [(name: String, value: String)]
  var body: String

  /// The body without its chunked transfer coding (as much as arrived).
  var unchunkedBody: String {
    guard header("Transfer-Encoding") == "chunked" else { return body }
    var bytes = Array(body.utf8)[...]
    var result: [UInt8] = []
    while let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\r")),
      let size = Int(String(decoding: bytes[..<lineEnd], as: UTF8.self), radix: 16), size > 0
    {
      let start = lineEnd + 2
      let end = min(bytes.endIndex, start + size)
      guard start <= end else { break }
      result += bytes[start..<end]
      bytes = bytes[min(bytes.endIndex, end + 2)...]
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// The first value of a header, by name in any case.
  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// Connects to 127.0.0.1:`port`, sending `receiveBuffer` as SO_RCVBUF when given.
  static func connect(port: UInt16, receiveBuffer: Int32? = nil) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw HTTPFailure("socket") }
    if var size = receiveBuffer {
      setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(descriptor)
      throw HTTPFailure("connect: errno \(errno)")
    }
    return descriptor
  }

  /// Writes the whole request.
  static func send(
    _ descriptor: Int32, method: String, target: String, host: String, headers: [String],
    body: [UInt8]
  ) throws {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
    for header in headers { text += header + "\r\n" }
    if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.count)\r\n" }
    text += "\r\n"
    let bytes = Array(text.utf8) + body
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw HTTPFailure("send: errno \(errno)") }
      sent += count
    }
  }

  /// Reads what arrives within `seconds` or until the server closes.
  static func read(_ descriptor: Int32, seconds: Double, until: ([UInt8]) -> Bool = { _ in false })
    -> [UInt8]
  {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let deadline = DeviceReader.monotonicNanoseconds() + Int64(seconds * 1e9)
    while !until(received) {
      let left = deadline - DeviceReader.monotonicNanoseconds()
      guard left > 0 else { break }
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&request, 1, Int32(left / 1_000_000) + 1) > 0 else { continue }
      let count = Glibc.read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      received += buffer[..<count]
    }
    return received
  }

  /// One request on its own connection, answered whole.
  static func fetch(
    port: UInt16, method: String, target: String, host: String, headers: [String],
    body: [UInt8]
  ) throws -> HTTPReply {
    let descriptor = try connect(port: port)
    defer { close(descriptor) }
    try send(
      descriptor, method: method, target: target, host: host,
      headers: headers + ["Connection: close"], body: body)
    let raw = String(decoding: read(descriptor, seconds: 10), as: UTF8.self)
    guard let reply = parse(raw) else { throw HTTPFailure("no reply: \(raw.debugDescription)") }
    return reply
  }

  /// The status line, headers and body of a reply.
  static func parse(_ raw: String) -> HTTPReply? {
    guard let end = raw.firstRange(of: "\r\n\r\n") else { return nil }
    let lines = raw[..<end.lowerBound].split(separator: "\r\n")
    let parts = lines.first?.split(separator: " ") ?? []
    guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
    let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces)
    }
    return HTTPReply(status: status, headers: headers, body: String(raw[end.upperBound...]))
  }
}

extension StringProtocol {
  var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
