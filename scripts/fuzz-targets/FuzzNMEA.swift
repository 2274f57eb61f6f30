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

let builtInSeeds: [[UInt8]] = encodedEpochs
