import CUdev

/// Lists the serial devices the system has, through libudev.
///
/// Works with or without udevd: without it, the `ID_*` properties are missing and the parent USB
/// device's sysfs attributes stand in for them.
public enum UdevEnumerator {
  /// Why enumeration failed.
  public enum EnumerationError: Error, Hashable, Sendable, CustomStringConvertible {
    case unavailable(String)

    public var description: String {
      switch self {
      case .unavailable(let step): return "libudev: \(step) failed"
      }
    }
  }

  /// Every device of the `tty` subsystem that has a `/dev` node, USB ones first.
  ///
  /// The corresponding C functions are `udev_enumerate_scan_devices(3)` and friends.
  public static func serialDevices() throws(EnumerationError) -> [SerialDeviceInfo] {
    guard let udev = udev_new() else { throw .unavailable("udev_new") }
    defer { udev_unref(udev) }
    guard let enumerate = udev_enumerate_new(udev) else {
      throw .unavailable("udev_enumerate_new")
    }
    defer { udev_enumerate_unref(enumerate) }
    udev_enumerate_add_match_subsystem(enumerate, "tty")
    guard udev_enumerate_scan_devices(enumerate) >= 0 else {
      throw .unavailable("udev_enumerate_scan_devices")
    }
    var devices: [SerialDeviceInfo] = []
    var entry = udev_enumerate_get_list_entry(enumerate)
    while let current = entry {
      defer { entry = udev_list_entry_get_next(current) }
      guard let path = udev_list_entry_get_name(current),
        let device = udev_device_new_from_syspath(udev, path)
      else { continue }
      defer { udev_device_unref(device) }
      if let info = SerialDeviceInfo(
        properties: properties(of: device), usbAttributes: usbAttributes(of: device))
      {
        devices.append(info)
      }
    }
    return devices.sorted {
      ($0.vendorID == nil ? 1 : 0, $0.deviceNode) < ($1.vendorID == nil ? 1 : 0, $1.deviceNode)
    }
  }

  static func properties(of device: OpaquePointer) -> [String: String] {
    var result: [String: String] = [:]
    var entry = udev_device_get_properties_list_entry(device)
    while let current = entry {
      if let name = udev_list_entry_get_name(current),
        let value = udev_list_entry_get_value(current)
      {
        result[String(cString: name)] = String(cString: value)
      }
      entry = udev_list_entry_get_next(current)
    }
    return result
  }

  static func usbAttributes(of device: OpaquePointer) -> [String: String] {
    guard let usb = udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_device")
    else { return [:] }
    var result: [String: String] = [:]
    for name in ["idVendor", "idProduct", "manufacturer", "product", "serial"] {
      if let value = udev_device_get_sysattr_value(usb, name) {
        result[name] = String(cString: value)
      }
    }
    return result
  }
}
