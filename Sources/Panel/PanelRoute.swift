/// What a request of the panel asks for, once it passed the policy.
public enum PanelRoute: Hashable, Sendable {
  /// One of the page's files, embedded in the binary.
  case page(PanelPageFile)
  /// A file of Debian's libjs-leaflet, by its name under the allow-list.
  case leaflet(String)
  /// `GET /api/devices`.
  case devices
  /// `GET /api/status?device=ID`.
  case status(device: Int)
  /// `GET /api/route?device=ID`.
  case route(device: Int)
  /// `GET /api/events?device=ID`.
  case events(device: Int)
  /// `POST /api/command?device=ID`.
  case command(device: Int)

  /// What a path answers: its method, whether it names a device, and the route for a device
  /// id (ignored when it names none); nil for an unknown path.
  static func lookUp(_ path: String) -> PanelPath? {
    switch path {
    case "/", "/index.html":
      return PanelPath(method: "GET", takesDevice: false) { _ in .page(.index) }
    case "/panel.js": return PanelPath(method: "GET", takesDevice: false) { _ in .page(.script) }
    case "/panel.css": return PanelPath(method: "GET", takesDevice: false) { _ in .page(.style) }
    case "/api/devices": return PanelPath(method: "GET", takesDevice: false) { _ in .devices }
    case "/api/status": return PanelPath(method: "GET", takesDevice: true) { .status(device: $0) }
    case "/api/route": return PanelPath(method: "GET", takesDevice: true) { .route(device: $0) }
    case "/api/events": return PanelPath(method: "GET", takesDevice: true) { .events(device: $0) }
    case "/api/command":
      return PanelPath(method: "POST", takesDevice: true) { .command(device: $0) }
    default:
      guard path.hasPrefix(leafletPrefix) else { return nil }
      let name = String(path.dropFirst(leafletPrefix.count))
      guard leafletFiles.contains(name) else { return nil }
      return PanelPath(method: "GET", takesDevice: false) { _ in .leaflet(name) }
    }
  }

  static let leafletPrefix = "/leaflet/"

  /// The files of libjs-leaflet the panel serves: no other name reaches the filesystem.
  public static let leafletFiles: Set<String> = [
    "leaflet.js", "leaflet.css", "images/layers.png", "images/layers-2x.png",
    "images/marker-icon.png", "images/marker-icon-2x.png", "images/marker-shadow.png",
  ]

}

/// One path of the panel: the method it answers and the route it gives.
struct PanelPath {
  var method: String
  var takesDevice: Bool
  var route: (Int) -> PanelRoute
}

/// The page's files.
public enum PanelPageFile: String, Hashable, Sendable, CaseIterable {
  case index = "index.html"
  case script = "panel.js"
  case style = "panel.css"

  /// The `Content-Type` it is served with.
  public var contentType: String {
    switch self {
    case .index: return "text/html; charset=utf-8"
    case .script: return "text/javascript; charset=utf-8"
    case .style: return "text/css; charset=utf-8"
    }
  }
}
