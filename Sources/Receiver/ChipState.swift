/// What a chip keeps across power cycles (its flash and battery-backed RAM), as the text of a
/// state file (`--state-dir`): small, versioned and readable, one item a line.
///
///     mockgps-chip-state 1 ublox-m8
///     # LAYER ITEM VALUE: bbr or flash, the chip's name of the item, the value's bytes in hex
///     flash 06-08/0000 c800010001000000
///     bbr 30210001 c800
///
/// The first line names the format, its version and the profile that wrote it; lines starting
/// with `#` and empty lines are ignored. What an item is called and what its value may be is the
/// chip's business (`StatefulCommandHandler`); this type only reads and writes the lines.
public struct ChipState: Hashable, Sendable {
  /// The layer of non-volatile memory an item is in.
  public enum Layer: String, CaseIterable, Hashable, Sendable {
    /// Battery-backed RAM: kept while the chip's backup battery lasts (here, always).
    case batteryBacked = "bbr"
    /// Flash (EEPROM, SPI flash).
    case flash
  }

  /// One stored item.
  public struct Record: Hashable, Sendable {
    public var layer: Layer
    /// The chip's name of the item: printable ASCII without spaces.
    public var item: String
    /// Its value's bytes.
    public var value: [UInt8]
    /// The line of the file it was read from (for errors); nil for a record a chip made.
    public var line: Int?

    /// Creates a record.
    public init(layer: Layer, item: String, value: [UInt8], line: Int? = nil) {
      self.layer = layer
      self.item = item
      self.value = value
      self.line = line
    }
  }

  /// The first word of a state file.
  public static let magic = "mockgps-chip-state"
  /// The version this emulator writes and reads.
  public static let version = 1

  /// The profile that wrote the state (`ublox-m8`).
  public var profileName: String
  /// The items, in the order the chip lists them.
  public var records: [Record]

  /// Creates a state.
  public init(profileName: String, records: [Record] = []) {
    self.profileName = profileName
    self.records = records
  }

  /// The header line a file of `profileName` starts with.
  public static func header(profileName: String) -> String {
    "\(magic) \(version) \(profileName)"
  }

  /// The file's text.
  public var text: String {
    var lines = [
      Self.header(profileName: profileName),
      "# LAYER ITEM VALUE: bbr or flash, the item, its bytes in hex (see mockgps(1), --state-dir)",
    ]
    for record in records {
      lines.append("\(record.layer.rawValue) \(record.item) \(Self.hex(record.value))")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Reads a file's text, written for the profile `profileName`.
  ///
  /// - Throws: `ChipStateError` naming the line and what was expected: another format, another
  ///   version or profile, a malformed line.
  public init(text: String, profileName: String) throws(ChipStateError) {
    let expectedHeader = Self.header(profileName: profileName)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    guard let first = lines.first else {
      throw ChipStateError(line: 1, "empty file (expected '\(expectedHeader)')")
    }
    let header = first.split(separator: " ", omittingEmptySubsequences: false)
    guard header.count == 3, header[0] == Self.magic else {
      throw ChipStateError(line: 1, "not a chip state file (expected '\(expectedHeader)')")
    }
    guard header[1] == "\(Self.version)" else {
      throw ChipStateError(
        line: 1, "version '\(Self.shown(header[1]))' (expected \(Self.version))")
    }
    guard header[2] == profileName else {
      throw ChipStateError(
        line: 1,
        "written by profile '\(Self.shown(header[2]))' (expected '\(profileName)'; "
          + "remove the file to start from the factory settings)")
    }
    self.init(profileName: profileName)
    for (offset, line) in lines.enumerated().dropFirst() {
      guard !line.isEmpty, !line.hasPrefix("#") else { continue }
      records.append(try Self.record(line, number: offset + 1))
    }
  }

  /// Parses `LAYER ITEM HEX`.
  private static func record(_ line: Substring, number: Int) throws(ChipStateError) -> Record {
    let fields = line.split(separator: " ", omittingEmptySubsequences: false)
    guard fields.count == 3 else {
      throw ChipStateError(line: number, "expected 'LAYER ITEM VALUE', got '\(shown(line))'")
    }
    guard let layer = Layer(rawValue: String(fields[0])) else {
      throw ChipStateError(
        line: number, "layer '\(shown(fields[0]))' (expected bbr or flash)")
    }
    guard !fields[1].isEmpty, fields[1].utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw ChipStateError(line: number, "item '\(shown(fields[1]))' (expected a name)")
    }
    guard let value = bytes(fields[2]) else {
      throw ChipStateError(
        line: number, "value '\(shown(fields[2]))' (expected bytes in hex, two digits each)")
    }
    return Record(layer: layer, item: String(fields[1]), value: value, line: number)
  }

  /// `c80001`: two lowercase hex digits a byte.
  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The bytes of a non-empty run of hex digit pairs, or nil.
  static func bytes(_ text: Substring) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard !utf8.isEmpty, utf8.count.isMultiple(of: 2) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count / 2)
    for index in stride(from: 0, to: utf8.count, by: 2) {
      guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  /// A field as an error shows it: at most 40 characters, control characters as `?`.
  static func shown(_ text: Substring) -> String {
    let clipped = text.unicodeScalars.prefix(40).map { scalar in
      scalar.value < 0x20 || scalar.value == 0x7F ? "?" : Character(scalar)
    }
    return String(clipped) + (text.unicodeScalars.count > 40 ? "…" : "")
  }
}

/// Why a state file cannot be loaded: its line and what was expected.
public struct ChipStateError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The line, from 1; nil for a record that was not read from a file.
  public var line: Int?
  /// What is wrong and what was expected.
  public var message: String

  /// Creates an error.
  public init(line: Int?, _ message: String) {
    self.line = line
    self.message = message
  }

  /// `line 3: layer 'rom' (expected bbr or flash)`.
  public var description: String { (line.map { "line \($0): " } ?? "") + message }
}

/// A chip that keeps settings across power cycles and can be powered up from them.
///
/// `nonVolatileWrites` counts the commands that wrote its flash or battery-backed RAM (a
/// CFG-CFG save or clear, a CFG-VALSET or VALDEL to those layers), so that the emulator sees a
/// save by comparing two numbers and writes the file only then.
public protocol StatefulCommandHandler: ReceiverCommandHandler {
  /// What the chip keeps across a power cycle.
  var nonVolatileState: ChipState { get }
  /// How many commands have written the non-volatile memory so far.
  var nonVolatileWrites: Int { get }
  /// Powers up with `state` as the chip's memory: it loads its settings from it as at a
  /// power-up; returns the effects of the settings that differ from the ones it started with.
  ///
  /// - Throws: `ChipStateError` for an item the chip does not have or a value it cannot hold
  ///   (of the wrong size), at the record's line.
  mutating func powerUp(restoring state: ChipState) throws(ChipStateError) -> [ReceiverEffect]
}
