import Simulation

extension ControlCommand {
  /// `route`: drive a route file from where the receiver is; read off the I/O thread.
  static let route = ControlCommand(
    "route", example: #"{"cmd":"route","file":"/path/track.gpx","speed":12,"loop":true}"#,
    syntax: ControlCommandSyntax(
      "FILE",
      options: [
        ControlCommandOption(name: "--speed", placeholder: "M/S", effect: .number(field: "speed")),
        ControlCommandOption(name: "--loop", placeholder: nil, effect: .setsTrue(field: "loop")),
      ]
    ) { arguments throws(ControlSyntaxError) in
      try arguments.expect(0...1, "FILE [--speed M/S] [--loop]")
      // The daemon may run elsewhere (`/` under systemd): a relative path is the caller's.
      return arguments.values.map { ("file", .string(arguments.absolutePath($0))) }
    },
    help: ["Drive a route file from where the receiver is."], sources: [.simulated],
    delivery: .offIOThread
  ) { fields throws(ControlRequestError) in
    try fields.rejectUnknown(known: ["file", "speed", "loop"])
    let file = try fields.string("file", "the path of a route file", required: true) ?? ""
    guard !file.isEmpty else {
      throw fields.refusal("file", expected: "the path of a route file")
    }
    let speed = try fields.number("speed", in: 0...1000, exclusiveLower: true)
    return .route(
      path: file, speedMetersPerSecond: speed, loops: try fields.bool("loop") ?? false)
  }

  /// `override`: what a passed-through receiver's position becomes.
  static let override = ControlCommand(
    "override", example: #"{"cmd":"override","mode":"replace","lat":48.8584,"lon":2.2945}"#,
    syntax: ControlCommandSyntax("MODE [LAT,LON[,ALT]|NORTH,EAST]") {
      arguments throws(ControlSyntaxError) in
      let values = arguments.values
      try arguments.expect(0...2, "MODE [LAT,LON[,ALT] | NORTH,EAST]")
      guard let mode = values.first else { return [] }
      var fields: ControlCommandSyntax.Fields = [("mode", .string(mode))]
      if values.count == 2 {
        let parts = values[1].split(separator: ",").map(String.init)
        let names =
          mode == "offset" && parts.count == 2 ? ["north", "east"] : ["lat", "lon", "alt"]
        fields += try arguments.numbers(names, parts)
      }
      return fields
    },
    help: ["What a passed-through receiver's position becomes."], sources: [.passthrough]
  ) { fields throws(ControlRequestError) in
    .override(try ControlRequest.override(fields))
  }

  /// `inject`: a fault, as a scenario's `do` names it, for a while or until cleared.
  static let inject = ControlCommand(
    "inject", example: #"{"cmd":"inject","fault":"silence","duration":5}"#,
    syntax: ControlCommandSyntax("FAULT [SECONDS]") { arguments throws(ControlSyntaxError) in
      let values = arguments.values
      try arguments.expect(0...2, "FAULT [SECONDS]")
      var fields: ControlCommandSyntax.Fields = values.prefix(1).map { ("fault", .string($0)) }
      if values.count == 2 {
        fields.append(("duration", try ControlCommandSyntax.number(values[1], for: "duration")))
      }
      return fields
    },
    help: [
      "nofix, silence, checksum, truncate, jump, noise, coldstart,",
      "outage or clock, with its key=value fields.",
    ],
    sources: [.simulated]
  ) { fields throws(ControlRequestError) in
    let (action, duration) = try ControlRequest.inject(fields)
    return .inject(action, durationSeconds: duration)
  }
}
