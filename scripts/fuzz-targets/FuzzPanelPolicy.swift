import Control

/// The `panel-policy` target: an HTTP request as the server library hands it over (method,
/// path, query pairs, Host, Origin, Content-Length, event data, Sec-Fetch-Site: one per line of
/// the input, the query as `a=1&b=2`) through `PanelPolicy.decide`, compiled with the panel's
/// pure files.
///
/// Checked: nothing traps; a request whose Host is not the bound address is refused 403; a
/// served request carried the exact token in its query and a path of the table; a served POST
/// came from no origin or the panel's own; a
/// refusal's body is one line and no response has an `Access-Control-*` header; a device id
/// served is one of the devices; an event's framing keeps every line a field.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  let lines = String(decoding: bytes, as: UTF8.self).split(
    separator: "\n", omittingEmptySubsequences: false)
  func line(_ index: Int) -> String? { index < lines.count ? String(lines[index]) : nil }
  let query = (line(2) ?? "").split(separator: "&").map { pair -> (name: String, value: String) in
    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
  }
  let request = PanelRequest(
    method: line(0) ?? "GET", path: line(1) ?? "/", query: query, host: line(3),
    origin: line(4).flatMap { $0.isEmpty ? nil : $0 }, fetchSite: line(7),
    contentLength: line(5).flatMap { Int($0) })
  switch panelPolicy.decide(request) {
  case .refuse(let response):
    if let host = request.host, !panelPolicy.allowedHosts.contains(host.lowercased()) {
      guard response.status == 403 else { failure("a foreign host got \(response.status)") }
    }
    guard response.body.last == 0x0A, !response.body.dropLast().contains(0x0A) else {
      failure("a refusal's body is not one line")
    }
    guard !response.headers.contains(where: { $0.0.lowercased().hasPrefix("access-control-") })
    else { failure("an Access-Control header") }
  case .serve(let route):
    guard request.queryValue("token") == panelPolicy.token.text else {
      failure("served without the token: \(request.query)")
    }
    if request.method == "POST" {
      guard request.origin == nil || request.origin?.lowercased() == "http://\(request.host ?? "")",
        request.fetchSite == nil || request.fetchSite?.lowercased() == "same-origin"
      else { failure("served a POST from \(request.origin ?? "") \(request.fetchSite ?? "")") }
    }
    guard PanelRoute.lookUp(request.path) != nil else { failure("served an unknown path") }
    switch route {
    case .status(let device), .route(let device), .events(let device), .command(let device):
      guard (0..<panelPolicy.deviceCount).contains(device) else {
        failure("device \(device) served")
      }
    case .page, .leaflet, .devices: break
    }
  }
  // On bytes: a field is a line that starts with its name, whatever Unicode follows.
  let event = ServerSentEvents.event("status", data: line(6) ?? "")
  guard event.suffix(2) == [0x0A, 0x0A] else { failure("an event does not end in a blank line") }
  for field in event.dropLast(2).split(separator: 0x0A, omittingEmptySubsequences: false) {
    guard field.starts(with: "data: ".utf8) || field.starts(with: "event: ".utf8),
      !field.contains(0x0D)
    else { failure("an event line that is not a field: \(Array(field))") }
  }
}

let panelToken = PanelToken(bytes: Array(0..<16))
let panelPolicy = PanelPolicy(token: panelToken, host: "127.0.0.1", port: 8080, deviceCount: 3)

/// Requests of every route and refusal.
let builtInSeeds: [[UInt8]] = [
  "GET\n/\ntoken=\(panelToken.text)\n127.0.0.1:8080\n\n\n",
  "GET\n/api/devices\ntoken=\(panelToken.text)\nlocalhost:8080\n\n\n",
  "GET\n/api/events\ndevice=2&token=\(panelToken.text)\n[::1]:8080\n\n\nx\ny",
  "POST\n/api/command\ndevice=0&token=\(panelToken.text)\n127.0.0.1:8080\n\n20480\n",
  "GET\n/api/status\ndevice=9&token=\(panelToken.text)\n127.0.0.1:8080\n\n\n",
  "POST\n/api/command\ndevice=0&token=\(panelToken.text)\n127.0.0.1:8080\nhttp://127.0.0.1:8000\n\n\n",
  "POST\n/api/command\ndevice=1&token=\(panelToken.text)\n127.0.0.1:8080\nhttp://127.0.0.1:8080\n\n\nsame-origin",
  "GET\n/leaflet/images/layers.png\ntoken=\(panelToken.text)\n127.0.0.1:8080\n\n\n",
  "GET\n/\ntoken=x\nevil.example:8080\n\n\n",
].map { Array($0.utf8) }
