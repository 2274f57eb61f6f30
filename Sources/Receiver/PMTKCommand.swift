import NMEA

/// A MediaTek command as a client writes it: `$PMTKnnn,field,…*hh`.
///
/// The framing and checksum are NMEA's (`RawSentence`); the address must be `PMTK` and three
/// digits, the command's number.
public struct PMTKCommand: Hashable, Sendable {
  /// The command number: 220 for `$PMTK220`.
  public var number: Int
  /// The fields after the address, as written.
  public var fields: [String]

  /// Creates a command.
  public init(number: Int, fields: [String] = []) {
    self.number = number
    self.fields = fields
  }

  /// Why a line is not a PMTK command.
  public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not an NMEA sentence with a valid checksum.
    case sentence(SentenceError)
    /// An NMEA sentence of another address.
    case notPMTK(address: String)

    public var description: String {
      switch self {
      case .sentence(let error): return "\(error)"
      case .notPMTK(let address): return "'\(address)' is not a PMTK command"
      }
    }
  }

  /// Parses a line without its CR LF.
  ///
  /// - Throws: `ParseError.sentence` when the line is no NMEA sentence or its checksum is
  ///   missing or wrong; `.notPMTK` for another address.
  public init(parsing line: some StringProtocol) throws(ParseError) {
    let sentence: RawSentence
    do {
      sentence = try RawSentence(parsing: line)
    } catch {
      throw .sentence(error)
    }
    let address = sentence.address
    let digits = address.utf8.dropFirst(4)
    guard sentence.startDelimiter == "$", address.hasPrefix("PMTK"), digits.count == 3,
      digits.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(address.dropFirst(4))
    else { throw .notPMTK(address: address) }
    self.init(number: number, fields: sentence.fields)
  }

  /// The command as a line without CR LF, checksum included: `$PMTK001,220,3*32`.
  public var text: String {
    let number = String(self.number)
    let padded = String(repeating: "0", count: max(0, 3 - number.count)) + number
    return RawSentence(address: "PMTK" + padded, fields: fields).description
  }
}
