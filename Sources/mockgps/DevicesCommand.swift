import Udev

/// `mockgps devices`: the serial devices udev knows, USB ones with their IDs and what they are.
enum DevicesCommand {
  static func execute() -> Int32 {
    let devices: [SerialDeviceInfo]
    do {
      devices = try UdevEnumerator.serialDevices()
    } catch {
      RunCommand.writeError("mockgps: \(error)\n")
      return ExitCode.failure
    }
    let usb = devices.filter { $0.vendorID != nil }
    for device in usb { print(line(for: device)) }
    let others = devices.count - usb.count
    if usb.isEmpty {
      print("no USB serial devices (\(others) other serial devices, such as consoles and UARTs)")
    } else if others > 0 {
      print("and \(others) other serial devices (consoles, UARTs)")
    }
    return ExitCode.success
  }

  /// `/dev/ttyACM0  1546:01a8  u-blox AG u-blox GNSS receiver  [GNSS receiver]`
  static func line(for device: SerialDeviceInfo) -> String {
    let ids = "\(device.vendorID ?? "????"):\(device.productID ?? "????")"
    let name = [device.vendor, device.model].compactMap { $0 }.joined(separator: " ")
    let kind: String
    switch device.kind {
    case .gnssReceiver: kind = "  [GNSS receiver]"
    case .usbSerialBridge: kind = "  [USB-serial bridge, may be a GPS]"
    case .unknown: kind = ""
    }
    return "\(device.deviceNode)  \(ids)  \(name.isEmpty ? "-" : name)\(kind)"
  }
}
