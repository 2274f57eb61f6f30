import Glibc
import MockGPSTestSupport
import Servers
import SystemIO
import Testing

/// What a TCP output's client writes is read and dropped no faster than the fastest serial
/// line (921600 baud, 92 KB a second, 64 KiB ahead): a client writing without end soon waits
/// on TCP's flow control instead of holding the I/O thread (a review's loopback flood: 10.5 GB
/// in 4 s, a whole CPU), and the others still get every epoch.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct TCPOutputInputTests {
  @Test func aClientWritingWithoutEndIsReadAtTheLineRateAndTheOthersAreServed() throws {
    try TCPOutputLimitTests.withOutput { output in try Self.floodIsBounded(on: output) }
  }

  static func floodIsBounded(on output: TCPOutput) throws {
    let flooder = try NetworkClient(tcpPort: output.address.port)
    let reader = try NetworkClient(tcpPort: output.address.port)
    #expect(NetworkOutputTests.wait { output.statistics.clients == 2 })
    let junk = [UInt8](repeating: 0x41, count: 65_536)
    let start = SystemClock.monotonicNanoseconds()
    var written = 0
    while SystemClock.monotonicNanoseconds() - start < 2_000_000_000 {
      let sent = send(flooder.descriptor, junk, junk.count, Int32(MSG_DONTWAIT))
      if sent > 0 { written += sent } else { usleep(1000) }
    }
    let seconds = Double(SystemClock.monotonicNanoseconds() - start) / 1e9
    let ignored = output.statistics.bytesIgnored
    #expect(ignored <= 65_536 + 4096 + Int(92_160 * seconds), "read \(ignored) in \(seconds) s")
    #expect(written > ignored, "the client's writes waited in its socket")
    let epoch = Array("$GPTXT,01,01,02,flood*00\r\n".utf8)
    output.send(epoch)
    #expect(TCPOutputLimitTests.firstBytes(of: reader, count: epoch.count) == epoch)
  }
}
