import NMEA
import UBX

/// An NMEA poll a client writes to a u-blox (u-blox 8 / M8 receiver description, NMEA
/// protocol, "Standard Poll messages" and "PUBX Messages"): the chip answers it at once with
/// the sentence of the last epoch it computed, whatever its rate.
///
///     $xxGNQ,msgId*cs    $xxGPQ,…  $xxGLQ,…  $xxGAQ,…  $xxGBQ,…  (msgId: GGA, GBS, …)
///     $PUBX,00*33        $PUBX,03*30        $PUBX,04*37
///
/// The standard polls differ only in the system whose sentence is asked for; the chip writes
/// the sentence as it writes it each epoch, under its own talker, so they are one poll here.
/// The talker of the poll itself (`EI`, `GN`…) is the asker's and is not checked.
public struct NMEAPoll: Hashable, Sendable {
  /// The sentence asked for: a standard type (`"RMC"`) or `"PUBX,00"`, `"PUBX,03"`,
  /// `"PUBX,04"`.
  public var sentence: String

  /// The standard poll types, by the system each asks about.
  static let standardPollTypes: Set<String> = ["GNQ", "GPQ", "GLQ", "GAQ", "GBQ"]

  /// Reads a poll from a line without its CR LF; nil for anything else, or a bad checksum.
  public init?(parsing line: some StringProtocol) {
    guard let raw = try? RawSentence(parsing: line), raw.startDelimiter == "$",
      raw.fields.count == 1, let field = raw.fields.first
    else { return nil }
    if raw.address == "PUBX" {
      // The PUBX messages the chip sends (`UBXMessageType`'s class F1).
      guard UBXMessageType(nmeaSentence: "PUBX," + field) != nil else { return nil }
      sentence = "PUBX," + field
      return
    }
    guard raw.talker != "P", Self.standardPollTypes.contains(raw.type), field.count == 3,
      field.allSatisfy({ $0.isASCII && $0.isUppercase })
    else { return nil }
    sentence = field
  }
}
