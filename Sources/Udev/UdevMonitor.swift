/// Hotplug events of serial devices, from libudev's monitor: from udevd where it runs, else
/// the kernel's own uevents.
///
/// PLACEHOLDER CONTRACT (issue 10): a monitor that never reports; helper B replaces it.
public final class UdevMonitor {
  /// A device that came or went.
  public struct Event: Hashable, Sendable {
    public enum Action: String, Hashable, Sendable {
      case add, remove, change, other
    }
    public var action: Action
    /// `/dev/ttyUSB0`…, when the event names one.
    public var deviceNode: String?
    /// The device as discovery describes it (for `add` and `change`).
    public var device: SerialDeviceInfo?

    public init(action: Action, deviceNode: String?, device: SerialDeviceInfo? = nil) {
      self.action = action
      self.deviceNode = deviceNode
      self.device = device
    }
  }

  /// A descriptor that becomes readable when events wait; -1 when none can come.
  public let descriptor: Int32 = -1

  /// Starts listening to the `tty` subsystem.
  ///
  /// - Throws: `UdevEnumerator.EnumerationError` when libudev cannot monitor here.
  public init() throws(UdevEnumerator.EnumerationError) {}

  /// The events waiting, without blocking.
  public func receive() -> [Event] { [] }
}
