/// A decoded sentence of any type this module knows, or the raw sentence of one it does not.
public enum NMEAMessage: Hashable, Sendable {
  case gga(GGA)
  case rmc(RMC)
  case gsa(GSA)
  case gsv(GSV)
  case vtg(VTG)
  case gll(GLL)
  case zda(ZDA)
  /// A well-formed sentence of a type without a decoder (proprietary ones among them).
  case other(RawSentence)

  /// Parses a line and decodes it with the table row for its type.
  ///
  /// - Parameter requireChecksum: When false, a line without `*hh` is accepted.
  /// - Throws: `SentenceError` for a malformed line or a field that does not fit its type.
  public init(parsing line: some StringProtocol, requireChecksum: Bool = true)
    throws(SentenceError)
  {
    try self.init(RawSentence(parsing: line, requireChecksum: requireChecksum))
  }

  /// Decodes a raw sentence with the table row for its type.
  public init(_ raw: RawSentence) throws(SentenceError) {
    guard raw.talker != "P", let decode = Self.table[raw.type] else {
      self = .other(raw)
      return
    }
    self = try decode(raw)
  }

  /// The raw sentence, re-encoded from the decoded fields.
  public var raw: RawSentence {
    switch self {
    case .gga(let body): return body.raw
    case .rmc(let body): return body.raw
    case .gsa(let body): return body.raw
    case .gsv(let body): return body.raw
    case .vtg(let body): return body.raw
    case .gll(let body): return body.raw
    case .zda(let body): return body.raw
    case .other(let raw): return raw
    }
  }

  /// One row per sentence type: the decoder for that type.
  static let table: [String: @Sendable (RawSentence) throws(SentenceError) -> NMEAMessage] = [
    "GGA": { raw throws(SentenceError) in .gga(try GGA(raw)) },
    "RMC": { raw throws(SentenceError) in .rmc(try RMC(raw)) },
    "GSA": { raw throws(SentenceError) in .gsa(try GSA(raw)) },
    "GSV": { raw throws(SentenceError) in .gsv(try GSV(raw)) },
    "VTG": { raw throws(SentenceError) in .vtg(try VTG(raw)) },
    "GLL": { raw throws(SentenceError) in .gll(try GLL(raw)) },
    "ZDA": { raw throws(SentenceError) in .zda(try ZDA(raw)) },
  ]

  /// The sentence types with a decoder.
  public static var decodedTypes: Set<String> { Set(table.keys) }
}
