/// What a USB vendor and product ID say about a serial device.
public enum ReceiverKind: String, Hashable, Sendable {
  /// A device that is a GNSS receiver (u-blox, Garmin, MediaTek GPS, …).
  case gnssReceiver
  /// A USB-serial bridge that many GPS pucks are built on (Prolific, Silicon Labs, FTDI…); it
  /// may be a receiver or anything else.
  case usbSerialBridge
  /// Not known, or not USB.
  case unknown

  /// Known IDs, in the spirit of gpsd's `gpsd.rules`; `udev/60-mockgps-receivers.rules` lists
  /// the same, and a test keeps the two in step.
  public static let knownIDs:
    [(vendorID: String, productID: String, kind: ReceiverKind, name: String)] = [
      ("1546", "01a5", .gnssReceiver, "u-blox 5"),
      ("1546", "01a6", .gnssReceiver, "u-blox 6"),
      ("1546", "01a7", .gnssReceiver, "u-blox 7"),
      ("1546", "01a8", .gnssReceiver, "u-blox 8"),
      ("1546", "01a9", .gnssReceiver, "u-blox 9"),
      ("091e", "0003", .gnssReceiver, "Garmin GPS (USB)"),
      ("1163", "0200", .gnssReceiver, "DeLorme Earthmate LT-20"),
      ("0e8d", "3329", .gnssReceiver, "MediaTek MT3329 GPS"),
      ("067b", "2303", .usbSerialBridge, "Prolific PL2303 (BU-353 and others)"),
      ("067b", "23a3", .usbSerialBridge, "Prolific PL2303GC"),
      ("10c4", "ea60", .usbSerialBridge, "Silicon Labs CP210x"),
      ("0403", "6001", .usbSerialBridge, "FTDI FT232"),
      ("0403", "6015", .usbSerialBridge, "FTDI FT231X"),
      ("1a86", "7523", .usbSerialBridge, "QinHeng CH340"),
    ]

  /// The kind of a device with these IDs.
  public static func of(vendorID: String?, productID: String?) -> ReceiverKind {
    guard let vendorID, let productID else { return .unknown }
    return knownIDs.first { $0.vendorID == vendorID && $0.productID == productID }?.kind
      ?? .unknown
  }
}
