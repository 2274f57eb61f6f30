/// What the protocol says about one CFG message: which payload lengths are polls, which are
/// settings, how a setting names the instance it sets (a port, a time pulse, a protocol), the
/// CFG-CFG section it belongs to, and the ranges of its fields.
///
/// One table of these serves the chip's answers and its tests, so a length or a range is written
/// once. Layouts follow the u-blox 8 / M8 receiver description (UBX-13003221, protocol 18.00).
public struct UBXConfigurationMessageSpec: Sendable {
  /// How long a setting may be.
  public enum Layout: Hashable, Sendable {
    /// One of these lengths; a shorter one sets the first bytes of the longest (older forms of
    /// the message, such as CFG-NMEA's 4- and 12-byte versions), and a poll answers the longest.
    case lengths([Int])
    /// A header followed by up to `maximumBlocks` repeated blocks, their number in the header's
    /// byte at `countOffset` where it has one.
    case repeated(header: Int, block: Int, countOffset: Int?, maximumBlocks: Int)
    /// Blocks of `block` bytes, at most `maximumBlocks`, each naming its instance in its first
    /// byte (CFG-PRT's ports, CFG-INF's protocols, CFG-TP5's time pulses).
    case instances(block: Int, maximumBlocks: Int)
  }

  /// The message.
  public var type: UBXMessageType
  /// The lengths of a setting.
  public var layout: Layout
  /// The payload lengths that are polls: 0, or 1 where the poll names an instance.
  public var pollLengths: Set<Int>
  /// The instances of an `.instances` message, and the one an empty poll reports.
  public var instances: ClosedRange<UInt8>
  /// The instance an empty poll reports (the current port, the first time pulse); nil where an
  /// empty poll is not a poll.
  public var emptyPollInstance: UInt8?
  /// The CFG-CFG section that saves, loads and clears it.
  public var section: UBXConfigurationSections
  /// Ranges of fields, checked in every block of a setting.
  public var rules: [UBXFieldRule]
  /// Bytes the stored value always has, whatever a shorter, older form of the setting wrote
  /// there (CFG-NMEA's version 1 at offset 11), by offset.
  public var fixedBytes: [Int: UInt8]

  /// Creates a row.
  public init(
    _ type: UBXMessageType, layout: Layout, pollLengths: Set<Int> = [0],
    instances: ClosedRange<UInt8> = 0...0, emptyPollInstance: UInt8? = nil,
    section: UBXConfigurationSections, rules: [UBXFieldRule] = [], fixedBytes: [Int: UInt8] = [:]
  ) {
    self.fixedBytes = fixedBytes
    self.type = type
    self.layout = layout
    self.pollLengths = pollLengths
    self.instances = instances
    self.emptyPollInstance = emptyPollInstance
    self.section = section
    self.rules = rules
  }

  /// True when the message names instances in the first byte of each block.
  public var hasInstances: Bool {
    if case .instances = layout { return true }
    return false
  }

  /// The length of a stored value: the longest setting, or one instance's block.
  public var valueLength: Int? {
    switch layout {
    case .lengths(let lengths): return lengths.max()
    case .repeated: return nil
    case .instances(let block, _): return block
    }
  }

  /// Splits a setting into the values it sets, keyed by instance (0 where there are none).
  ///
  /// - Throws: `UBXConfigurationError` for a length the message does not have, an instance out
  ///   of range or a field out of its range.
  public func values(of payload: [UInt8]) throws(UBXConfigurationError) -> [(UInt8, [UInt8])] {
    let values: [(UInt8, [UInt8])]
    switch layout {
    case .lengths(let lengths):
      guard lengths.contains(payload.count) else { throw lengthError(payload.count) }
      values = [(0, payload)]
    case .repeated(let header, let block, let countOffset, let maximum):
      let blocks = (payload.count - header) / block
      guard payload.count >= header, (payload.count - header) % block == 0, blocks <= maximum,
        countOffset.map({ Int(payload[$0]) == blocks }) ?? true
      else { throw lengthError(payload.count) }
      values = [(0, payload)]
    case .instances(let block, let maximum):
      guard payload.count % block == 0, (1...maximum).contains(payload.count / block) else {
        throw lengthError(payload.count)
      }
      values = stride(from: 0, to: payload.count, by: block).map { start in
        (payload[start], Array(payload[start..<(start + block)]))
      }
      for (instance, _) in values where !instances.contains(instance) {
        throw .outOfRange(type, field: "instance", value: UInt64(instance))
      }
    }
    for (_, value) in values {
      for rule in rules { try rule.check(value, in: type) }
    }
    return values
  }

  /// The value a setting leaves: `setting` over the first bytes of `stored` where it is an
  /// older, shorter form, then the fixed bytes.
  public func value(setting: [UInt8], over stored: [UInt8]) -> [UInt8] {
    var value = setting
    if setting.count < stored.count {
      value = stored
      value.replaceSubrange(0..<setting.count, with: setting)
    }
    for (offset, byte) in fixedBytes where offset < value.count { value[offset] = byte }
    return value
  }

  /// The error for a payload of the wrong length.
  func lengthError(_ count: Int) -> UBXConfigurationError {
    .wrongLength(type, count: count)
  }
}

/// The range of one field of a CFG payload; a setting with the field outside it is refused.
public struct UBXFieldRule: Hashable, Sendable {
  /// The field's name in the receiver description.
  public var name: String
  /// Its offset in the block.
  public var offset: Int
  /// Its width in bytes.
  public var width: Int
  /// The values the chip accepts.
  public var allowed: [ClosedRange<UInt64>]

  /// Creates a rule for a field of `width` bytes at `offset`.
  public init(_ name: String, offset: Int, width: Int = 1, allowed: [ClosedRange<UInt64>]) {
    self.name = name
    self.offset = offset
    self.width = width
    self.allowed = allowed
  }

  /// Checks the field where the payload has it.
  ///
  /// - Throws: `UBXConfigurationError.outOfRange` naming the field.
  public func check(_ payload: [UInt8], in type: UBXMessageType) throws(UBXConfigurationError) {
    guard payload.count >= offset + width else { return }
    var value: UInt64 = 0
    for index in 0..<width { value |= UInt64(payload[offset + index]) << (8 * index) }
    guard allowed.contains(where: { $0.contains(value) }) else {
      throw .outOfRange(type, field: name, value: value)
    }
  }
}

/// Why a chip refuses a CFG message (with ACK-NAK).
public enum UBXConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The payload has a length the message does not have.
  case wrongLength(UBXMessageType, count: Int)
  /// A field has a value the chip does not accept.
  case outOfRange(UBXMessageType, field: String, value: UInt64)
  /// The settings contradict a rule of the chip (too many systems, too few channels).
  case inconsistent(UBXMessageType, reason: String)

  public var description: String {
    switch self {
    case .wrongLength(let type, let count): return "\(type) cannot be \(count) bytes long"
    case .outOfRange(let type, let field, let value):
      return "invalid \(field) '\(value)' in \(type)"
    case .inconsistent(let type, let reason): return "\(type) refused: \(reason)"
    }
  }
}

/// The sections of a u-blox 8 configuration that CFG-CFG clears, saves and loads.
public struct UBXConfigurationSections: OptionSet, Hashable, Sendable {
  public let rawValue: UInt32
  /// Creates a mask.
  public init(rawValue: UInt32) { self.rawValue = rawValue }
  /// Ports (CFG-PRT, CFG-USB).
  public static let ioPort = Self(rawValue: 1 << 0)
  /// Message rates (CFG-MSG).
  public static let messages = Self(rawValue: 1 << 1)
  /// Information messages (CFG-INF).
  public static let informationMessages = Self(rawValue: 1 << 2)
  /// Navigation (CFG-NAV5, NAVX5, RATE, GNSS, SBAS, NMEA, DAT, TP5, ODO, GEOFENCE).
  public static let navigation = Self(rawValue: 1 << 3)
  /// Receiver manager and power (CFG-RXM, PM2, PMS, PWR, ITFM).
  public static let receiverManager = Self(rawValue: 1 << 4)
  /// Sensors (ADR and UDR products).
  public static let sensors = Self(rawValue: 1 << 8)
  /// Remote inventory (CFG-RINV).
  public static let remoteInventory = Self(rawValue: 1 << 9)
  /// Antenna (CFG-ANT).
  public static let antenna = Self(rawValue: 1 << 10)
  /// Logging (CFG-LOGFILTER).
  public static let logging = Self(rawValue: 1 << 11)
  /// Timing products.
  public static let timing = Self(rawValue: 1 << 12)
}
