/// A text message: one line of a banner or notice, such as u-blox's power-up lines.
///
///            1  2  3  4
///     $--TXT,xx,xx,xx,c--c*hh
///
/// Fields: the number of sentences of the message, this sentence's number, the text's kind
/// (00 error, 01 warning, 02 notice, 07 user) and the text.
/// See gpsd's `www/NMEA.adoc`, "TXT - Text Transmission".
public struct TXT: SentenceBody {
  public var talker = "GP"
  public var sentenceCount: NMEADecimal?
  public var sentenceNumber: NMEADecimal?
  public var textIdentifier: NMEADecimal?
  public var text: String?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<TXT>(
    type: "TXT", minimumFields: 4, standardFields: 4,
    fields: [
      .decimal(\.sentenceCount, "sentence count"), .decimal(\.sentenceNumber, "sentence number"),
      .decimal(\.textIdentifier, "text identifier"), .text(\.text, "text"),
    ])
}
