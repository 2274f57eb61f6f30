import Receiver
import SystemIO

/// A device whose line is in memory (`memoryLine`): the test's client, and how the device
/// writes to it. The client is seen at once: no I/O thread, no kernel.
extension SerialDevice {
  /// The raw settings at `baud` a memory line's client finds (`setBaud`'s rule for 0).
  static func memoryLineSettings(baud: Int) -> TerminalAttributes {
    var settings = TerminalAttributes()
    settings.makeRaw()
    settings.setSpeed(baud: baud == 0 ? 115_200 : baud)
    return settings
  }

  /// The test's client opens the device, as a client opening the pseudo-terminal: it finds
  /// nothing unread, and a device no client had open powers up (`firstClientArrived`). Does
  /// nothing while it is open, or without a memory line.
  public func openMemoryClient() {
    guard let memoryLine, !hasClients else { return }
    memoryLine.clientOpened()
    connected.store(true, ordering: .releasing)
    report(.arrived)
  }

  /// The test's client closes the device: what it left unread is discarded, its terminal
  /// goes back to raw at the chip's baud, and a write waiting for room ends. Does nothing
  /// while it is closed, or without a memory line.
  public func closeMemoryClient() {
    guard let memoryLine, hasClients else { return }
    connected.store(false, ordering: .releasing)
    memoryLine.clientLeft(settings: speeds.withLock { $0.raw })
    report(.left)
  }

  /// The test's client writes `bytes` (commands): handled on the calling thread before this
  /// returns, as the I/O thread handles what a terminal's client wrote, unless the input is
  /// held (`holdClientInput`): then when it is released. Nothing while the client is closed.
  public func writeFromMemoryClient(_ bytes: [UInt8]) {
    guard let memoryLine, hasClients else { return }
    memoryLine.clientWrote(bytes)
    deliverHeldMemoryInput()
  }

  /// Hands what the memory line's client wrote to the device, a read's worth at a time, until
  /// none is left or the input is held; one thread at a time, where the I/O thread's handlers
  /// do not run (they own what the chip makes of the input). All of a read's handling runs
  /// there, the tap and `effects` included, as on the I/O thread for a terminal: the caller
  /// holds no lock a handler takes.
  func deliverHeldMemoryInput() {
    guard let memoryLine, memoryLine.startDelivering() else { return }
    while let chunk = memoryLine.nextInput(unless: { inputHeld.load(ordering: .acquiring) }) {
      io.exclusively { handle(clientChunk(chunk), readingOn: {}) }
    }
  }

  /// `writeSome` to the memory line: what the client's queue has room for.
  func writeSome(_ bytes: ArraySlice<UInt8>, to memoryLine: MemoryLine) -> PartialWrite {
    guard hasClients else { return .noClient }
    let written = memoryLine.write(bytes)
    guard written > 0 else { return .full }
    line.withLock { $0.writes.record(bytes: written, at: SystemClock.monotonicNanoseconds()) }
    count { $0.bytesSent += written }
    return .wrote(written)
  }
}
