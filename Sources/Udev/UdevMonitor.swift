import CUdev

#if canImport(Glibc)
  import Glibc
#endif

/// Hotplug events of serial devices, from libudev's monitor: from udevd where it runs, else
/// the kernel's own uevents.
///
/// Without udevd (`/run/udev/control` missing, as in most containers) the monitor listens to
/// the kernel's netlink group: events come before udev has made its symlinks and without the
/// `ID_*` properties, so the parent USB device's sysfs attributes describe the device, as
/// `UdevEnumerator` does.
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

  /// The file udevd listens on; its presence says that udevd runs.
  static let udevdControlPath = "/run/udev/control"

  /// A descriptor that becomes readable when events wait; -1 when none can come.
  public let descriptor: Int32
  /// `udev` when events come from udevd, `kernel` when they are the kernel's own.
  public let source: String
  private let udev: OpaquePointer
  private let monitor: OpaquePointer

  /// Starts listening to the `tty` subsystem.
  ///
  /// The corresponding C functions are `udev_monitor_new_from_netlink(3)`,
  /// `udev_monitor_filter_add_match_subsystem_devtype(3)` and
  /// `udev_monitor_enable_receiving(3)`.
  ///
  /// - Throws: `UdevEnumerator.EnumerationError` when libudev cannot monitor here (a container
  ///   that refuses netlink sockets, for one).
  public init() throws(UdevEnumerator.EnumerationError) {
    guard let udev = udev_new() else { throw .unavailable("udev_new") }
    let source = access(Self.udevdControlPath, F_OK) == 0 ? "udev" : "kernel"
    guard let monitor = udev_monitor_new_from_netlink(udev, source) else {
      udev_unref(udev)
      throw .unavailable("udev_monitor_new_from_netlink(\(source))")
    }
    guard udev_monitor_filter_add_match_subsystem_devtype(monitor, "tty", nil) >= 0,
      udev_monitor_enable_receiving(monitor) >= 0
    else {
      udev_monitor_unref(monitor)
      udev_unref(udev)
      throw .unavailable("udev_monitor_enable_receiving(\(source))")
    }
    let descriptor = udev_monitor_get_fd(monitor)
    let flags = fcntl(descriptor, F_GETFL)
    guard descriptor >= 0, flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) >= 0 else {
      udev_monitor_unref(monitor)
      udev_unref(udev)
      throw .unavailable("udev_monitor_get_fd(\(source))")
    }
    self.udev = udev
    self.monitor = monitor
    self.descriptor = descriptor
    self.source = source
  }

  deinit {
    udev_monitor_unref(monitor)
    udev_unref(udev)
  }

  /// The events waiting, without blocking: [] when there are none.
  ///
  /// The corresponding C function is `udev_monitor_receive_device(3)`.
  public func receive() -> [Event] {
    var events: [Event] = []
    while let device = udev_monitor_receive_device(monitor) {
      defer { udev_device_unref(device) }
      events.append(Self.event(of: device))
    }
    return events
  }

  private static func event(of device: OpaquePointer) -> Event {
    let actionText = udev_device_get_action(device).map { String(cString: $0) } ?? ""
    let action = Event.Action(rawValue: actionText) ?? .other
    let node = udev_device_get_devnode(device).map { String(cString: $0) }
    let info =
      action == .remove
      ? nil
      : SerialDeviceInfo(
        properties: UdevEnumerator.properties(of: device),
        usbAttributes: UdevEnumerator.usbAttributes(of: device))
    return Event(action: action, deviceNode: node ?? info?.deviceNode, device: info)
  }
}
