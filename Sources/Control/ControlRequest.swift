import Geodesy
import InputFiles
import Simulation

/// One request of the control protocol (README, "Control socket"): a JSON
/// object on one line, its command in `cmd`, its arguments as plain fields in SI units and
/// degrees.
public enum ControlRequest: Hashable, Sendable {
  /// `{"cmd":"status"}`: everything the emulator knows of itself.
  case status
  /// `{"cmd":"position","lat":51.5,"lon":-0.14,"alt":20}`: stand still there (`alt` optional:
  /// nil keeps the current altitude). Keeps a velocity set before (moves on from there).
  case position(latitude: Double, longitude: Double, altitudeMeters: Double?)
  /// `{"cmd":"velocity","speed":12.5,"course":270,"climb":0}`: move from the current position at
  /// this speed (m/s), course (degrees true) and climb (m/s, optional, 0 when absent).
  case velocity(speedMetersPerSecond: Double, courseDegrees: Double, climbMetersPerSecond: Double)
  /// `{"cmd":"fix","mode":"none|2d|3d|dgps|rtk-float|rtk-fixed"}`: the fix reported from now on
  /// (`3d` is the normal state: clears what an earlier `fix` set).
  case fix(Scenario.FixSetting)
  /// `{"cmd":"satellites","used":5}`: use at most this many satellites (nil, `"used":null` or
  /// `{"cmd":"satellites","used":"all"}`: every satellite the sky gives).
  case satellites(usedCount: Int?)
  /// `{"cmd":"dop","hdop":1.2,"vdop":1.8,"pdop":2.2}` or `{"cmd":"dop","scale":3}`; nil
  /// (`{"cmd":"dop","reset":true}`) goes back to the sky's DOPs.
  case dop(Scenario.DOPChange?)
  /// `{"cmd":"pause"}`: hold still where the receiver is (speed 0), keep emitting epochs.
  case pause
  /// `{"cmd":"resume"}`: go on from where the pause held (the route's time does not jump).
  case resume
  /// `{"cmd":"seek","time":120.5}`: seconds from the start of the route, scenario or replay.
  case seek(seconds: Double)
  /// `{"cmd":"scale","factor":10}`: play the route or scenario `factor` times as fast as real
  /// time (0.1 to 100) from now on, from where it is. Only the motion along it changes: not the
  /// epoch rate nor the UTC time written (that is `--time-scale`).
  case scale(factor: Double)
  /// `{"cmd":"rate","hz":5}`: the navigation rate, 0.1 to 20 Hz.
  case rate(hertz: Double)
  /// `{"cmd":"route","file":"/path/track.gpx","speed":12,"loop":true}`: drive a route file
  /// (any format `--route` reads) from now on; `speed` optional (the route's own timing or
  /// 10 m/s), `loop` optional (false: stop at its end).
  case route(path: String, speedMetersPerSecond: Double?, loops: Bool)
  /// `{"cmd":"override","mode":"replace","lat":…,"lon":…,"alt":…}`, `{"mode":"offset",
  /// "north":10,"east":-5}` or `{"mode":"offset","lat":…,"lon":…}`, `{"mode":"freeze"}`,
  /// `{"mode":"off"}`: what a passed-through receiver's position becomes.
  case override(OverrideRequest)
  /// `{"cmd":"inject","fault":"silence","duration":5}`: a fault from now for `duration`
  /// seconds (absent: until cleared by the same fault with `"duration":0`). Faults, named as a
  /// scenario's `do`: `fix` (`mode`), `nofix`, `silence`, `corrupt` (`rate` default 1, `style`
  /// `checksum|truncate`), `checksum` and `truncate` (`rate`), `jump` (`north`, `east`, `up`
  /// meters), `noise` (`sigma` m, `time-constant` or `tau` s, default 60), `clock` (`offset` s
  /// or `"week-rollover":true`), `cold-start` or `coldstart` (`ttff` s, default 30), `outage`,
  /// through the same fault machinery as scenarios (`Scenario.Action.faults`).
  case inject(Scenario.Action, durationSeconds: Double?)
  /// `{"cmd":"subscribe"}`: one JSON line per epoch with the fix, until the client closes.
  case subscribe

  /// The command's name as it appears in `cmd`.
  public var command: String {
    switch self {
    case .status: return "status"
    case .position: return "position"
    case .velocity: return "velocity"
    case .fix: return "fix"
    case .satellites: return "satellites"
    case .dop: return "dop"
    case .pause: return "pause"
    case .resume: return "resume"
    case .seek: return "seek"
    case .scale: return "scale"
    case .rate: return "rate"
    case .route: return "route"
    case .override: return "override"
    case .inject: return "inject"
    case .subscribe: return "subscribe"
    }
  }
}

/// What `override` asks of a passthrough.
public struct OverrideRequest: Hashable, Sendable {
  /// The modes of `--override`.
  public enum Mode: String, Hashable, Sendable, CaseIterable {
    case off, replace, offset, route, freeze
  }

  public var mode: Mode
  /// The target of `replace`, or of `offset` when given as a position.
  public var position: GeodeticPosition?
  /// The offset of `offset` when given as meters north and east.
  public var northMeters: Double?
  public var eastMeters: Double?

  /// Creates a request.
  public init(
    mode: Mode, position: GeodeticPosition? = nil, northMeters: Double? = nil,
    eastMeters: Double? = nil
  ) {
    self.mode = mode
    self.position = position
    self.northMeters = northMeters
    self.eastMeters = eastMeters
  }
}

/// A request line, decoded: the request and the `id` to echo in its reply (any JSON scalar the
/// client gave, kept as its JSON text).
public struct ControlEnvelope: Hashable, Sendable {
  public var request: ControlRequest
  /// The request's `id` as JSON text (`7`, `"a"`), or nil.
  public var idJSON: String?

  public init(request: ControlRequest, idJSON: String? = nil) {
    self.request = request
    self.idJSON = idJSON
  }

  /// Decodes one line (without its newline), parsed once by InputFiles' JSON parser (an error
  /// with its column; a key given twice is refused).
  ///
  /// - Throws: `ControlRequestError` naming the field and what was expected; unknown and
  ///   duplicate fields are errors too.
  public static func decode(line: some Collection<UInt8>) throws(ControlRequestError)
    -> ControlEnvelope
  {
    let bytes = Array(line)
    let node: JSONNode
    do {
      node = try JSONParser.parse(bytes, requiresUTF8: true)
    } catch {
      throw notJSON("\(error.message) at column \(error.column)")
    }
    let value = JSONValue(node)
    if let key = node.firstDuplicateKey {
      let echoed = key == "id" ? nil : (try? Self.idJSON(value["id"]))
      throw ControlRequestError(
        message: "duplicate field \(ControlRequestFields.quoted(key, quote: "'")); give each "
          + "field once", idJSON: echoed)
    }
    return try decode(value)
  }

  /// The refusal of a line that is not JSON, with why in one printable line.
  static func notJSON(_ message: String) -> ControlRequestError {
    let detail = message.count > 120 ? message.prefix(120) + "…" : message[...]
    let printable = JSONText.string(String(detail)).dropFirst().dropLast()
    return ControlRequestError(message: "not JSON: \(printable)", idJSON: nil)
  }
}

/// Why a request line was refused: one line for `{"ok":false,"error":…}`.
public struct ControlRequestError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  /// The request's `id` when it could be read, so that even a refusal echoes it.
  public var idJSON: String?

  public init(message: String, idJSON: String?) {
    self.message = message
    self.idJSON = idJSON
  }

  public var description: String { message }
}
