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
  /// How many `Host` headers were sent: exactly one is valid (RFC 9112 §3.2).
  public var hostCount: Int
  /// The `Origin` header, when sent (browsers send it on a cross-origin or `POST` request).
  public var origin: String?
  /// The `Sec-Fetch-Site` header, when sent: `same-origin`, `same-site`, `cross-site`, `none`.
  public var fetchSite: String?
  /// The `Content-Length` header's value, when sent and a number.
  public var contentLength: Int?

  public init(
    method: String, path: String, query: [(name: String, value: String)] = [],
    host: String? = nil, hostCount: Int? = nil, origin: String? = nil,
    fetchSite: String? = nil, contentLength: Int? = nil
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.host = host
    self.hostCount = hostCount ?? (host == nil ? 0 : 1)
    self.origin = origin
    self.fetchSite = fetchSite
    self.contentLength = contentLength
  }

  /// The first value of the query parameter `name`.
  public func queryValue(_ name: String) -> String? {
    query.first { $0.name == name }?.value
  }
}
