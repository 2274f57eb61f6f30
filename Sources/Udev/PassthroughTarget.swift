/// The receiver `--passthrough` names: a device path, or `auto`, `auto:VID:PID`, `auto:SERIAL`
/// to pick one from `mockgps devices`.
public enum PassthroughTarget: Hashable, Sendable, CustomStringConvertible {
  /// A device path (`/dev/ttyACM0`, a udev symlink, a test's PTY link).
  case path(String)
  /// One receiver picked from the serial devices found.
  case auto(ReceiverCriterion)

  /// Why a `--passthrough` value was refused.
  public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// Reads `auto`, `auto:VID:PID` (four hex digits each, any case, kept lowercase),
  /// `auto:SERIAL` (anything else after `auto:`), or a path.
  public init(parsing text: String) throws(ParseError) {
    guard !text.isEmpty else { throw ParseError(description: "it is empty") }
    guard text == "auto" || text.hasPrefix("auto:") else {
      self = .path(text)
      return
    }
    guard text != "auto" else {
      self = .auto(.anyKnownReceiver)
      return
    }
    let rest = text.dropFirst("auto:".count)
    guard !rest.isEmpty else {
      throw ParseError(description: "nothing follows 'auto:'")
    }
    let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
    if parts.count == 2, let vendor = Self.hexID(parts[0]), let product = Self.hexID(parts[1]) {
      self = .auto(.ids(vendorID: vendor, productID: product))
    } else {
      self = .auto(.serialNumber(String(rest)))
    }
  }

  /// Four hex digits, lowercased; nil otherwise.
  private static func hexID(_ text: Substring) -> String? {
    guard text.count == 4, text.allSatisfy(\.isHexDigit) else { return nil }
    return text.lowercased()
  }

  public var description: String {
    switch self {
    case .path(let path): return path
    case .auto(let criterion): return criterion.description
    }
  }
}

/// How `--passthrough auto…` picks a receiver.
public enum ReceiverCriterion: Hashable, Sendable, CustomStringConvertible {
  /// The single known GNSS receiver; failing that, the single USB-serial bridge.
  case anyKnownReceiver
  /// The device with these USB IDs (lowercase hex).
  case ids(vendorID: String, productID: String)
  /// The device with this USB serial number.
  case serialNumber(String)

  public var description: String {
    switch self {
    case .anyKnownReceiver: return "auto"
    case .ids(let vendor, let product): return "auto:\(vendor):\(product)"
    case .serialNumber(let serial): return "auto:\(serial)"
    }
  }

  /// The one device among `devices` that the criterion picks, or why there is none.
  ///
  /// `auto` picks the single device whose IDs say it is a GNSS receiver. When there is none,
  /// it picks the single USB-serial bridge, if there is exactly one: many GPS pucks (the
  /// BU-353 is a Prolific PL2303) are such a bridge and cannot be told from one by their IDs,
  /// and a user who plugs in one puck and asks for `auto` expects it to be found;
  /// `selectionNote(for:)` says what was done. `auto:VID:PID` and `auto:SERIAL` match devices
  /// of any kind.
  public func select(from devices: [SerialDeviceInfo]) -> Result<
    SerialDeviceInfo, ReceiverSelectionError
  > {
    var matches = devices.filter(matches)
    if self == .anyKnownReceiver && matches.isEmpty {
      matches = devices.filter { $0.kind == .usbSerialBridge }
    }
    guard matches.count == 1, let device = matches.first else {
      return .failure(ReceiverSelectionError(criterion: self, matches: matches, found: devices))
    }
    return .success(device)
  }

  /// What to tell the user about a device `select(from:)` picked: a line for a USB-serial bridge
  /// picked by `auto`, nil otherwise.
  public func selectionNote(for device: SerialDeviceInfo) -> String? {
    guard self == .anyKnownReceiver, device.kind == .usbSerialBridge else { return nil }
    return "--passthrough auto: no known GNSS receiver; using the only USB-serial bridge, "
      + "\(ReceiverSelectionError.summary(of: device)) (GPS pucks such as the BU-353 are "
      + "built on one)"
  }

  /// True when `device` fits the criterion by itself.
  private func matches(_ device: SerialDeviceInfo) -> Bool {
    switch self {
    case .anyKnownReceiver: return device.kind == .gnssReceiver
    case .ids(let vendor, let product):
      return device.vendorID == vendor && device.productID == product
    case .serialNumber(let serial): return device.serialNumber == serial
    }
  }
}

/// No single receiver matched: lists what was found.
public struct ReceiverSelectionError: Error, Hashable, Sendable, CustomStringConvertible {
  public var criterion: ReceiverCriterion
  /// The devices that matched (none, or several).
  public var matches: [SerialDeviceInfo]
  /// Every serial device found.
  public var found: [SerialDeviceInfo]

  /// Creates the error of a selection.
  public init(criterion: ReceiverCriterion, matches: [SerialDeviceInfo], found: [SerialDeviceInfo])
  {
    self.criterion = criterion
    self.matches = matches
    self.found = found
  }

  /// One line: `--passthrough auto: no GNSS receiver found; serial devices: /dev/ttyUSB0
  /// (067b:2303 Prolific …), 32 without USB IDs (consoles, UARTs)`, or
  /// `--passthrough auto: 2 match: …; pick one with auto:VID:PID or auto:SERIAL`.
  public var description: String {
    let prefix = "--passthrough \(criterion): "
    guard matches.isEmpty else {
      return prefix + "\(matches.count) match: "
        + matches.map(Self.summary).joined(separator: ", ")
        + "; pick one with auto:VID:PID or auto:SERIAL"
    }
    let missing: String
    switch criterion {
    case .anyKnownReceiver: missing = "no GNSS receiver found"
    case .ids(let vendor, let product): missing = "no device \(vendor):\(product) found"
    case .serialNumber(let serial): missing = "no device with serial number '\(serial)' found"
    }
    return prefix + missing + "; " + Self.inventory(found)
  }

  /// `/dev/ttyUSB0 (067b:2303 Prolific PL2303, serial 0001)`, or the node alone without IDs.
  static func summary(of device: SerialDeviceInfo) -> String {
    guard let vendorID = device.vendorID else { return device.deviceNode }
    var details = ["\(vendorID):\(device.productID ?? "????")"]
    let name = [device.vendor, device.model].compactMap { $0 }.joined(separator: " ")
    if !name.isEmpty { details[0] += " " + name }
    if let serial = device.serialNumber { details.append("serial \(serial)") }
    return "\(device.deviceNode) (\(details.joined(separator: ", ")))"
  }

  /// The USB devices in full, the others counted (a machine has dozens of consoles).
  private static func inventory(_ devices: [SerialDeviceInfo]) -> String {
    let usb = devices.filter { $0.vendorID != nil }
    let others = devices.count - usb.count
    var parts = usb.map(summary)
    if others > 0 {
      parts.append(
        usb.isEmpty
          ? "none with USB IDs, \(others) others (consoles, UARTs)"
          : "\(others) without USB IDs (consoles, UARTs)")
    }
    return parts.isEmpty
      ? "no serial devices at all" : "serial devices: " + parts.joined(separator: ", ")
  }
}
