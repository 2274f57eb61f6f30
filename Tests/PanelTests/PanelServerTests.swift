import Glibc
import MockGPS
import MockGPSTestSupport
import Testing

@testable import Panel

/// The panel over real loopback sockets against a running emulator.
@Suite(.timeLimit(.minutes(5))) struct PanelServerTests {
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

  @Test func thePageSetsTheCookieThatLaterRequestsCarry() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    let page = try fixture.request("GET", fixture.withToken("/"))
    #expect(page.status == 200)
    #expect(page.header("Content-Type") == "text/html; charset=utf-8")
    let cookie = try #require(page.header("Set-Cookie"))
    #expect(cookie == "mockgps_panel=\(fixture.token); HttpOnly; SameSite=Strict; Path=/")
    let pair = String(cookie.prefix { $0 != ";" })
    let script = try fixture.request("GET", "/panel.js", headers: ["Cookie: \(pair)"])
    #expect(script.status == 200)
    #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
    let status = try fixture.request("GET", "/api/status?device=0", headers: ["Cookie: \(pair)"])
    #expect(status.status == 200)
    #expect(status.body.contains(#""link":"\#(fixture.emulator.link.path)""#))
  }

  @Test func otherMethodsAre405AndLargeBodies413() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    let get = try fixture.request("GET", fixture.withToken("/api/command?device=0"))
    #expect(get.status == 405)
    #expect(get.header("Allow") == "POST")
    let post = try fixture.request("POST", fixture.withToken("/api/status?device=0"))
    #expect(post.status == 405)
    #expect(post.header("Allow") == "GET")
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
    let before = residentBytes()
    let lateBefore = fixture.emulator.statistics.epochsLate
    #expect(
      Eventually.holds(within: 120, intervalMicroseconds: 50_000) {
        fixture.panel.eventLinesDropped > 20
      })
    let grown = residentBytes() - before
    #expect(grown < 8 << 20, "resident memory grew by \(grown) bytes")
    // Epochs stay on time: a late one or two on a loaded machine, not one per dropped line.
    #expect(fixture.emulator.statistics.epochsLate - lateBefore < fixture.panel.eventLinesDropped)
  }

  @Test func theSeventeenthStreamGets503() throws {
    let fixture = try PanelFixture()
    defer { fixture.stop() }
    var open: [Int32] = []
    defer { for descriptor in open { close(descriptor) } }
    for _ in 0..<PanelServer.maximumStreams {
      let descriptor = try HTTPReply.connect(port: fixture.port)
      open.append(descriptor)
      try HTTPReply.send(
        descriptor, method: "GET", target: fixture.withToken("/api/events?device=0"),
        host: "127.0.0.1:\(fixture.port)", headers: [], body: [])
      let head = HTTPReply.read(descriptor, seconds: 5) {
        String(decoding: $0, as: UTF8.self).contains("event: status")
      }
      #expect(String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
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
}
