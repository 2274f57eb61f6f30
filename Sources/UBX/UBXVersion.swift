/// UBX-MON-VER: software and hardware version, then extension strings such as
/// `PROTVER=18.00` (which gpsd reads to choose the protocol it speaks).
///
///     swVersion CH[30] | hwVersion CH[10] | extension CH[30] × N
public struct UBXVersion: Hashable, Sendable {
  public var software: String
  public var hardware: String
  public var extensions: [String]

  /// Creates a version answer.
  public init(software: String, hardware: String, extensions: [String]) {
    self.software = software
    self.hardware = hardware
    self.extensions = extensions
  }

  /// Reads a MON-VER payload; nil when it is shorter than 40 bytes.
  public init?(payload: [UInt8]) {
    var reader = UBXPayloadReader(payload)
    guard let software = reader.characters(width: 30), let hardware = reader.characters(width: 10)
    else { return nil }
    var extensions: [String] = []
    while let text = reader.characters(width: 30) { extensions.append(text) }
    self.init(software: software, hardware: hardware, extensions: extensions)
  }

  /// The MON-VER frame.
  public var frame: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.characters(software, width: 30)
    payload.characters(hardware, width: 10)
    for text in extensions { payload.characters(text, width: 30) }
    return UBXFrame(.monVER, payload: payload.bytes)
  }

  /// The protocol version of the `PROTVER=` extension (`18.00` → 18.0), or nil.
  public var protocolVersion: Double? {
    for text in extensions where text.hasPrefix("PROTVER=") || text.hasPrefix("PROTVER ") {
      return Double(text.dropFirst(8))
    }
    return nil
  }
}
