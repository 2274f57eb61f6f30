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
import UBX

/// The device as a UART on real terminals: what a client reads and writes depends on the speed
/// it set on its terminal, which only the kernel holds (`UARTLineTests` checks the bytes).
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct BaudMismatchDeviceTests {
  /// A client at another speed than the chip's 9600 reads, epoch after epoch, as many bytes as
  /// a UART at its speed makes of a whole epoch, none of them a sentence.
  @Test(arguments: [4800, 115_200])
  func aClientAtTheWrongSpeedReadsGarbageOfTheRightLength(clientBaud: Int) throws {
    let running = try RunningEmulator(rateHz: 1, baud: 9600)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    // The first burst may be a part of one: the second is a whole epoch.
    let clean = reader.readBursts(2, timeoutSeconds: 5)
    try #require(clean.count == 2)
    #expect(String(decoding: clean[1], as: UTF8.self).contains("GGA,"))
    try reader.setSpeed(baud: clientBaud)
    // The burst in progress may be clean still: the speed is read once a burst. A burst read
    // while the machine's load kept the reader away may hold several epochs, their silences
    // unseen (a loaded run read three as one): it is not judged, and more are read.
    // One call, so that the reader's every wait is watched.
    let garbled = reader.readWatchedBursts(5, timeoutSeconds: 8).dropFirst()
    let judged = garbled.filter { !$0.readerWasAway }.prefix(2).map(\.bytes)
    try #require(judged.count == 2, "\(garbled.count) bursts, the reader away in the others")
    var line = UARTLine(senderBaud: 9600, receiverBaud: clientBaud)
    let expected = line.send(clean[1]) + line.idle()
    for epoch in judged {
      // Epochs differ in a few digits (the time), so their garbage in a few bytes.
      #expect(abs(epoch.count - expected.count) <= expected.count / 10 + 2)
      #expect(!String(decoding: epoch, as: UTF8.self).contains("GGA,"))
    }
    for burst in garbled {
      #expect(!String(decoding: burst.bytes, as: UTF8.self).contains("GGA,"))
    }
    #expect((clientBaud < 9600) == (expected.count < clean[1].count))
  }

  /// A baud hunt: a client at the wrong speed that switches to the chip's reads clean
  /// sentences from the next epoch on.
  @Test func switchingToTheChipsSpeedReadsCleanSentences() throws {
    let running = try RunningEmulator(rateHz: 1, baud: 9600)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    try reader.setSpeed(baud: 38_400)
    #expect(reader.readUntil(type: "GGA", timeoutSeconds: 2.5) == nil)
    try reader.setSpeed(baud: 9600)
    #expect(reader.readUntil(type: "GGA", timeoutSeconds: 3) != nil)
  }

  /// What a client writes at the wrong speed reaches the chip garbled: not a command.
  @Test func aCommandAtTheWrongSpeedIsNotUnderstood() throws {
    let running = try RunningEmulator(rateHz: 1, baud: 9600, profile: .mtk)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    try reader.setSpeed(baud: 4800)
    try reader.write("$PMTK605*31\r\n")
    // Time for the I/O thread to read it.
    usleep(300_000)
    #expect(running.emulator.statistics.commandsReceived == 0)
    try reader.setSpeed(baud: 9600)
    try reader.write("$PMTK605*31\r\n")
    #expect(running.wait { running.emulator.statistics.commandsReceived == 1 })
  }

  /// A baud the chip was told to use survives the client's close: the line goes back to raw at
  /// it, and a client that reopens reads clean sentences at it without the power-up banner.
  /// MediaTek's PMTK251 and u-blox's CFG-PRT (UART1 at 38400, UBX and NMEA in and out) alike.
  @Test(arguments: ["PMTK251", "CFG-PRT"]) func theChipsNewBaudSurvivesAClose(command: String)
    throws
  {
    let isMTK = command == "PMTK251"
    let running = try RunningEmulator(
      rateHz: 1, baud: 9600, profile: isMTK ? .mtk : .ubloxM8)
    defer { running.stop() }
    do {
      let reader = try DeviceReader(path: running.linkPath)
      _ = reader.readLines(2, timeoutSeconds: 3)
      if isMTK {
        try reader.write("$PMTK251,38400*27\r\n")
      } else {
        let uart1At38400: [UInt8] = [
          0x01, 0x00, 0x00, 0x00, 0xC0, 0x08, 0x00, 0x00, 0x00, 0x96, 0x00, 0x00, 0x03, 0x00,
          0x03, 0x00, 0x00, 0x00, 0x00, 0x00,
        ]
        try reader.write(bytes: UBXFrame(.cfgPRT, payload: uart1At38400).bytes)
      }
      // Its terminal stays at 9600: from the next epoch on it reads garbage.
      #expect(running.wait { running.emulator.statistics.commandsReceived == 1 })
      // `status` (and the panel, which shows it) reports the chip's new baud.
      #expect(
        running.wait {
          ReplaySteeringTests.field("baud", of: running.emulator.handle(.status)) == "38400"
        })
      // What left before the chip's new baud took hold on the line is clean and may wait
      // unread (the rest of the epoch whose first lines the reader read, when the command was
      // taken late on a loaded machine): only what leaves a period later is judged.
      usleep(1_100_000)
      reader.discardUnread()
      #expect(reader.readUntil(type: "GGA", timeoutSeconds: 2.5) == nil)
    }
    #expect(running.wait { !running.emulator.device.hasClients })
    let again = try DeviceReader(path: running.linkPath)
    #expect(again.speed == 38_400)
    let lines = again.readLines(3, timeoutSeconds: 3).map(\.text)
    #expect(lines.count == 3)
    #expect(!lines.contains { $0.hasPrefix("$PMTK010") || $0.hasPrefix("$PMTK011") })
    #expect(again.readUntil(type: "GGA", timeoutSeconds: 3) != nil)
  }
}

/// What a client wrote is read at the speed it wrote at, however long the chip takes to handle
/// what came before: `gpsctl -s` writes CFG-PRT and 19 CFG-MSGs, waits 50 ms and switches its
/// terminal to the new speed, and a device that handled a read's commands before reading on
/// heard the rest at 115200 (garbage) once handling took more than 50 ms (a loaded CI machine).
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct SlowHandlingSpeedTests {
  /// The commands a handler was given, shared with the test.
  final class Heard: Sendable {
    let messages = Mutex<[ClientMessage]>([])
  }

  /// Takes a millisecond over each command and keeps what it heard.
  struct SlowHandler: ReceiverCommandHandler {
    let heard: Heard
    func handle(_ message: ClientMessage) -> [ReceiverEffect] {
      usleep(1000)
      heard.messages.withLock { $0.append(message) }
      return []
    }
  }

  /// Runs `body` with a device at 9600 baud whose handler is a `SlowHandler`, garbling
  /// mismatched speeds, and a client at 9600 that has it open; then expects the client's last
  /// command, `$PMTK605`, heard last of `count`.
  static func expectLastCommandHeard(
    count: Int, _ body: (DeviceReader, Heard) throws -> Void
  ) throws {
    let quiet = Log(level: .error, sink: { _ in })
    let loop = try IOLoop(name: "test-slow-handling")
    try loop.start()
    defer { loop.stop() }
    let heard = Heard()
    let device = try SerialDevice(
      baud: 9600, log: quiet, handler: SlowHandler(heard: heard), garblesMismatchedSpeeds: true,
      io: loop)
    defer { device.close() }
    try device.start()
    let client = try DeviceReader(path: device.slavePath)
    try client.setSpeed(baud: 9600)
    #expect(Eventually.holds(within: 5) { device.hasClients })
    try body(client, heard)
    #expect(Eventually.holds(within: 10) { heard.messages.withLock { $0.count } >= count })
    let last = heard.messages.withLock { $0.last }
    #expect(last.map { "\($0)".contains("PMTK605") } == true, "\(String(describing: last))")
  }

  /// 400 commands (more than one 4096-byte read holds, 400 ms to handle) and a last one, in one
  /// write at the chip's 9600 baud; 50 ms later the client goes to 115200. Handled in reads,
  /// the last read came after the switch and the last command was lost.
  @Test func commandsWrittenBeforeASpeedChangeAreHeardAtTheOldSpeed() throws {
    try Self.expectLastCommandHeard(count: 401) { client, _ in
      let commands = String(repeating: "$PMTK000*32\r\n", count: 400) + "$PMTK605*31\r\n"
      try #require(commands.utf8.count > 4096)
      try client.write(commands)
      usleep(50_000)
      try client.setSpeed(baud: 115_200)
    }
  }

  /// As above, but the last command comes in a second write, once the device has begun to
  /// handle the first (`gpsctl` writes each command alone; the kernel too hands one write of
  /// more than a read over in pieces, a worker thread later): 50 ms after it the client goes to
  /// 115200, while the 300 commands before take 300 ms to handle. A device that reads only
  /// between passes heard it at 115200 and lost it.
  @Test func aCommandWrittenWhileEarlierOnesAreHandledIsHeardAtTheOldSpeed() throws {
    try Self.expectLastCommandHeard(count: 301) { client, heard in
      try client.write(String(repeating: "$PMTK000*32\r\n", count: 300))
      #expect(Eventually.holds(within: 5) { heard.messages.withLock { !$0.isEmpty } })
      try client.write("$PMTK605*31\r\n")
      usleep(50_000)
      try client.setSpeed(baud: 115_200)
    }
  }
}
