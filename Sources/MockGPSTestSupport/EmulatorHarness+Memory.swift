import DeviceTerminal
import MockGPS

/// The harness with its device in memory (`Device.memory`): the client is the memory line's,
/// opened, closed and given room by the test; what is written is read from memory at once.
extension EmulatorHarness {
  /// What the emulator's device is.
  public enum Device: Hashable, Sendable {
    /// A pseudo-terminal with a link, read by a real client: for what the kernel decides.
    case pseudoTerminal
    /// A `MemoryLine`: no kernel, no wait, as swift-nio's `EmbeddedChannel`. The link points
    /// to no node: the harness's client is the line's (`openClient()`, `read(_:)`).
    case memory
  }

  /// The device's line in memory; nil for a pseudo-terminal.
  public var memoryLine: MemoryLine? { emulator.device.memoryLine }

  /// The memory line's client opens the device: the emulator sees it at once (a simulated
  /// chip powers up, a replay waiting for its client starts its settle time).
  public func openClient() throws {
    guard memoryLine != nil else { throw StepError(description: "the device is not in memory") }
    emulator.device.openMemoryClient()
  }

  /// The memory line's client closes the device: its unread bytes are gone, a write waiting
  /// for room ends.
  public func closeClient() throws {
    guard memoryLine != nil else { throw StepError(description: "the device is not in memory") }
    emulator.device.closeMemoryClient()
  }

  /// Sets how many unread bytes the memory line's client queue holds (see
  /// `MemoryLine.setClientRoom(_:)`).
  public func setClientRoom(_ byteCount: Int) throws {
    guard let memoryLine else { throw StepError(description: "the device is not in memory") }
    memoryLine.setClientRoom(byteCount)
  }

  /// Reads exactly `count` bytes written to the memory line.
  func read(_ count: Int, from memoryLine: MemoryLine) throws -> [UInt8] {
    let unread = memoryLine.unreadByteCount
    guard unread >= count else {
      throw StepError(description: "\(unread) of the \(count) bytes written are unread")
    }
    return memoryLine.read(upTo: count)
  }
}
