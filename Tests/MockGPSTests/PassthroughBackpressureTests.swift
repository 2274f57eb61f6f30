import DeviceRuntime
import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import SystemIO
import TestFixtures
import Testing

/// A client that writes faster than the receiver takes is held back, as by a real serial port,
/// and loses nothing: an AssistNow upload or a firmware update arrives whole.
@Suite(.blocking, .timeLimit(.minutes(10)))
struct PassthroughBackpressureTests {
  @Test func aClientWritingFasterThanTheReceiverReadsLosesNothing() throws {
    let rig = try PassthroughRig(override: .replace)
    defer { rig.stop() }
    let client = try rig.openClient()
    rig.receiver.pauseReading(true)
    // 200 kB of a repeating pattern: far more than the terminals' and the port's queues hold.
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
    var remaining = bytes[...]
    var blocked = false
    // The receiver reads nothing for the first 1.5 s: its queue fills, then mockgps's, then the
    // link's, and the client must be held back rather than have bytes dropped.
    let start = DeviceReader.monotonicNanoseconds()
    let deadline = start + 20_000_000_000
    while !remaining.isEmpty, DeviceReader.monotonicNanoseconds() < deadline {
      if DeviceReader.monotonicNanoseconds() - start > 1_500_000_000 {
        rig.receiver.pauseReading(false)
      }
      if case .transferred(let count) = try client.descriptor.write(remaining), count > 0 {
        remaining = remaining.dropFirst(count)
        continue
      }
      blocked = true
      _ = try Poll.wait([client.descriptor.pollRequest(.writable)], timeoutMilliseconds: 50)
    }
    rig.receiver.pauseReading(false)
    #expect(blocked, "the client's writes were never held back")
    #expect(remaining.isEmpty)
    #expect(PassthroughRig.wait(seconds: 10) { rig.receiver.received.count >= bytes.count })
    let received = rig.receiver.received
    #expect(received.count == bytes.count)
    #expect(received == bytes, "the bytes differ")
    let statistics = try #require(rig.emulator.passthroughStatistics)
    #expect(statistics.clientBytesDropped == 0)
    #expect(statistics.clientBytesForwarded == bytes.count)
  }

  /// A held client holds nothing else: the device of another receiver on the same runtime (its
  /// one I/O thread) forwards both ways while the first client's writes are blocked.
  @Test func aHeldClientHoldsNoOtherDeviceOfTheRuntime() throws {
    let runtime = try EmulatorRuntime()
    defer { runtime.stop() }
    let held = try PassthroughRig(override: .off, runtime: runtime)
    defer { held.stop() }
    let other = try PassthroughRig(override: .off, runtime: runtime)
    defer { other.stop() }
    let heldClient = try held.openClient()
    let otherClient = try other.openClient()
    held.receiver.pauseReading(true)
    defer { held.receiver.pauseReading(false) }
    // Writes until 300 ms pass without room: the receiver's port, the queue and the link are
    // full, and the client is held.
    let chunk = [UInt8](repeating: 0x55, count: 4096)[...]
    var written = 0
    let deadline = DeviceReader.monotonicNanoseconds() + 20_000_000_000
    var blocked = false
    while !blocked, DeviceReader.monotonicNanoseconds() < deadline {
      if case .transferred(let count) = try heldClient.descriptor.write(chunk), count > 0 {
        written += count
        continue
      }
      let ready = try Poll.wait(
        [heldClient.descriptor.pollRequest(.writable)], timeoutMilliseconds: 300)
      // Held: no room for 300 ms while mockgps holds bytes back. An I/O thread starved for as
      // long leaves no room either, then forwards everything (a loaded full run: 11,776 bytes
      // written, all forwarded): the client writes on.
      let forwarded = held.emulator.passthroughStatistics?.clientBytesForwarded ?? written
      blocked = ready.first?.contains(.writable) != true && forwarded < written
    }
    #expect(blocked, "the client was never held back (\(written) bytes written)")
    let sentence = PassthroughHotplugTests.sentence
    other.receiver.send(sentence)
    #expect(otherClient.readBytes(sentence.count, timeoutSeconds: 2) == sentence)
    let command = Array("$PMTK605*31\r\n".utf8)
    otherClient.write(command)
    #expect(PassthroughRig.wait(seconds: 2) { other.receiver.received == command })
    let statistics = try #require(held.emulator.passthroughStatistics)
    #expect(statistics.clientBytesDropped == 0)
    #expect(statistics.clientBytesForwarded < written, "the receiver took everything")
  }
}
