import NMEA
import UBX

/// A u-blox proprietary NMEA command a client writes (u-blox 8 / M8 receiver description,
/// "PUBX-CONFIG (PUBX,41)" and "PUBX-RATE (PUBX,40)"): `$PUBX,41,…` sets a port's protocols and
/// baud, `$PUBX,40,…` an NMEA sentence's rate on each port.
public enum PUBXCommand: Hashable, Sendable {
  /// `$PUBX,41,portId,inProto,outProto,baudrate,autobauding`: the protocol masks are CFG-PRT's
  /// (hexadecimal on the line), the baud any a UART runs at.
  case configurePort(
    portID: UInt8, inProtocols: UBXPortConfiguration.Protocols,
    outProtocols: UBXPortConfiguration.Protocols, baud: Int, autobauding: Bool)
  /// `$PUBX,40,msgId,rddc,rus1,rus2,rusb,rspi,reserved`: the rate of the NMEA sentence `msgId`
  /// (`GGA`) on DDC, UART1, UART2, USB and SPI, in CFG-MSG's port order.
  case setRates(sentence: String, rates: [Int])

  /// Why a line is not a PUBX command this chip takes; a u-blox ignores such a line.
  public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not an NMEA sentence with a valid checksum.
    case sentence(SentenceError)
    /// An NMEA sentence of another address, or a PUBX message ID other than 40 and 41.
    case notCommand(String)
    /// A field that is missing or not what the message defines.
    case field(name: String, expected: String)

    public var description: String {
      switch self {
      case .sentence(let error): return "\(error)"
      case .notCommand(let what): return "'\(what)' is not a PUBX,40 or PUBX,41 command"
      case .field(let name, let expected): return "PUBX field '\(name)': expected \(expected)"
      }
    }
  }

  /// Parses a line without its CR LF.
  ///
  /// - Throws: `ParseError.sentence` for a line that is no NMEA sentence or whose checksum is
  ///   missing or wrong; `.notCommand` for another sentence; `.field` naming the field that
  ///   is not as the message defines it.
  public init(parsing line: some StringProtocol) throws(ParseError) {
    let sentence: RawSentence
    do {
      sentence = try RawSentence(parsing: line)
    } catch {
      throw .sentence(error)
    }
    guard sentence.startDelimiter == "$", sentence.address == "PUBX", let id = sentence.fields.first
    else { throw .notCommand(sentence.address) }
    let fields = Array(sentence.fields.dropFirst())
    switch id {
    case "41": self = try Self.configurePort(fields)
    case "40": self = try Self.setRates(fields)
    default: throw .notCommand("PUBX," + id)
    }
  }

  /// PUBX,41's fields after the message ID.
  static func configurePort(_ fields: [String]) throws(ParseError) -> PUBXCommand {
    guard fields.count == 5 else { throw .field(name: "PUBX,41", expected: "5 fields") }
    guard let port = UInt8(fields[0]), port <= 4 else {
      throw .field(name: "portId", expected: "a port 0-4")
    }
    guard let input = UInt16(fields[1], radix: 16) else {
      throw .field(name: "inProto", expected: "a hexadecimal protocol mask")
    }
    guard let output = UInt16(fields[2], radix: 16) else {
      throw .field(name: "outProto", expected: "a hexadecimal protocol mask")
    }
    guard let baud = Int(fields[3]), baud > 0 else {
      throw .field(name: "baudrate", expected: "a baud rate in bit/s")
    }
    guard fields[4] == "0" || fields[4] == "1" else {
      throw .field(name: "autobauding", expected: "0 or 1")
    }
    return .configurePort(
      portID: port, inProtocols: .init(rawValue: input), outProtocols: .init(rawValue: output),
      baud: baud, autobauding: fields[4] == "1")
  }

  /// PUBX,40's fields after the message ID; the trailing reserved field may be left out.
  static func setRates(_ fields: [String]) throws(ParseError) -> PUBXCommand {
    guard fields.count == 6 || fields.count == 7 else {
      throw .field(name: "PUBX,40", expected: "6 or 7 fields")
    }
    let sentence = fields[0]
    guard sentence.count == 3, sentence.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      throw .field(name: "msgId", expected: "a three-letter NMEA sentence type")
    }
    var rates: [Int] = []
    for (name, field) in zip(["rddc", "rus1", "rus2", "rusb", "rspi"], fields[1...5]) {
      guard let rate = Int(field), (0...255).contains(rate) else {
        throw .field(name: name, expected: "a rate 0-255")
      }
      rates.append(rate)
    }
    return .setRates(sentence: sentence.uppercased(), rates: rates)
  }
}
