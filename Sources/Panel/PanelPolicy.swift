/// The panel's decisions on a request before anything is served: the `Host` (against DNS
/// rebinding), the token (in the query, compared in constant time; never a cookie, which every
/// port of the host would share), the origin of a `POST`, the path, the method, the body's
/// size and the device id. Pure: no socket, no C.
public struct PanelPolicy: Sendable {
  /// The largest body `POST /api/command` takes.
  public static let maximumBodyBytes = 16 << 10
  /// What `index.html` says where the token goes in its own asset URLs; replaced when served.
  public static let tokenPlaceholder = "MOCKGPS_TOKEN"

  public let token: PanelToken
  /// The `Host` values accepted, lowercase: the bound address, and for a loopback bind its
  /// other loopback spellings.
  public let allowedHosts: Set<String>
  /// For a wildcard bind (`0.0.0.0`, `::`): the port that any IP-address `Host` may name. An
  /// address literal cannot be rebound to another server by DNS, and a wildcard panel answers
  /// on every address of the machine, which the policy cannot list.
  public let anyAddressPort: UInt16?
  /// Devices are 0..<deviceCount.
  public let deviceCount: Int

  /// The policy of a panel bound to `host`:`port` (the port it got, not 0) serving
  /// `deviceCount` devices.
  public init(token: PanelToken, host: String, port: UInt16, deviceCount: Int) {
    self.token = token
    self.deviceCount = deviceCount
    allowedHosts = Self.hosts(boundTo: host, port: port)
    anyAddressPort = Self.isWildcard(host) ? port : nil
  }

  /// What to do with a request: serve a route, or answer a refusal at once.
  public enum Decision: Sendable {
    /// Serve `route`.
    case serve(PanelRoute)
    case refuse(PanelResponse)
  }

  /// Decides on `request`.
  public func decide(_ request: PanelRequest) -> Decision {
    guard request.hostCount == 1 else {
      return .refuse(.text(400, "bad request: expected exactly one Host header"))
    }
    guard let host = request.host?.lowercased(),
      allowedHosts.contains(host) || anyAddressPort.map({ Self.isAddress(host, port: $0) }) == true
    else {
      return .refuse(.text(403, "forbidden: host"))
    }
    guard request.queryValue("token").map({ token.matches($0) }) == true else {
      return .refuse(.text(403, "forbidden: missing or wrong token"))
    }
    guard let path = PanelRoute.lookUp(request.path) else {
      return .refuse(.text(404, "not found"))
    }
    // HEAD is GET without the body (libmicrohttpd leaves it out), as HTTP requires; the event
    // stream has no end to leave out and is GET only.
    let allowsHead = path.method == "GET" && request.path != "/api/events"
    guard request.method == path.method || (request.method == "HEAD" && allowsHead) else {
      let allowed = allowsHead ? "GET, HEAD" : path.method
      return .refuse(.text(405, "method not allowed", headers: [("Allow", allowed)]))
    }
    if request.method == "POST", !isSameOrigin(request, host: host) {
      return .refuse(.text(403, "forbidden: origin"))
    }
    if let length = request.contentLength, length > Self.maximumBodyBytes {
      return .refuse(Self.bodyTooLarge)
    }
    var device = 0
    if path.takesDevice {
      switch parseDevice(request.queryValue("device")) {
      case .id(let id): device = id
      case .refused(let refusal): return .refuse(refusal)
      }
    }
    return .serve(path.route(device))
  }

  /// The answer to a body over `maximumBodyBytes`.
  public static let bodyTooLarge = PanelResponse.refusal(
    413, "body: larger than \(maximumBodyBytes) bytes")

  /// True when a `POST` comes from the panel's own page, as far as the browser says: no
  /// `Origin` or `http://HOST` (the `Host` already checked), and `Sec-Fetch-Site` absent or
  /// `same-origin`. Another port of the same host is another origin but the same site.
  func isSameOrigin(_ request: PanelRequest, host: String) -> Bool {
    if let site = request.fetchSite?.lowercased(), site != "same-origin" { return false }
    guard let origin = request.origin?.lowercased() else { return true }
    return origin == "http://\(host)"
  }

  /// `index.html` with the token written into its own asset URLs (hex: HTML-safe).
  public func indexPage(_ template: [UInt8]) -> [UInt8] {
    Array(
      String(decoding: template, as: UTF8.self)
        .replacing(Self.tokenPlaceholder, with: token.text).utf8)
  }

  /// A device id of the query: digits naming one of the devices.
  func parseDevice(_ text: String?) -> DeviceParse {
    let expected = deviceCount == 1 ? "expected 0" : "expected an id from 0 to \(deviceCount - 1)"
    guard let text else { return .refused(.refusal(400, "device: missing; \(expected)")) }
    guard text.utf8.count <= 9, !text.isEmpty,
      text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let id = Int(text), id < deviceCount
    else {
      return .refused(.refusal(400, "device: unknown device '\(text)'; \(expected)"))
    }
    return .id(id)
  }

  /// A device id, or the refusal of the text given for one.
  enum DeviceParse {
    case id(Int)
    case refused(PanelResponse)
  }

  /// `HOST:PORT` for the bound host, and for a loopback host every loopback spelling.
  static func hosts(boundTo host: String, port: UInt16) -> Set<String> {
    func withPort(_ host: String) -> String {
      host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
    var hosts: Set<String> = [withPort(host.lowercased())]
    if isLoopback(host) || isWildcard(host) {
      hosts.formUnion(["localhost", "127.0.0.1", "::1"].map(withPort))
    }
    // Browsers leave the default port out of `Host`.
    if port == 80 {
      hosts.formUnion(hosts.map { String($0.dropLast(":80".count)) })
    }
    return hosts
  }

  /// True for the addresses that bind every interface.
  static func isWildcard(_ host: String) -> Bool {
    host == "0.0.0.0" || host == "::" || host == "[::]"
  }

  /// True when `host` is `A.B.C.D:PORT` (four decimal parts 0–255) or `[IPv6]:PORT` (hex digits,
  /// colons and dots only) with the given port: an address, not a name.
  static func isAddress(_ host: String, port: UInt16) -> Bool {
    let suffix = ":\(port)"
    guard host.hasSuffix(suffix) else { return false }
    let address = host.dropLast(suffix.count)
    if address.hasPrefix("["), address.hasSuffix("]") {
      let inner = address.dropFirst().dropLast()
      return inner.contains(":") && inner.count <= 45
        && inner.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
    let parts = address.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII)
          && part.allSatisfy(\.isNumber)
          && (Int(part) ?? 256) <= 255
      }
  }

  /// True for `localhost`, `127.x.y.z` and `::1`.
  static func isLoopback(_ host: String) -> Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }
}
