/// The framing of a `text/event-stream` (the HTML standard's server-sent events).
public enum ServerSentEvents {
  /// One event: `event: NAME` when named, one `data:` line per line of `data` (a final
  /// newline dropped), and the blank line that ends it.
  public static func event(_ name: String? = nil, data: String) -> [UInt8] {
    var text = ""
    if let name { text += "event: \(name)\n" }
    var body = Substring(data)
    while body.last == "\n" || body.last == "\r" || body.last == "\r\n" { body = body.dropLast() }
    for line in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      text += "data: \(line)\n"
    }
    text += "\n"
    return Array(text.utf8)
  }

  /// A comment that keeps a quiet stream (no epochs) open through proxies and timeouts.
  public static let keepalive = Array(": keepalive\n\n".utf8)
}
