/// The framing of a `text/event-stream` (the HTML standard's server-sent events).
public enum ServerSentEvents {
  /// One event: `event: NAME` when named, one `data:` line per line of `data`, and the blank
  /// line that ends it. Lines end at CR, LF or CR LF only, as the standard reads them (on bytes:
  /// no other Unicode line break, no grapheme joining a newline to what follows), and a final
  /// line end of `data` is dropped.
  public static func event(_ name: String? = nil, data: String) -> [UInt8] {
    var bytes: [UInt8] = []
    if let name { bytes += Array("event: \(name)\n".utf8) }
    var body = Array(data.utf8)[...]
    while let last = body.last, last == carriageReturn || last == lineFeed {
      body = body.dropLast()
    }
    bytes += dataPrefix
    var index = body.startIndex
    while index < body.endIndex {
      let byte = body[index]
      index += 1
      guard byte == carriageReturn || byte == lineFeed else {
        bytes.append(byte)
        continue
      }
      if byte == carriageReturn, index < body.endIndex, body[index] == lineFeed { index += 1 }
      bytes.append(lineFeed)
      bytes += dataPrefix
    }
    bytes += [lineFeed, lineFeed]
    return bytes
  }

  /// A comment that keeps a quiet stream (no epochs) open through proxies and timeouts.
  public static let keepalive = Array(": keepalive\n\n".utf8)

  private static let dataPrefix = Array("data: ".utf8)
  private static let carriageReturn = UInt8(ascii: "\r")
  private static let lineFeed = UInt8(ascii: "\n")
}
