import Control
import Glibc
import MockGPS
import Servers
import Simulation
import SystemIO

/// The devices a panel serves, and the answers that read or steer them: each goes through the
/// emulator's control layer (`Emulator.handle(_:)`), as a control socket's request does.
struct PanelDevices: Sendable {
  let emulators: [Emulator]
  /// The folder route files may be loaded from (`--panel-files`), opened at start; none when
  /// nil.
  let filesFolder: OpenFolder?

  /// The most route vertices `/api/route` sends; longer routes are thinned evenly.
  static let maximumRoutePoints = 5_000

  /// `GET /api/devices`.
  func list(leaflet: Bool) -> PanelResponse {
    let devices = emulators.enumerated().map { id, emulator in
      ControlReply.Value.object([
        ("id", .integer(Int64(id))),
        ("link", .string(emulator.link.path)),
        ("profile", emulator.simulatedProfileName.map { .string($0) } ?? .null),
        ("source", .string(emulator.sourceDescription)),
      ])
    }
    return .json(200, .ok([("leaflet", .bool(leaflet)), ("devices", .array(devices))]))
  }

  /// `GET /api/status`: the control socket's `status` reply, and `panel_lines_dropped`: the
  /// event lines the panel dropped for browsers that did not read them.
  func status(_ device: Int, panelLinesDropped: Int) -> PanelResponse {
    var reply = emulators[device].handle(.status)
    reply.fields.append(("panel_lines_dropped", .integer(Int64(panelLinesDropped))))
    return .json(200, reply)
  }

  /// `GET /api/route`: the vertices of the route the device drives, `[]` otherwise.
  func route(_ device: Int) -> PanelResponse {
    var points: [ControlReply.Value] = []
    if let route = emulators[device].currentRoute {
      points = Self.thinned(route.points.count).map { index in
        let position = route.points[index].position
        return .array([
          .number(position.latitude, digits: 7), .number(position.longitude, digits: 7),
        ])
      }
    }
    return .json(200, .ok([("points", .array(points))]))
  }

  /// `POST /api/command`: the body decoded as one control request line and answered by the
  /// emulator; 200 when accepted, 400 with the refusal (or the decoding error) otherwise.
  func command(_ device: Int, body: [UInt8]) -> PanelResponse {
    switch Self.decodeCommand(body) {
    case .refused(let response): return response
    case .request(let envelope): return answer(envelope, device: device)
    }
  }

  /// A command's body decoded as one control request line, or the 400 of its decoding error.
  static func decodeCommand(_ body: [UInt8]) -> DecodedCommand {
    var line = body[...]
    while let last = line.last, last == 0x0A || last == 0x0D { line = line.dropLast() }
    do {
      return .request(try ControlEnvelope.decode(line: line))
    } catch {
      return .refused(.json(400, .refused(error.message, id: error.idJSON)))
    }
  }

  /// The emulator's answer to a decoded command: 200 when accepted, 400 with the refusal.
  /// A `route` reads its file here, which may take seconds: the server calls it off
  /// libmicrohttpd's thread for such commands.
  func answer(_ envelope: ControlEnvelope, device: Int) -> PanelResponse {
    var reply = emulators[device].handle(
      envelope.request, from: .panel(files: filesFolder))
    reply.idJSON = envelope.idJSON
    return .json(reply.ok ? 200 : 400, reply)
  }

  /// A command's body, decoded.
  enum DecodedCommand {
    /// The body is no request: this answers it.
    case refused(PanelResponse)
    /// The request to answer.
    case request(ControlEnvelope)
  }

  /// The indices of at most `maximumRoutePoints` of `count` vertices, evenly spread, first
  /// and last kept.
  static func thinned(_ count: Int) -> [Int] {
    guard count > maximumRoutePoints else { return Array(0..<count) }
    let last = maximumRoutePoints - 1
    return (0...last).map { $0 * (count - 1) / last }
  }
}
