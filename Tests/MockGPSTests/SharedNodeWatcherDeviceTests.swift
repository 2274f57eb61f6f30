import DeviceRuntime
import DeviceTerminal
import Glibc
import MockGPS
import MockGPSTestSupport
import Receiver
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// Serial devices whose nodes are watched through one inotify instance, as every device of a
/// runtime's are.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct SharedNodeWatcherDeviceTests {
  @Test func devicesOnOneInstanceSeeTheirOwnClientsAndAStoppedOneLeavesIt() throws {
    let loop = try IOLoop(name: "test-shared-watch")
    let hub = try DeviceNodeWatcherHub(io: loop)
    try loop.start()
    defer {
      hub.close()
      loop.stop()
    }
    let quiet = Log(level: .error, sink: { _ in })
    let arrivals = Mutex([0, 0, 0])
    let devices = try (0..<3).map { index in
      try SerialDevice(
        baud: 9600, log: quiet, handler: LoggingCommandHandler(log: quiet),
        firstClientArrived: { arrivals.withLock { $0[index] += 1 } }, io: loop,
        nodeWatchers: hub)
    }
    defer { for device in devices { device.close() } }
    for device in devices { try device.start() }
    #expect(hub.watchCount == 3)
    var reader: DeviceReader? = try DeviceReader(path: devices[1].slavePath)
    // The device shows its client (under the line's lock) before the I/O thread reports the
    // arrival (after it): a full run once read the count in between.
    #expect(SharedIOLoopDeviceTests.wait { arrivals.withLock { $0 } == [0, 1, 0] })
    #expect(devices.map(\.hasClients) == [false, true, false])
    // The client leaves and comes back: seen both times, by its device alone.
    reader = nil
    #expect(SharedIOLoopDeviceTests.wait { !devices[1].hasClients })
    reader = try DeviceReader(path: devices[1].slavePath)
    #expect(SharedIOLoopDeviceTests.wait { arrivals.withLock { $0 } == [0, 2, 0] })
    // A stopped device leaves the instance; the others are still served.
    devices[0].close()
    #expect(hub.watchCount == 2)
    let other = try DeviceReader(path: devices[2].slavePath)
    #expect(SharedIOLoopDeviceTests.wait { arrivals.withLock { $0 } == [0, 2, 1] })
    #expect(devices[2].hasClients)
    _ = (reader, other)
  }
}
