import Foundation
import Glibc
import MockGPSTestSupport
import Servers
import SystemIO
import TestFixtures
import Testing

/// The TCP output at its limit of clients: one more is accepted and closed at once (counted),
/// the connected ones still get every epoch, and once one leaves a new one gets in.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct TCPOutputLimitTests {
  /// Runs `body` with a started TCP output on a loopback port and an I/O thread of its own;
  /// stops both afterwards.
  static func withOutput(_ body: (TCPOutput) throws -> Void) throws {
    let io = try IOLoop(name: "test-tcp-output")
    try io.start()
    defer { io.stop() }
    let output = try TCPOutput(address: NetworkOutputTests.anyLoopbackPort, io: io)
    try output.start()
    defer { output.stop() }
    try body(output)
  }

  @Test func oneClientPastTheLimitIsClosedAndOneThatLeavesMakesRoom() throws {
    try Self.withOutput { output in try Self.limitIsKept(by: output) }
  }

  static func limitIsKept(by output: TCPOutput) throws {
    let port = output.address.port
    let limit = TCPOutput.maximumClients
    var clients = try (0..<limit).map { _ in try NetworkClient(tcpPort: port) }
    #expect(NetworkOutputTests.wait { output.statistics.clients == limit })
    let extra = try NetworkClient(tcpPort: port)
    let refused = extra.receiveUntilEnd(seconds: 5)
    #expect(refused.ended && refused.chunks.isEmpty, "closed at once, sent nothing")
    #expect(output.statistics.refused == 1)
    #expect(output.statistics.clients == limit)

    let epoch = Array("$GPTXT,01,01,02,limit*00\r\n".utf8)
    output.send(epoch)
    let served = clients.filter { Self.firstBytes(of: $0, count: epoch.count) == epoch }.count
    #expect(served == limit, "every connected client gets the epoch")

    clients.removeLast()
    #expect(NetworkOutputTests.wait { output.statistics.clients == limit - 1 })
    let next = try NetworkClient(tcpPort: port)
    #expect(NetworkOutputTests.wait { output.statistics.clients == limit })
    output.send(epoch)
    #expect(Self.firstBytes(of: next, count: epoch.count) == epoch, "the new client is served")
    #expect(Self.firstBytes(of: clients[0], count: epoch.count) == epoch)
    #expect(output.statistics.refused == 1)
  }

  /// The first `count` bytes a client receives, or fewer when none come for the client's
  /// receive timeout (200 ms): one epoch read without waiting out a fixed time per client.
  static func firstBytes(of client: NetworkClient, count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: count)
    while bytes.count < count {
      let read = recv(client.descriptor, &buffer, count - bytes.count, 0)
      guard read > 0 else { break }
      bytes += buffer[..<read]
    }
    return bytes
  }
}
