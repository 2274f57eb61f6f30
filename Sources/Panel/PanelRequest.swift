/// What the panel's policy reads of an HTTP request, as the server library parsed it: no
/// socket, no body.
public struct PanelRequest: Sendable {
  /// `GET`, `POST`… as sent.
  public var method: String
  /// The path without its query: `/api/status`.
  public var path: String
  /// The query's parameters in order, decoded.
  public var query: [(name: String, value: String)]
  /// The `Host` header, when sent.
  public var host: String?
  /// The `Cookie` header, when sent.
  public var cookie: String?
  /// The `Content-Length` header's value, when sent and a number.
  public var contentLength: Int?

  public init(
    method: String, path: String, query: [(name: String, value: String)] = [],
    host: String? = nil, cookie: String? = nil, contentLength: Int? = nil
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.host = host
    self.cookie = cookie
    self.contentLength = contentLength
  }

  /// The first value of the query parameter `name`.
  public func queryValue(_ name: String) -> String? {
    query.first { $0.name == name }?.value
  }

  /// The value of the cookie `name` in the `Cookie` header (`a=1; b=2`), the first if sent
  /// twice.
  public func cookieValue(_ name: String) -> Substring? {
    guard let cookie else { return nil }
    for pair in cookie.split(separator: ";") {
      let trimmed = pair.drop { $0 == " " || $0 == "\t" }
      guard let equals = trimmed.firstIndex(of: "=") else { continue }
      if trimmed[..<equals] == name[...] {
        var value = trimmed[trimmed.index(after: equals)...]
        while value.last == " " || value.last == "\t" { value = value.dropLast() }
        return value
      }
    }
    return nil
  }
}
