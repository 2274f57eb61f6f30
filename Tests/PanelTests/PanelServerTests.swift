import Glibc
import MockGPS
import MockGPSTestSupport
import TestFixtures
import Testing

@testable import Panel

/// The panel over real loopback sockets against a running emulator.
@Suite(.blocking, .timeLimit(.minutes(10))) struct PanelServerTests {
  @Test func refusesWithoutTokenWithWrongTokenAndWithOtherHost() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    let missing = try fixture.request("GET", "/api/devices")
    #expect(missing.status == 403)
    #expect(missing.body == "forbidden: missing or wrong token\n")
    let wrong = try fixture.request(
      "GET", "/api/devices?token=" + String(repeating: "0", count: 32))
    #expect(wrong.status == 403)
    let host = try fixture.request(
      "GET", fixture.withToken("/api/devices"), host: "evil.example:\(fixture.port)")
    #expect(host.status == 403)
    #expect(host.body == "forbidden: host\n")
    let good = try fixture.request("GET", fixture.withToken("/api/devices"))
    #expect(good.status == 200)
    #expect(good.body.hasPrefix(#"{"ok":true,"leaflet":"#))
    #expect(good.body.contains(#""devices":[{"id":0,"link":"\#(fixture.emulator.link.path)""#))
    for reply in [missing, wrong, host, good] {
      #expect(!reply.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
      #expect(reply.header("Cache-Control") == "no-store")
      #expect(reply.header("X-Content-Type-Options") == "nosniff")
      #expect(reply.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
    }
  }

  /// Cookies are shared by every port of 127.0.0.1: the panel sets none and takes none.
  @Test func thePageCarriesTheTokenInItsURLsAndACookieAloneIsForbidden() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    let page = try fixture.request("GET", fixture.withToken("/"))
    #expect(page.status == 200)
    #expect(page.header("Content-Type") == "text/html; charset=utf-8")
    #expect(page.header("Set-Cookie") == nil)
    #expect(page.body.contains(#"src="panel.js?token=\#(fixture.token)""#))
    #expect(page.body.contains(#"href="panel.css?token=\#(fixture.token)""#))
    let script = try fixture.request("GET", "/panel.js?token=\(fixture.token)")
    #expect(script.status == 200)
    #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
    let cookie = ["Cookie: mockgps_panel=\(fixture.token)"]
    for target in ["/panel.js", "/api/status?device=0"] {
      #expect(try fixture.request("GET", target, headers: cookie).status == 403, "\(target)")
    }
    let command = try fixture.request(
      "POST", "/api/command?device=0", headers: cookie, body: Array(#"{"cmd":"pause"}"#.utf8))
    #expect(command.status == 403)
    let status = try fixture.request("GET", fixture.withToken("/api/status?device=0"))
    #expect(status.status == 200)
    #expect(status.body.contains(#""link":"\#(fixture.emulator.link.path)""#))
    #expect(status.body.contains(#""panel_lines_dropped":0"#))
  }

  /// A page on another port of 127.0.0.1 (same site, other origin) cannot steer the device.
  @Test func aPostFromAnotherOriginIsForbidden() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    let body = Array(#"{"cmd":"position","lat":10,"lon":20}"#.utf8)
    for headers in [
      ["Origin: http://127.0.0.1:8000"], ["Sec-Fetch-Site: same-site"],
      ["Origin: http://127.0.0.1:\(fixture.port)", "Sec-Fetch-Site: cross-site"],
    ] {
      let refused = try fixture.request(
        "POST", fixture.withToken("/api/command?device=0"), headers: headers, body: body)
      #expect(refused.status == 403, "\(headers)")
      #expect(refused.body == "forbidden: origin\n")
    }
    let own = try fixture.request(
      "POST", fixture.withToken("/api/command?device=0"),
      headers: ["Origin: http://127.0.0.1:\(fixture.port)", "Sec-Fetch-Site: same-origin"],
      body: body)
    #expect(own.status == 200)
  }

  /// RFC 9112 §3.2: two `Host` headers (the first good) are 400.
  @Test func twoHostHeadersAre400() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    let twice = try fixture.request(
      "GET", fixture.withToken("/api/devices"), headers: ["Host: evil.example"])
    #expect(twice.status == 400)
    #expect(try fixture.request("GET", fixture.withToken("/api/devices")).status == 200)
  }

  @Test func aFixedPositionHasNoRouteAndALoadedRouteIsServed() throws {
    let fixture = try PanelFixture(filesDirectory: "files")
    defer { fixture.stop() }
    let none = try fixture.request("GET", fixture.withToken("/api/route?device=0"))
    #expect(none.status == 200)
    #expect(none.body == #"{"ok":true,"points":[]}"# + "\n")
    mkdir(fixture.directory + "/files", 0o755)
    let path = fixture.directory + "/files/route.csv"
    let file = try #require(fopen(path, "w"))
    fputs("lat,lon\n46.05,14.5\n46.06,14.51\n", file)
    fclose(file)
    defer { unlink(path) }
    let load = try fixture.request(
      "POST", fixture.withToken("/api/command?device=0"),
      body: Array(#"{"cmd":"route","file":"\#(path)","speed":10}"#.utf8))
    #expect(load.status == 200, "\(load.body)")
    let route = try fixture.request("GET", fixture.withToken("/api/route?device=0"))
    #expect(route.body == #"{"ok":true,"points":[[46.05,14.5],[46.06,14.51]]}"# + "\n")
  }

  /// The panel's users have no account here: it opens route files only under `--panel-files`,
  /// and a path outside (a link out included) is refused as a missing file is.
  @Test func routeFilesLoadOnlyFromThePanelFilesFolder() throws {
    let fixture = try PanelFixture(filesDirectory: "files")
    defer { fixture.stop() }
    mkdir(fixture.directory + "/files", 0o755)
    let outside = fixture.directory + "/secret.csv"
    let file = try #require(fopen(outside, "w"))
    fputs("lat,lon\n46.05,14.5\n46.06,14.51\n", file)
    fclose(file)
    symlink(outside, fixture.directory + "/files/link.csv")
    func load(_ path: String) throws -> HTTPReply {
      try fixture.request(
        "POST", fixture.withToken("/api/command?device=0"),
        body: Array(#"{"cmd":"route","file":"\#(path)"}"#.utf8))
    }
    for path in [
      outside, fixture.directory + "/files/link.csv", fixture.directory + "/files/../secret.csv",
      fixture.directory + "/files/missing.csv",
    ] {
      let refused = try load(path)
      #expect(refused.status == 400)
      #expect(
        refused.body == #"{"ok":false,"error":"route: cannot read '\#(path)': "#
          + #"no such file, or not readable by the requester"}"# + "\n")
    }
    #expect(try load("files/route.csv").body.contains("is a relative path"))
    let none = try PanelFixture()
    defer { none.stop() }
    let refused = try none.request(
      "POST", none.withToken("/api/command?device=0"),
      body: Array(#"{"cmd":"route","file":"\#(outside)"}"#.utf8))
    #expect(refused.status == 400)
    #expect(refused.body.contains("only from the folder named with --panel-files"))
  }

  @Test func headIsGetWithoutBodyOtherMethodsAre405AndLargeBodies413() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    let get = try fixture.request("GET", fixture.withToken("/api/command?device=0"))
    #expect(get.status == 405)
    #expect(get.header("Allow") == "POST")
    let post = try fixture.request("POST", fixture.withToken("/api/status?device=0"))
    #expect(post.status == 405)
    #expect(post.header("Allow") == "GET, HEAD")
    for path in ["/", "/api/status?device=0"] {
      let head = try fixture.request("HEAD", fixture.withToken(path))
      #expect(head.status == 200, "HEAD \(path)")
      #expect(head.body == "", "HEAD \(path)")
    }
    let large = try fixture.request(
      "POST", fixture.withToken("/api/command?device=0"),
      body: Array(repeating: UInt8(ascii: " "), count: 20 << 10))
    #expect(large.status == 413)
    #expect(try fixture.request("GET", fixture.withToken("/nothing")).status == 404)
    let device = try fixture.request("GET", fixture.withToken("/api/status?device=3"))
    #expect(device.status == 400)
    #expect(device.body == #"{"ok":false,"error":"device: unknown device '3'; expected 0"}"# + "\n")
  }

  @Test func badCommandsGetTheControlLayersRefusal() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    let cases = [
      (#"{"cmd":"position","lat":52.1"#, #"{"ok":false,"error":"#),
      (#"{"cmd":"teleport"}"#, #"{"ok":false,"error":"unknown command 'teleport'"#),
      (#"{"cmd":"position","lat":100,"lon":4.3}"#, #"{"ok":false,"error":"position: 'lat'"#),
      (#"{"cmd":"subscribe"}"#, #"{"ok":false,"error":"subscribe"#),
    ]
    for (body, start) in cases {
      let reply = try fixture.request(
        "POST", fixture.withToken("/api/command?device=0"), body: Array(body.utf8))
      #expect(reply.status == 400, "\(body)")
      #expect(reply.body.hasPrefix(start), "\(body): \(reply.body)")
      #expect(reply.header("Content-Type") == "application/json")
    }
  }

  @Test func aPositionCommandReachesTheTtyWithinTwoEpochs() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    let reader = try DeviceReader(path: fixture.emulator.link.path)
    #expect(reader.readUntil(type: "GGA", timeoutSeconds: 5) != nil)
    let reply = try fixture.request(
      "POST", fixture.withToken("/api/command?device=0"),
      body: Array(#"{"cmd":"position","lat":52.1,"lon":4.3,"id":7}"#.utf8))
    #expect(reply.status == 200)
    #expect(reply.body == #"{"ok":true,"id":7}"# + "\n")
    var moved = false
    for _ in 0..<2 {
      guard let line = reader.readUntil(type: "GGA", timeoutSeconds: 2) else { break }
      if line.text.contains(",5206.00000,N,00418.00000,E,") {
        moved = true
        break
      }
    }
    #expect(moved, "no GGA at 52.1, 4.3 within two epochs")
  }

  @Test func eventsCarryOneLinePerEpochWithTheSky() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    let descriptor = try HTTPReply.connect(port: fixture.port)
    defer { close(descriptor) }
    try HTTPReply.send(
      descriptor, method: "GET", target: fixture.withToken("/api/events?device=0"),
      host: "localhost:\(fixture.port)", headers: [], body: [])
    let raw = String(
      decoding: HTTPReply.read(descriptor, seconds: 10) { bytes in
        String(decoding: bytes, as: UTF8.self).split(separator: "data: {").count > 5
      }, as: UTF8.self)
    let reply = try #require(HTTPReply.parse(raw))
    #expect(reply.status == 200)
    #expect(reply.header("Content-Type") == "text/event-stream; charset=utf-8")
    let stream = reply.unchunkedBody
    #expect(stream.hasPrefix("event: status\ndata: {\"ok\":true"))
    let events = stream.split(separator: "\n\n").filter { $0.hasPrefix("data: ") }.dropLast()
    #expect(events.count >= 3)
    let epochs = events.compactMap { event in
      event.split(separator: ",").last.flatMap { Int($0.dropFirst(8).dropLast()) }
    }
    #expect(epochs.count == events.count)
    #expect(zip(epochs, epochs.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(epochs)")
    for event in events {
      #expect(event.contains(#""sky":[{"prn":"#))
      #expect(event.contains(#""gnss":"GP""#))
      #expect(event.contains(#""late_ms":"#))
    }
  }

  @Test func aStreamThatIsNeverReadDropsLinesInsteadOfGrowing() throws {
    let fixture = try PanelFixture(rateHz: 20)
    defer { fixture.stop() }
    let descriptor = try HTTPReply.connect(port: fixture.port, receiveBuffer: 4096)
    defer { close(descriptor) }
    try HTTPReply.send(
      descriptor, method: "GET", target: fixture.withToken("/api/events?device=0"),
      host: "127.0.0.1:\(fixture.port)", headers: [], body: [])
    let lateBefore = fixture.emulator.statistics.epochsLate
    #expect(
      Eventually.holds(within: 120, intervalMicroseconds: 50_000) {
        fixture.panel.eventLinesDropped > 20
      })
    // What the stream holds, not the process's resident memory: tests beside this one move
    // that by megabytes.
    let held = fixture.panel.eventStreamBytesHeld
    #expect(held <= 4 * PanelEventStream.maximumBacklog + 4096, "the stream holds \(held) bytes")
    // Epochs stay on time: a late one or two on a loaded machine, not one per dropped line.
    #expect(fixture.emulator.statistics.epochsLate - lateBefore < fixture.panel.eventLinesDropped)
  }

  @Test func theSeventeenthStreamGets503() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    var open: [Int32] = []
    defer { for descriptor in open { close(descriptor) } }
    for _ in 0..<PanelServer.maximumStreams {
      let (descriptor, head) = try Self.openEventStream(fixture)
      open.append(descriptor)
      #expect(head.hasPrefix("HTTP/1.1 200"))
    }
    #expect(fixture.panel.streamCount == PanelServer.maximumStreams)
    let refused = try fixture.request("GET", fixture.withToken("/api/events?device=0"))
    #expect(refused.status == 503)
    close(open.removeLast())
    // The closed stream is noticed at its next epoch; then a new one is admitted.
    #expect(
      Eventually.holds(within: 10) {
        fixture.panel.streamCount < PanelServer.maximumStreams
      })
  }

  /// Streams closed on a device that sends nothing (0.1 Hz: 10 s between epochs) give back
  /// their slots within seconds: the keepalive resumes them and the library sees the close.
  @Test func closedStreamsOfASilentDeviceFreeTheirSlotsWithinSeconds() throws {
    let fixture = try PanelFixture(rateHz: 0.1)
    defer { fixture.stop() }
    var open: [Int32] = []
    defer { for descriptor in open { close(descriptor) } }
    for _ in 0..<PanelServer.maximumStreams {
      open.append(try Self.openEventStream(fixture).descriptor)
    }
    #expect(fixture.panel.streamCount == PanelServer.maximumStreams)
    // Just after an epoch: the next is 10 s away, so only the keepalive can notice the close.
    let epoch = HTTPReply.read(open[0], seconds: 12) {
      String(decoding: $0, as: UTF8.self).contains("data: ")
    }
    #expect(String(decoding: epoch, as: UTF8.self).contains("data: "))
    for descriptor in open { close(descriptor) }
    open.removeAll()
    // Within 7 s (the next epoch is 10 s away): a keepalive resumes each stream within 2 s,
    // and the library may need a second write to see the peer's reset.
    #expect(Eventually.holds(within: 7) { fixture.panel.streamCount == 0 })
    let (again, head) = try Self.openEventStream(fixture)
    defer { close(again) }
    #expect(head.hasPrefix("HTTP/1.1 200"))
  }

  /// Opens `/api/events` for device 0 and reads until its `status` event (5 s at most); the
  /// caller closes the descriptor.
  static func openEventStream(_ fixture: PanelFixture) throws -> (descriptor: Int32, head: String) {
    let descriptor = try HTTPReply.connect(port: fixture.port)
    try HTTPReply.send(
      descriptor, method: "GET", target: fixture.withToken("/api/events?device=0"),
      host: "127.0.0.1:\(fixture.port)", headers: [], body: [])
    let head = HTTPReply.read(descriptor, seconds: 5) {
      String(decoding: $0, as: UTF8.self).contains("event: status")
    }
    return (descriptor, String(decoding: head, as: UTF8.self))
  }
}
