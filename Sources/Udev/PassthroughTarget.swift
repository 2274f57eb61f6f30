/// The receiver `--passthrough` names: a device path, or `auto`, `auto:VID:PID`, `auto:SERIAL`
/// to pick one from `mockgps devices`.
///
/// PLACEHOLDER CONTRACT (issue 10): parsing and selection are stubs; helper B replaces them.
public enum PassthroughTarget: Hashable, Sendable, CustomStringConvertible {
  /// A device path (`/dev/ttyACM0`, a udev symlink, a test's PTY link).
  case path(String)
  /// One receiver picked from the serial devices found.
  case auto(ReceiverCriterion)

  /// Why a `--passthrough` value was refused.
  public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// Reads `auto`, `auto:VID:PID` (four hex digits each), `auto:SERIAL`, or a path.
  public init(parsing text: String) throws(ParseError) {
    guard !text.isEmpty else { throw ParseError(description: "expected a device path or auto") }
    self = .path(text)
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
  /// The single known GNSS receiver.
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
  public func select(from devices: [SerialDeviceInfo]) -> Result<
    SerialDeviceInfo, ReceiverSelectionError
  > {
    .failure(ReceiverSelectionError(criterion: self, matches: [], found: devices))
  }
}

/// No single receiver matched: lists what was found.
public struct ReceiverSelectionError: Error, Hashable, Sendable, CustomStringConvertible {
  public var criterion: ReceiverCriterion
  /// The devices that matched (none, or several).
  public var matches: [SerialDeviceInfo]
  /// Every serial device found.
  public var found: [SerialDeviceInfo]

  public var description: String {
    "--passthrough \(criterion): \(matches.count) receivers matched"
  }
}
