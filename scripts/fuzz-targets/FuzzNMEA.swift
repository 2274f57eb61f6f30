import NMEA

/// The `nmea` target: the bytes go through `Framer`, and each line it frames is parsed with and
/// without a required checksum. A line that parses must re-encode to a line that parses again,
/// with the same checksum requirement, into a message that re-encodes to the same text.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  var framer = Framer()
  let lines = framer.append(bytes)
  guard framer.discardedByteCount <= bytes.count else {
    failure("framer discarded \(framer.discardedByteCount) of \(bytes.count) bytes")
  }
  for line in lines {
    guard line.utf8.first == UInt8(ascii: "$") || line.utf8.first == UInt8(ascii: "!") else {
      failure("framed line without a start delimiter: \(line.debugDescription)")
    }
    if let raw = try? RawSentence(parsing: line, requireChecksum: false) {
      for decoder in writtenOnlyDecoders { checkRoundTrip(raw, decoder) }
    }
    for requireChecksum in [true, false] {
      guard let message = try? NMEAMessage(parsing: line, requireChecksum: requireChecksum) else {
        continue
      }
      let encoded = message.raw.description
      let again: NMEAMessage
      do {
        again = try NMEAMessage(parsing: encoded, requireChecksum: requireChecksum)
      } catch {
        failure("\(line.debugDescription) re-encodes to \(encoded.debugDescription): \(error)")
      }
      guard again.raw.description == encoded else {
        failure(
          "\(line.debugDescription) re-encodes to \(encoded.debugDescription), then to "
            + again.raw.description.debugDescription)
      }
    }
  }
}

/// The sentence types the receivers write that `NMEAMessage` does not decode (its table holds
/// those a client's or a receiver's input needs): each decodes through its `SentenceSpec`, and
/// what decodes must re-encode stably, as `NMEAMessage`'s types must.
let writtenOnlyDecoders: [@Sendable (RawSentence) throws -> RawSentence] = [
  { try GST($0).raw }, { try GNS($0).raw }, { try TXT($0).raw }, { try GBS($0).raw },
  { try GRS($0).raw }, { try DTM($0).raw }, { try VLW($0).raw }, { try PUBXPosition($0).raw },
]

/// Decodes `raw` with `decode`; what decodes re-encodes to a line that decodes to itself.
func checkRoundTrip(_ raw: RawSentence, _ decode: (RawSentence) throws -> RawSentence) {
  guard let encoded = try? decode(raw) else { return }
  let text = encoded.description
  do {
    let again = try decode(try RawSentence(parsing: text, requireChecksum: false))
    guard again.description == text else {
      failure(
        "\(raw.description.debugDescription) re-encodes to \(text.debugDescription), then to "
          + again.description.debugDescription)
    }
  } catch {
    failure("\(raw.description.debugDescription) re-encodes to \(text.debugDescription): \(error)")
  }
}

let builtInSeeds: [[UInt8]] = encodedEpochs
