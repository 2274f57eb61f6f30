import MockGPSTestSupport
import TestFixtures
import Testing

@testable import Panel

@Suite(.blocking) struct PanelPolicyTests {
  static let token = PanelToken(bytes: Array(0..<16))
  let policy = PanelPolicy(token: Self.token, host: "127.0.0.1", port: 8080, deviceCount: 2)

  func request(
    _ method: String = "GET", _ path: String = "/api/devices", path named: String? = nil,
    query: [(name: String, value: String)] = [("token", Self.token.text)],
    host: String? = "127.0.0.1:8080", hostCount: Int? = nil, origin: String? = nil,
    fetchSite: String? = nil, contentLength: Int? = nil
  ) -> PanelRequest {
    PanelRequest(
      method: method, path: named ?? path, query: query, host: host, hostCount: hostCount,
      origin: origin, fetchSite: fetchSite, contentLength: contentLength)
  }

  func refusal(_ decision: PanelPolicy.Decision) -> (Int, String, [(String, String)])? {
    guard case .refuse(let response) = decision else { return nil }
    return (response.status, String(decoding: response.body, as: UTF8.self), response.headers)
  }

  func route(_ decision: PanelPolicy.Decision) -> PanelRoute? {
    guard case .serve(let route) = decision else { return nil }
    return route
  }

  @Test func withoutTokenIsForbidden() {
    let refused = refusal(policy.decide(request(query: [])))
    #expect(refused?.0 == 403)
    #expect(refused?.1 == "forbidden: missing or wrong token\n")
  }

  @Test func wrongTokenIsForbidden() {
    for wrong in ["000102030405060708090a0b0c0d0e0e", "", "0123", Self.token.text + "0"] {
      #expect(refusal(policy.decide(request(query: [("token", wrong)])))?.0 == 403)
    }
  }

  /// A page on another port of 127.0.0.1 is the same site but another origin: its POST is
  /// refused even with the token.
  @Test func aPostFromAnotherOriginIsForbidden() {
    func post(origin: String?, site: String?) -> PanelPolicy.Decision {
      policy.decide(
        request(
          "POST", "/api/command", query: [("token", Self.token.text), ("device", "0")],
          origin: origin, fetchSite: site))
    }
    for (origin, site) in [
      ("http://127.0.0.1:8000", nil), ("http://127.0.0.1:8080", "same-site"),
      (nil, "cross-site"), ("null", nil), ("https://127.0.0.1:8080", nil),
      ("http://localhost:8080", "same-origin"),
    ] as [(String?, String?)] {
      let refused = refusal(post(origin: origin, site: site))
      #expect(refused?.0 == 403, "\(String(describing: origin)) \(String(describing: site))")
      #expect(refused?.1 == "forbidden: origin\n")
    }
    for (origin, site) in [
      (nil, nil), ("http://127.0.0.1:8080", nil), ("http://127.0.0.1:8080", "same-origin"),
      (nil, "same-origin"),
    ] as [(String?, String?)] {
      #expect(route(post(origin: origin, site: site)) == .command(device: 0))
    }
    // A GET may come from a link (Sec-Fetch-Site: none or cross-site): the token decides.
    #expect(route(policy.decide(request(fetchSite: "cross-site"))) == .devices)
  }

  /// RFC 9112 §3.2: a request with no Host or more than one is 400.
  @Test func anythingButOneHostHeaderIs400() {
    for count in [0, 2, 3] {
      let refused = refusal(policy.decide(request(hostCount: count)))
      #expect(refused?.0 == 400, "\(count)")
      #expect(refused?.1 == "bad request: expected exactly one Host header\n")
    }
  }

  /// Browsers leave `:80` out of `Host`.
  @Test func port80AcceptsTheBareHost() {
    let eighty = PanelPolicy(token: Self.token, host: "127.0.0.1", port: 80, deviceCount: 1)
    for host in ["127.0.0.1", "localhost", "[::1]", "127.0.0.1:80", "localhost:80"] {
      #expect(route(eighty.decide(request(host: host))) == .devices, "\(host)")
    }
    #expect(refusal(eighty.decide(request(host: "evil.example")))?.0 == 403)
    #expect(refusal(policy.decide(request(host: "127.0.0.1")))?.0 == 403)
  }

  @Test func otherHostIsForbidden() {
    for host in ["evil.example:8080", "127.0.0.1:8081", "127.0.0.1", "", "localhost.evil:8080"] {
      let refused = refusal(policy.decide(request(host: host)))
      #expect(refused?.0 == 403, "\(host)")
      #expect(refused?.1 == "forbidden: host\n")
    }
    #expect(refusal(policy.decide(request(host: nil)))?.0 == 400, "no Host: RFC 9112")
  }

  @Test func loopbackSpellingsAreAccepted() {
    for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080"] {
      #expect(route(policy.decide(request(host: host))) == .devices, "\(host)")
    }
    let remote = PanelPolicy(token: Self.token, host: "192.0.2.7", port: 80, deviceCount: 1)
    #expect(remote.allowedHosts == ["192.0.2.7:80", "192.0.2.7"])
  }

  /// A panel bound to every interface answers any address of the machine, which it cannot list:
  /// an IP literal with its port is accepted (DNS cannot rebind one), a name is not.
  @Test func aWildcardBindAcceptsAddressLiteralsButNoNames() {
    for bound in ["0.0.0.0", "::"] {
      let wildcard = PanelPolicy(token: Self.token, host: bound, port: 8080, deviceCount: 1)
      for host in [
        "192.168.1.5:8080", "10.0.0.1:8080", "[fe80::1]:8080", "[2001:db8::7]:8080",
        "localhost:8080", "127.0.0.1:8080",
      ] {
        #expect(route(wildcard.decide(request(host: host))) == .devices, "\(bound) \(host)")
      }
      for host in [
        "evil.example:8080", "192.168.1.5:8081", "1.2.3:8080", "1.2.3.256:8080", "1.2.3.4.5:8080",
        "[evil]:8080", "[::1]:80800", "1.2.3.4", "١.2.3.4:8080", "[]:8080",
      ] {
        #expect(refusal(wildcard.decide(request(host: host)))?.0 == 403, "\(bound) \(host)")
      }
    }
    #expect(policy.anyAddressPort == nil)
    #expect(refusal(policy.decide(request(host: "192.168.1.5:8080")))?.0 == 403)
  }

  @Test func thePageCarriesTheTokenInItsAssetURLs() {
    #expect(route(policy.decide(request(path: "/"))) == .page(.index))
    let page = String(
      decoding: policy.indexPage(Array(PackageResources.index_html)), as: UTF8.self)
    #expect(page.contains(#"href="panel.css?token=\#(Self.token.text)""#))
    #expect(page.contains(#"src="panel.js?token=\#(Self.token.text)""#))
    #expect(!page.contains(PanelPolicy.tokenPlaceholder))
  }

  @Test func methodsOtherThanTheRoutesAre405() {
    let command = refusal(
      policy.decide(request("GET", "/api/command", query: [("token", Self.token.text)])))
    #expect(command?.0 == 405)
    #expect(command?.2.contains { $0 == ("Allow", "POST") } == true)
    #expect(refusal(policy.decide(request("HEAD", "/api/command")))?.0 == 405)
    for path in ["/", "/api/devices", "/api/status", "/api/events", "/panel.js"] {
      let allowed = path == "/api/events" ? "GET" : "GET, HEAD"
      for method in ["POST", "PUT", "DELETE"] + (path == "/api/events" ? ["HEAD"] : []) {
        let refused = refusal(policy.decide(request(method, path)))
        #expect(refused?.0 == 405, "\(method) \(path)")
        #expect(refused?.2.contains { $0 == ("Allow", allowed) } == true, "\(method) \(path)")
      }
    }
  }

  /// HEAD is GET without the body: the same route (the server leaves the body out).
  @Test func headIsServedWhereGetIs() {
    #expect(route(policy.decide(request("HEAD", "/"))) == .page(.index))
    #expect(route(policy.decide(request("HEAD", "/api/devices"))) == .devices)
  }

  @Test func unknownPathsAre404() {
    for path in ["/etc/passwd", "/leaflet/../../etc/passwd", "/leaflet/x.js", "/api", "/api/"] {
      #expect(refusal(policy.decide(request(path: path)))?.0 == 404, "\(path)")
    }
    #expect(route(policy.decide(request(path: "/leaflet/leaflet.js"))) == .leaflet("leaflet.js"))
  }

  @Test func largeBodiesAre413() {
    let refused = refusal(
      policy.decide(
        request(
          "POST", "/api/command", query: [("token", Self.token.text), ("device", "0")],
          contentLength: 20 << 10)))
    #expect(refused?.0 == 413)
    let fits = policy.decide(
      request(
        "POST", "/api/command", query: [("token", Self.token.text), ("device", "1")],
        contentLength: 16 << 10))
    #expect(route(fits) == .command(device: 1))
  }

  @Test func deviceIdsAreChecked() {
    let cases: [(String?, String)] = [
      (nil, "device: missing; expected an id from 0 to 1"),
      ("2", "device: unknown device '2'; expected an id from 0 to 1"),
      ("-1", "device: unknown device '-1'; expected an id from 0 to 1"),
      ("01x", "device: unknown device '01x'; expected an id from 0 to 1"),
      (
        "99999999999999999999",
        "device: unknown device '99999999999999999999'; expected an id from 0 to 1"
      ),
    ]
    for (id, message) in cases {
      var query = [(name: "token", value: Self.token.text)]
      if let id { query.append((name: "device", value: id)) }
      let refused = refusal(policy.decide(request(path: "/api/status", query: query)))
      #expect(refused?.0 == 400)
      #expect(refused?.1 == "{\"ok\":false,\"error\":\"\(message)\"}\n")
    }
    let query = [(name: "token", value: Self.token.text), (name: "device", value: "1")]
    #expect(route(policy.decide(request(path: "/api/events", query: query))) == .events(device: 1))
  }

  @Test func tokenIsThirtyTwoLowercaseHexCharacters() throws {
    #expect(PanelToken("0123456789ABCDEF0123456789abcdef") == nil)
    #expect(PanelToken("0123") == nil)
    let one = try PanelToken.random()
    let two = try PanelToken.random()
    #expect(PanelToken(one.text) == one)
    #expect(one != two)
  }

  @Test func eventsAreFramed() {
    #expect(
      String(decoding: ServerSentEvents.event(data: "{\"a\":1}\n"), as: UTF8.self)
        == "data: {\"a\":1}\n\n")
    #expect(
      String(decoding: ServerSentEvents.event("status", data: "x\ny"), as: UTF8.self)
        == "event: status\ndata: x\ndata: y\n\n")
    // Only CR, LF and CR LF end lines; a mark after a line end stays in the next line.
    #expect(
      String(
        decoding: ServerSentEvents.event(data: "a\r\nb\rc\u{2028}d\n\u{65E}e\r\n"), as: UTF8.self)
        == "data: a\ndata: b\ndata: c\u{2028}d\ndata: \u{65E}e\n\n")
  }

  @Test func longRoutesAreThinnedEvenlyKeepingTheEnds() {
    let thinned = PanelDevices.thinned(12_000)
    #expect(thinned.count == PanelDevices.maximumRoutePoints)
    #expect(thinned.first == 0 && thinned.last == 11_999)
    #expect(zip(thinned, thinned.dropFirst()).allSatisfy { $1 > $0 })
    #expect(PanelDevices.thinned(3) == [0, 1, 2])
  }
}
