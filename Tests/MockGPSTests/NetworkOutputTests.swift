import DeviceRuntime
import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import Receiver
import Servers
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// A started emulator with network outputs, in a temporary directory.
final class NetworkEmulator {
  let emulator: Emulator
  let directory: String
  /// The first sentence type of every epoch, as the epoch thread hands them out.
  let epochStarts = EpochStarts()
  /// The first line of each epoch, whole (its time tells the epochs apart), in order.
  let epochFirstLines = EpochStarts()

  init(rateHz: Double = 20, tcp: InternetAddress? = nil, udp: InternetAddress? = nil) throws {
    directory = NSTemporaryDirectory() + "mockgps-network-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var configuration = EmulatorConfiguration(
      linkPath: directory + "/ttyMOCKGPS", cadence: try CadencePlan(rateHz: rateHz),
      pacing: try BytePacing(baud: 0))
    configuration.tcp = tcp
    configuration.udp = udp
    do {
      emulator = try Emulator(configuration: configuration, log: Log(level: .error, sink: { _ in }))
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
    let (starts, firstLines) = (epochStarts, epochFirstLines)
    emulator.addEpochListener { epoch in
      let line = epoch.packets.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
      starts.withLock { $0.append(NetworkClient.type(of: line)) }
      firstLines.withLock {
        $0.append(String(line.prefix { !$0.isNewline }))
      }
    }
    do {
      try emulator.start()
    } catch {
      stop()
      throw error
    }
  }

  var epochCount: Int { epochStarts.withLock { $0.count } }

  func stop() {
    emulator.stop()
    try? FileManager.default.removeItem(atPath: directory)
  }
}

/// The first sentence type of each epoch, in order.
final class EpochStarts: Sendable {
  private let types = Mutex<[String]>([])

  func withLock<Result>(_ body: (inout [String]) -> Result) -> Result {
    types.withLock { body(&$0) }
  }
}

/// A plain TCP or UDP socket of a test, with blocking reads bounded by a timeout.
final class NetworkClient {
  let descriptor: Int32

  /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks its receive queue first.
  init(tcpPort port: UInt16, receiveBuffer: Int32? = nil) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if var size = receiveBuffer {
      setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = Self.loopback(port: port)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    setTimeout(milliseconds: 200)
  }

  /// A UDP socket bound to a free port of 127.0.0.1.
  init(udp: Void) throws {
    descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    var address = Self.loopback(port: 0)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else { throw POSIXError(.EADDRINUSE) }
    setTimeout(milliseconds: 200)
  }

  deinit { close(descriptor) }

  var port: UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    return UInt16(bigEndian: address.sin_port)
  }

  static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    return address
  }

  func setTimeout(milliseconds: Int) {
    var time = timeval(tv_sec: 0, tv_usec: milliseconds * 1000)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
  }

  /// What arrives for `seconds` (one read or datagram an element).
  func receive(seconds: Double) -> [[UInt8]] {
    receiveUntilEnd(seconds: seconds).chunks
  }

  /// What arrives within `seconds`, and whether the stream ended meanwhile (closed or reset by
  /// the server).
  func receiveUntilEnd(seconds: Double) -> (chunks: [[UInt8]], ended: Bool) {
    let deadline = Date().addingTimeInterval(seconds)
    var chunks: [[UInt8]] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while Date() < deadline {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count == 0 { return (chunks, true) }
      if count > 0 {
        chunks.append(Array(buffer.prefix(count)))
      } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
        return (chunks, true)
      }
    }
    return (chunks, false)
  }

  /// The talker and sentence type of a line: `GPRMC`.
  static func type(of line: String) -> String {
    String(line.dropFirst().prefix { $0 != "," })
  }

  /// True when a line is `$...*HH` with the right checksum.
  static func hasGoodChecksum(_ line: Substring) -> Bool {
    guard line.first == "$", let star = line.lastIndex(of: "*") else { return false }
    let sum = line[line.index(after: line.startIndex)..<star].utf8.reduce(UInt8(0), ^)
    return line[line.index(after: star)...] == String(format: "%02X", sum)
  }

  /// The whole lines of what a client read until it stopped (cut after the last line feed),
  /// checked as `lines` does.
  static func wholeLines(_ bytes: [UInt8]) -> [Substring]? {
    guard let end = bytes.lastIndex(of: 10) else { return nil }
    return lines(Array(bytes.prefix(through: end)))
  }

  /// Splits a stream into lines, checking that it is whole lines with good checksums.
  static func lines(_ bytes: [UInt8]) -> [Substring]? {
    let text = String(decoding: bytes, as: UTF8.self)
    guard text.hasSuffix("\r\n") else { return nil }
    let lines = text.split(separator: "\r\n")
    return lines.allSatisfy(hasGoodChecksum) ? lines : nil
  }
}

@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct NetworkOutputTests {
  static let anyLoopbackPort = InternetAddress(host: "127.0.0.1", port: 0)

  static func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
    Eventually.holds(within: seconds, intervalMicroseconds: 10_000, condition)
  }

  @Test func everyTCPClientGetsWholeEpochsFromTheFirstOn() throws {
    let running = try NetworkEmulator(tcp: Self.anyLoopbackPort)
    defer { running.stop() }
    let output = try #require(running.emulator.tcpOutput)
    #expect(output.address.port != 0)
    let clients = try (0..<8).map { _ in try NetworkClient(tcpPort: output.address.port) }
    #expect(Self.wait { output.statistics.clients == 8 })
    #expect(Self.wait { running.epochCount > 0 })
    let before = running.epochCount
    // Each client reads in turn, half a second, so the later ones read what waited for them
    // too; then on until it has the epoch that was the last due when its half second ended
    // (a count at the end of a fixed read missed the epochs a loaded machine held in flight).
    // Its epochs, told apart by their first lines' times, are then exactly the ones recorded
    // from its first on: none lost, none twice, in order.
    for client in clients {
      var stream = client.receive(seconds: 0.5).flatMap { $0 }
      let recorded = running.epochFirstLines.withLock { $0 }
      let last = try #require(recorded.last)
      func firstLines() -> [String] {
        (NetworkClient.wholeLines(stream) ?? []).map(String.init).filter {
          NetworkClient.type(of: $0) == NetworkClient.type(of: last)
        }
      }
      _ = Eventually.holds(within: 10, intervalMicroseconds: 1_000) {
        stream += client.receive(seconds: 0.02).flatMap { $0 }
        return firstLines().contains(last)
      }
      let lines = try #require(NetworkClient.wholeLines(stream))
      #expect(
        NetworkClient.type(of: String(try #require(lines.first))) == NetworkClient.type(of: last))
      let received = firstLines()
      let through = try #require(received.firstIndex(of: last), "the client never got \(last)")
      let first = try #require(recorded.firstIndex(of: received[0]))
      #expect(first <= before, "from the first epoch after it connected on")
      let got = Array(received[...through])
      let sent = Array(recorded[first...])
      let same = zip(got, sent).prefix { $0 == $1 }.count
      let difference =
        "\(got.count) epochs got, \(sent.count) sent; from \(same): got "
        + "\(got.dropFirst(same).prefix(3)), sent \(sent.dropFirst(same).prefix(3))"
      #expect(got == sent, "\(difference)")
    }
    #expect(output.statistics.epochsDropped == 0)
  }

  @Test func aSlowClientLosesWholeEpochsWhileAFastOneGetsEveryEpoch() throws {
    let running = try NetworkEmulator(tcp: Self.anyLoopbackPort)
    defer { running.stop() }
    let output = try #require(running.emulator.tcpOutput)
    let slow = try NetworkClient(tcpPort: output.address.port, receiveBuffer: 2048)
    let fast = try NetworkClient(tcpPort: output.address.port)
    #expect(Self.wait { output.statistics.clients == 2 })
    let first = running.epochCount
    var fastBytes: [UInt8] = []
    while output.statistics.epochsDropped < 10 {
      fastBytes += fast.receive(seconds: 0.1).flatMap { $0 }
      guard running.epochCount - first < 400 else { break }
    }
    let dropped = output.statistics.epochsDropped
    #expect(dropped >= 10)
    fastBytes += fast.receive(seconds: 0.2).flatMap { $0 }
    let last = running.epochCount
    let epochStart = try #require(running.epochStarts.withLock { $0.last })
    let fastLines = try #require(NetworkClient.wholeLines(fastBytes))
    let fastEpochs = fastLines.filter { NetworkClient.type(of: String($0)) == epochStart }.count
    // Every epoch due while it was connected (give or take the ones at each end).
    #expect(fastEpochs >= last - first - 3)
    // Every drop is the slow client's, and what it gets is whole epochs.
    let slowBytes = slow.receive(seconds: 1.0).flatMap { $0 }
    let slowLines = try #require(NetworkClient.wholeLines(slowBytes))
    #expect(NetworkClient.type(of: String(try #require(slowLines.first))) == epochStart)
  }

  /// A client that takes nothing for the stall limit while its epoch waits is disconnected (its
  /// slot freed, counted), while one that reads keeps its connection. Before, a client that
  /// never read held its slot for as long as it stayed connected.
  @Test func aClientThatTakesNothingIsDisconnectedAfterTheStallLimit() throws {
    let io = try IOLoop(name: "test-tcp-stall")
    try io.start()
    defer { io.stop() }
    let output = try TCPOutput(
      address: Self.anyLoopbackPort, io: io, stallLimitNanoseconds: 1_000_000_000)
    try output.start()
    defer { output.stop() }
    let silent = try NetworkClient(tcpPort: output.address.port, receiveBuffer: 2048)
    let reader = try NetworkClient(tcpPort: output.address.port)
    #expect(Self.wait { output.statistics.clients == 2 })
    let epoch = Array(String(repeating: "$GPTXT,01,01,02,stall*00\r\n", count: 160).utf8)
    let started = Date()
    var read = 0
    // Epochs every 0.1 s until the silent client is cut, for at most 6 s.
    while output.statistics.stalled == 0, Date().timeIntervalSince(started) < 6 {
      output.send(epoch)
      read += reader.receive(seconds: 0.1).reduce(0) { $0 + $1.count }
    }
    let elapsed = Date().timeIntervalSince(started)
    #expect(output.statistics.stalled == 1, "the silent client is cut")
    #expect(elapsed >= 1, "not before the stall limit: \(elapsed) s")
    #expect(Self.wait { output.statistics.clients == 1 })
    #expect(silent.receiveUntilEnd(seconds: 5).ended, "its connection is closed")
    #expect(read >= epoch.count * 5, "the reading client got its epochs: \(read) bytes")
    output.send(epoch)
    #expect(!reader.receive(seconds: 0.5).isEmpty, "and still gets them")
  }

  @Test func aStormOfClientsLeavesNoDescriptorBehind() throws {
    let running = try NetworkEmulator(tcp: Self.anyLoopbackPort)
    defer { running.stop() }
    let output = try #require(running.emulator.tcpOutput)
    let steady = try NetworkClient(tcpPort: output.address.port)
    #expect(Self.wait { output.statistics.clients == 1 })
    let port = output.address.port
    // The listener and the steady client's connection.
    #expect(Self.wait { Self.serverSockets(port: port) == 2 })
    for round in 0..<300 {
      let client = try NetworkClient(tcpPort: output.address.port)
      if round % 50 == 0 { _ = client.receive(seconds: 0.1) }
    }
    #expect(Self.wait { output.statistics.clients == 1 && output.statistics.connections == 301 })
    // Every stormed connection closed on the server's side: none left established or waiting
    // to be closed (counted on the port, not in /proc/self/fd, which tests running alongside
    // change).
    #expect(Self.wait { Self.serverSockets(port: port) == 2 })
    let bytes = steady.receive(seconds: 0.5).flatMap { $0 }
    #expect(!bytes.isEmpty)
  }

  @Test func stoppingClosesEverySocket() throws {
    let running = try NetworkEmulator(
      tcp: Self.anyLoopbackPort, udp: InternetAddress(host: "127.0.0.1", port: 9))
    let output = try #require(running.emulator.tcpOutput)
    let port = output.address.port
    do {
      let clients = try (0..<5).map { _ in try NetworkClient(tcpPort: output.address.port) }
      #expect(Self.wait { output.statistics.clients == 5 })
      #expect(Self.wait { Self.serverSockets(port: port) == 1 + 5 })
      running.stop()
      // Each client sees the end of the stream.
      for client in clients {
        #expect(client.receiveUntilEnd(seconds: 5).ended)
      }
    }
    #expect(Self.wait { Self.serverSockets(port: port) == 0 })
  }

  @Test func aPortInUseIsAnErrorNamingTheAddress() throws {
    let first = try NetworkEmulator(tcp: Self.anyLoopbackPort)
    defer { first.stop() }
    let port = try #require(first.emulator.tcpOutput).address.port
    #expect {
      _ = try NetworkEmulator(tcp: InternetAddress(host: "127.0.0.1", port: port))
    } throws: { error in
      "\(error)" == "cannot listen '127.0.0.1:\(port)': Address already in use"
    }
  }

  @Test func udpSendsEverySentenceWholeInItsOwnDatagram() throws {
    let receiver = try NetworkClient(udp: ())
    let running = try NetworkEmulator(udp: InternetAddress(host: "127.0.0.1", port: receiver.port))
    defer { running.stop() }
    let datagrams = receiver.receive(seconds: 1.0)
    #expect(datagrams.count >= 20)
    for datagram in datagrams {
      let lines = NetworkClient.lines(datagram)
      #expect(lines?.count == 1, "\(String(decoding: datagram, as: UTF8.self))")
    }
    #expect(try #require(running.emulator.udpOutput).statistics.datagramsSent >= datagrams.count)
  }

  /// The server's TCP sockets on `port`: listening, established, or closed by the client and
  /// not yet by the server (`/proc/self/net/tcp` and `tcp6`, states 0A, 01 and 08).
  static func serverSockets(port: UInt16) -> Int {
    let localPort = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
    return ["/proc/self/net/tcp", "/proc/self/net/tcp6"].reduce(0) { count, path in
      let text = Self.wholeFile(path)
      return count
        + text.split(separator: "\n").dropFirst().filter { line in
          let fields = line.split(separator: " ")
          return fields.count > 3 && fields[1].hasSuffix(localPort)
            && ["0A", "01", "08"].contains(fields[3])
        }.count
    }
  }
}

extension NetworkOutputTests {
  /// A /proc file whole: Foundation's readers stop at its first 4 KiB (procfs reports size 0).
  static func wholeFile(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while case let count = read(descriptor, &buffer, buffer.count), count > 0 {
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
