import Control

/// A whole response of the panel (every one but an event stream's): status, type, body and
/// the headers beyond those every response carries.
public struct PanelResponse: Sendable {
  public var status: Int
  public var contentType: String
  public var body: [UInt8]
  public var headers: [(String, String)]

  public init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
    self.status = status
    self.contentType = contentType
    self.body = body
    self.headers = headers
  }

  /// A plain-text response: `forbidden: host`.
  public static func text(_ status: Int, _ text: String, headers: [(String, String)] = [])
    -> PanelResponse
  {
    PanelResponse(
      status: status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8),
      headers: headers)
  }

  /// A JSON response of one control reply line.
  public static func json(_ status: Int, _ reply: ControlReply) -> PanelResponse {
    PanelResponse(status: status, contentType: "application/json", body: Array(reply.line.utf8))
  }

  /// A refusal in the control layer's JSON: `{"ok":false,"error":"device: …"}`.
  public static func refusal(_ status: Int, _ message: String) -> PanelResponse {
    json(status, .refused(message))
  }

  /// What images the page may load beyond its own: inline data and OpenStreetMap's tiles.
  public static let contentSecurityPolicy =
    "default-src 'self'; img-src 'self' data: https://tile.openstreetmap.org https://*.tile.openstreetmap.org; "
    + "connect-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; "
    + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

  /// The headers of every response, event streams and refusals included. Never any
  /// `Access-Control-*`: no other origin may read the panel.
  public static let commonHeaders: [(String, String)] = [
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
    ("Content-Security-Policy", contentSecurityPolicy),
    // The token is in the page's URL: it must not leave in a Referer (to the map's tiles).
    ("Referrer-Policy", "no-referrer"),
  ]
}
