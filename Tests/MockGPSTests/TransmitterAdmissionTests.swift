import DeviceRuntime
import Glibc
import MockGPSTestSupport
import Receiver
import Simulation
import Synchronization
import SystemIO
import TestFixtures
import Testing

@testable import DeviceTerminal
@testable import MockGPS

/// The transmitter's three admissions against a client that does not read, on a real
/// pseudo-terminal (how much its queue takes is the kernel's): `dropEpoch` refuses the epoch
/// whole, `waitForRoom` stops and is woken by the scheduler once the client reads (a manual
/// runtime's, when it runs), `dropBytes` drops what does not fit and goes on.
@Suite(.blocking, .serialized) struct TransmitterAdmissionTests {
  /// More than the pseudo-terminal's queue takes (about 14 KiB on Linux 6.18).
  static let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 200_000)

  /// Runs `body` with a transmitter of `admission` on a device that a client has open and
  /// does not read, on a manual runtime.
  static func withStalledClient(
    _ admission: Transmitter.Admission,
    _ body: (Transmitter, DeviceReader, EmulatorRuntime) throws -> Void
  ) throws {
    let runtime = try EmulatorRuntime(
      manualClock: ManualClock(UTCInstant(nanosecondsSinceEpoch: 0)))
    defer { runtime.stop() }
    let device = try SerialDevice(
      baud: 0, log: Log(level: .error, sink: { _ in }),
      handler: LoggingCommandHandler(log: Log(level: .error, sink: { _ in })),
      discardsUnreadWhenClientsJoin: false, io: runtime.io, nodeWatchers: runtime.nodeWatchers)
    defer { device.close() }
    try device.start()
    let client = try DeviceReader(path: device.slavePath)
    #expect(Eventually.holds(within: 5) { device.hasClients })
    let transmitter = Transmitter(device: device, admission: admission, runtime: runtime)
    defer { transmitter.stop() }
    try body(transmitter, client, runtime)
  }

  /// True when the client's queue grows within 100 ms: the kernel is still moving written
  /// bytes into it.
  static func clientQueueGrows(_ client: DeviceReader) -> Bool {
    let before = (try? client.descriptor.availableBytes()) ?? 0
    usleep(100_000)
    return ((try? client.descriptor.availableBytes()) ?? 0) != before
  }

  /// An epoch longer than the whole queue is taken on an empty one (its writes then wait for
  /// room), and refused once the client has left anything unread.
  @Test func dropEpochRefusesAnEpochTheClientHasNoRoomFor() throws {
    try Self.withStalledClient(.dropEpoch) { transmitter, _, _ in
      #expect(transmitter.admitEpoch(byteCount: Self.bytes.count, after: nil))
      #expect(transmitter.device.write(Self.bytes[..<100]))
      #expect(Eventually.holds(within: 5) { transmitter.device.unreadByteCount == 100 })
      #expect(!transmitter.admitEpoch(byteCount: Self.bytes.count, after: nil))
      #expect(!transmitter.admitEpoch(byteCount: SerialDevice.unreadCapacity, after: nil))
      #expect(transmitter.device.currentStatistics.epochsOverrun == 2)
    }
  }

  @Test func waitForRoomStopsUntilTheClientReadsAndIsWokenByTheScheduler() throws {
    try Self.withStalledClient(.waitForRoom) { transmitter, client, runtime in
      let woken = Atomic<Int>(0)
      var transmission = Transmitter.Transmission.whole(Self.bytes, atNanoseconds: 0)
      let first = transmitter.writeDue(&transmission) { woken.add(1, ordering: .relaxed) }
      #expect(first == .waitingForRoom)
      #expect(transmission.written > 4096 && transmission.written < Self.bytes.count)
      // The kernel moves what was written into the client's queue on a worker thread of its
      // own, which frees room in the terminal without a read when it runs after the write
      // found none (a loaded or paused machine: flake-hunt saw the wake come first). That wake
      // is right: the transmitter writes again. Once the client's queue stops growing, room
      // comes only from a read.
      // A manual runtime's scheduler looks at what its steps wait on when it runs.
      func wokenOnLook() -> Bool {
        runtime.runDue()
        return woken.load(ordering: .relaxed) > 0
      }
      var looks = 0
      while looks < 50, Self.clientQueueGrows(client) || wokenOnLook() {
        looks += 1
        if woken.exchange(0, ordering: .relaxed) > 0 {
          #expect(
            transmitter.writeDue(&transmission) { woken.add(1, ordering: .relaxed) }
              == .waitingForRoom)
        }
      }
      #expect(transmitter.device.currentStatistics.clientWaits == 1)
      #expect(!wokenOnLook(), "woken before the client read")
      _ = client.readLines(1, timeoutSeconds: 0.2)
      #expect(Eventually.holds(within: 5) { wokenOnLook() })
      #expect(woken.load(ordering: .relaxed) == 1)
      let before = transmission.written
      _ = transmitter.writeDue(&transmission) { woken.add(1, ordering: .relaxed) }
      #expect(transmission.written > before)
      // Once an epoch, however many times it waits.
      #expect(transmitter.device.currentStatistics.clientWaits == 1)
      #expect(transmitter.device.currentStatistics.bytesDropped == 0)
    }
  }

  @Test func dropBytesDropsWhatDoesNotFitAndGoesOn() throws {
    try Self.withStalledClient(.dropBytes) { transmitter, _, _ in
      var transmission = Transmitter.Transmission.whole(Self.bytes, atNanoseconds: 0)
      #expect(transmitter.writeDue(&transmission, wake: {}) == .ended(.done))
      let statistics = transmitter.device.currentStatistics
      #expect(transmission.written > 4096)
      #expect(statistics.bytesDropped == Self.bytes.count - transmission.written)
      #expect(statistics.clientWaits == 0)
    }
  }
}
