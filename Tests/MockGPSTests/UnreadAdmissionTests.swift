import DeviceRuntime
import DeviceTerminal
import Glibc
import MockGPS
import MockGPSTestSupport
import Receiver
import SystemIO
import TestFixtures
import Testing

/// Admitting an epoch from a reading of the clients' unread bytes taken earlier (as the epoch
/// thread does half a period ahead), on a real pseudo-terminal: it may spare the terminal a
/// question, never admit what does not fit.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct UnreadAdmissionTests {
  private static let quiet = Log(level: .error, sink: { _ in })

  private static func withDevice(_ body: (SerialDevice) throws -> Void) throws {
    let loop = try IOLoop(name: "test-unread")
    try loop.start()
    defer { loop.stop() }
    let device = try SerialDevice(
      baud: 0, log: quiet, handler: LoggingCommandHandler(log: quiet), io: loop)
    defer { device.close() }
    try device.start()
    try body(device)
  }

  /// `count` bytes of whole sentences.
  private static func sentences(_ count: Int) -> ArraySlice<UInt8> {
    let line = Array("$GPTXT,01,01,02,unread admission test line*00\r\n".utf8)
    return ArraySlice((0..<count).map { line[$0 % line.count] })
  }

  @Test func bytesWrittenSinceTheReadingCountAgainstIt() throws {
    try Self.withDevice { device in
      let reader = try DeviceReader(path: device.slavePath)
      #expect(Eventually.holds(within: 5) { device.hasClients })
      let reading = try #require(device.readUnread())
      #expect(device.admit(byteCount: 1000, after: reading) == .accepted)

      // Unread now, written after the reading: 3500 + 1000 do not fit in 4095.
      #expect(device.write(Self.sentences(3500)))
      // The terminal counts them once its line discipline has taken them (a kernel worker).
      #expect(Eventually.holds(within: 5) { device.unreadByteCount == 3500 })
      #expect(device.admit(byteCount: 1000, after: reading) == .overrun)
      #expect(device.admit(byteCount: 500, after: reading) == .accepted)

      // Once the client has read them, the terminal is asked and says they fit.
      _ = reader.readLines(Int.max, timeoutSeconds: 0.5)
      #expect(Eventually.holds(within: 5) { device.unreadByteCount == 0 })
      #expect(device.admit(byteCount: 1000, after: reading) == .accepted)
    }
  }

  /// The terminal counts written bytes once a kernel worker has passed them on: a reading
  /// taken right after a write often misses it (a quarter of the time on this VM), so the
  /// bytes written shortly before a reading count as unseen. Twenty tries: without that, at
  /// least one admits an epoch that does not fit.
  @Test func aReadingRightAfterAWriteStillCountsIt() throws {
    try Self.withDevice { device in
      let reader = try DeviceReader(path: device.slavePath)
      #expect(Eventually.holds(within: 5) { device.hasClients })
      for _ in 0..<20 {
        #expect(device.write(Self.sentences(3500)))
        let reading = device.readUnread()
        #expect(Eventually.holds(within: 5) { device.unreadByteCount == 3500 })
        if let reading {
          #expect(device.admit(byteCount: 1000, after: reading) == .overrun)
        }
        _ = reader.readLines(Int.max, timeoutSeconds: 0.1)
        #expect(Eventually.holds(within: 5) { device.unreadByteCount == 0 })
      }
    }
  }

  /// The terminal is asked again only when the last reading, with what was written since, no
  /// longer admits the bytes to come: a reading of nothing unread admits 3,500 bytes written
  /// since plus 500 (and is the same reading), not plus 1,000 (a new one, which sees them).
  @Test func theTerminalIsAskedOnlyWhenTheLastReadingNoLongerAdmits() throws {
    try Self.withDevice { device in
      let reader = try DeviceReader(path: device.slavePath)
      #expect(Eventually.holds(within: 5) { device.hasClients })
      let first = try #require(device.readUnread(toAdmit: 500))
      #expect(first.unread == 0)
      #expect(device.write(Self.sentences(3500)))
      #expect(Eventually.holds(within: 5) { device.unreadByteCount == 3500 })
      let kept = try #require(device.readUnread(toAdmit: 500))
      #expect(kept.unread == 0, "the last reading still admits 500 bytes")
      #expect(device.admit(byteCount: 500, after: kept) == .accepted)
      // Past the 40 ms a reading may miss a write by, so that a new one counts them as seen.
      usleep(60_000)
      let fresh = try #require(device.readUnread(toAdmit: 1000))
      #expect(fresh.unread == 3500, "a new reading: the last one does not admit 1,000 more")
      #expect(device.admit(byteCount: 1000, after: fresh) == .overrun)
      _ = reader
    }
  }

  /// The terminal takes some 20 KiB but counts at most 4 KiB unread; the rest waits in the
  /// kernel and moves into the count as the client reads, with no write, so a reading taken
  /// then may be low. After a write beyond the count (an epoch over 4 KiB) no reading is kept:
  /// each is the terminal's (here one after 1,000 more bytes sees them).
  @Test func afterAWriteBeyondTheCountNoReadingIsKept() throws {
    try Self.withDevice { device in
      let reader = try DeviceReader(path: device.slavePath)
      #expect(Eventually.holds(within: 5) { device.hasClients })
      #expect(device.write(Self.sentences(8000)))
      _ = reader.readLines(Int.max, timeoutSeconds: 0.5)
      #expect(Eventually.holds(within: 5) { device.unreadByteCount == 0 })
      usleep(60_000)
      let before = try #require(device.readUnread(toAdmit: 10))
      #expect(before.unread == 0)
      #expect(device.write(Self.sentences(1000)))
      #expect(Eventually.holds(within: 5) { device.unreadByteCount == 1000 })
      usleep(60_000)
      let after = try #require(device.readUnread(toAdmit: 10))
      #expect(after.unread == 1000, "a reading of the terminal, not the one before")
    }
  }

  @Test func aReadingTakenWithAClientDoesNotOutliveIt() throws {
    try Self.withDevice { device in
      #expect(device.readUnread() == nil, "no client: nothing to read")
      #expect(device.admit(byteCount: 10, after: nil) == .noReader)
      var reader: DeviceReader? = try DeviceReader(path: device.slavePath)
      #expect(Eventually.holds(within: 5) { device.hasClients })
      let reading = try #require(device.readUnread())
      _ = reader
      reader = nil
      #expect(Eventually.holds(within: 5) { !device.hasClients })
      #expect(device.admit(byteCount: 10, after: reading) == .noReader)
    }
  }
}
