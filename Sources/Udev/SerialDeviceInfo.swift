/// A serial device as udev describes it, reduced to what matters for finding a GPS receiver.
///
/// Built by a pure function from udev's properties and the sysfs attributes of the parent USB
/// device, so that it can be tested on canned values.
public struct SerialDeviceInfo: Hashable, Sendable {
  /// `/dev/ttyUSB0`, `/dev/ttyACM0`, …
  public var deviceNode: String
  /// USB vendor and product IDs, lowercase hex (`1546`, `01a8`), when it is a USB device.
  public var vendorID: String?
  public var productID: String?
  /// Vendor and model as udev or the USB descriptor names them.
  public var vendor: String?
  public var model: String?
  public var serialNumber: String?
  /// The kernel driver (`cdc_acm`, `pl2303`, `ftdi_sio`…).
  public var driver: String?
  /// What the IDs say about the device.
  public var kind: ReceiverKind

  /// Reads udev properties (`DEVNAME`, `ID_VENDOR_ID`, `ID_MODEL_ID`, `ID_VENDOR`, `ID_MODEL`,
  /// `ID_SERIAL_SHORT`, `ID_USB_DRIVER`) and, where udevd has not filled those in, the parent USB
  /// device's sysfs attributes (`idVendor`, `idProduct`, `manufacturer`, `product`, `serial`).
  ///
  /// Returns nil for a device without a `/dev` node.
  public init?(properties: [String: String], usbAttributes: [String: String] = [:]) {
    guard let node = properties["DEVNAME"], node.hasPrefix("/dev/") else { return nil }
    deviceNode = node
    vendorID = Self.hexID(properties["ID_VENDOR_ID"] ?? usbAttributes["idVendor"])
    productID = Self.hexID(properties["ID_MODEL_ID"] ?? usbAttributes["idProduct"])
    vendor =
      Self.readable(properties["ID_VENDOR_FROM_DATABASE"] ?? properties["ID_VENDOR"])
      ?? Self.readable(usbAttributes["manufacturer"])
    model =
      Self.readable(properties["ID_MODEL_FROM_DATABASE"] ?? properties["ID_MODEL"])
      ?? Self.readable(usbAttributes["product"])
    serialNumber = properties["ID_SERIAL_SHORT"] ?? usbAttributes["serial"]
    driver = properties["ID_USB_DRIVER"] ?? properties["DRIVER"]
    kind = ReceiverKind.of(vendorID: vendorID, productID: productID)
  }

  /// `1546`, from `1546` or `0x1546`, lowercased; nil unless four hex digits.
  static func hexID(_ text: String?) -> String? {
    guard var text = text?.lowercased() else { return nil }
    if text.hasPrefix("0x") { text.removeFirst(2) }
    guard text.count == 4, text.allSatisfy(\.isHexDigit) else { return nil }
    return text
  }

  /// udev writes spaces as underscores in `ID_VENDOR`/`ID_MODEL`; nil for empty text.
  static func readable(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return String(text.map { $0 == "_" ? " " : $0 })
  }
}
