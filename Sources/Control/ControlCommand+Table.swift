import Simulation

extension ControlCommand {
  /// Every control command, in the order help and errors list them (README, "Control
  /// socket").
  public static let all: [ControlCommand] = [
    ControlCommand(
      "status", example: #"{"cmd":"status"}"#, syntax: .none(),
      help: ["Everything the receiver knows of itself."],
      sources: Set(ControlSource.allCases), changesReceiver: false
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: [])
      return .status
    },
    ControlCommand(
      "position", example: #"{"cmd":"position","lat":51.5,"lon":-0.14,"alt":20}"#,
      syntax: ControlCommandSyntax("LAT LON [ALT]") { arguments throws(ControlSyntaxError) in
        let values = arguments.values
        let parts = values.count == 1 ? values[0].split(separator: ",").map(String.init) : values
        guard values.isEmpty || (2...3).contains(parts.count) else {
          throw .message("'position' takes LAT LON [ALT] or LAT,LON[,ALT]")
        }
        return try arguments.numbers(["lat", "lon", "alt"], parts)
      },
      help: ["Stand still there (or LAT,LON[,ALT])."], sources: [.simulated]
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: ["lat", "lon", "alt"])
      let position = try ControlRequest.position(fields, required: true)
      return .position(
        latitude: position.latitude ?? 0, longitude: position.longitude ?? 0,
        altitudeMeters: position.altitude)
    },
    ControlCommand(
      "velocity", example: #"{"cmd":"velocity","speed":12.5,"course":270,"climb":0}"#,
      syntax: .numbers("SPEED COURSE [CLIMB]", ["speed", "course", "climb"]),
      help: ["Move on at m/s, degrees true, m/s."], sources: [.simulated]
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: ["speed", "course", "climb"])
      let speed = try fields.number("speed", in: 0...1000, required: true) ?? 0
      let course = try fields.number("course", in: 0...360, required: true) ?? 0
      let climb = try fields.number("climb", in: -1000...1000) ?? 0
      return .velocity(
        speedMetersPerSecond: speed, courseDegrees: course == 360 ? 0 : course,
        climbMetersPerSecond: climb)
    },
    ControlCommand(
      "fix", example: #"{"cmd":"fix","mode":"none"}"#,
      syntax: ControlCommandSyntax("MODE") { arguments throws(ControlSyntaxError) in
        try arguments.expect(0...1, "one MODE (none, 2d, 3d, dgps, rtk-float, rtk-fixed)")
        return arguments.values.map { ("mode", .string($0)) }
      },
      help: ["none, 2d, 3d, dgps, rtk-float or rtk-fixed."], sources: [.simulated]
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: ["mode"])
      return .fix(try fields.requiredChoice("mode", as: Scenario.FixSetting.self))
    },
    ControlCommand(
      "satellites", example: #"{"cmd":"satellites","used":5}"#,
      syntax: ControlCommandSyntax("N|all") { arguments throws(ControlSyntaxError) in
        try arguments.expect(0...1, "N or all")
        return try arguments.values.map { (value) throws(ControlSyntaxError) in
          let used =
            value == "all"
            ? ControlReply.Value.string("all")
            : try ControlCommandSyntax.number(value, for: "satellites")
          return ("used", used)
        }
      },
      help: ["Use at most N satellites."], sources: [.simulated]
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: ["used"])
      return .satellites(usedCount: try ControlRequest.satellitesUsed(fields))
    },
    ControlCommand(
      "dop", example: #"{"cmd":"dop","hdop":1.2,"vdop":1.8,"pdop":2.2}"#,
      syntax: ControlCommandSyntax("H V P|scale X|reset") { arguments throws(ControlSyntaxError) in
        let values = arguments.values
        if values == ["reset"] { return [("reset", .bool(true))] }
        if values.first == "scale" {
          guard values.count == 2 else { throw .message("'dop scale' takes X") }
          return [("scale", try ControlCommandSyntax.number(values[1], for: "scale"))]
        }
        try arguments.expect(0...3, "H V P, scale X or reset")
        return try arguments.numbers(["hdop", "vdop", "pdop"], values)
      },
      help: ["The DOPs reported."], sources: [.simulated]
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: ["hdop", "vdop", "pdop", "scale", "reset"])
      return .dop(try ControlRequest.dop(fields))
    },
    ControlCommand(
      "pause", example: #"{"cmd":"pause"}"#, syntax: .none(),
      help: ["Hold still and keep emitting (a replay falls silent)."],
      sources: [.simulated, .replay]
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: [])
      return .pause
    },
    ControlCommand(
      "resume", example: #"{"cmd":"resume"}"#, syntax: .none(),
      help: ["Go on from where the pause held."], sources: [.simulated, .replay]
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: [])
      return .resume
    },
    ControlCommand(
      "seek", example: #"{"cmd":"seek","time":120.5}"#, syntax: .numbers("SECONDS", ["time"]),
      help: ["Time from the start of the route, scenario or replay."],
      sources: [.simulated, .replay]
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: ["time"])
      return .seek(
        seconds: try fields.number(
          "time", in: 0...ControlEnvelope.maximumSeconds, required: true) ?? 0)
    },
    ControlCommand(
      "scale", example: #"{"cmd":"scale","factor":10}"#, syntax: .numbers("FACTOR", ["factor"]),
      help: [
        "Play the route or scenario FACTOR times as fast, 0.1 to 100",
        "(not the epoch rate nor the UTC time: that is --time-scale).",
      ],
      sources: [.simulated]
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: ["factor"])
      return .scale(
        factor: try fields.number("factor", in: PlaybackClock.scales, required: true) ?? 1)
    },
    ControlCommand(
      "rate", example: #"{"cmd":"rate","hz":5}"#, syntax: .numbers("HZ", ["hz"]),
      help: ["Epochs per second, 0.1 to 20."], sources: [.simulated]
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: ["hz"])
      return .rate(hertz: try fields.number("hz", in: 0.1...20, required: true) ?? 1)
    },
    route,
    override,
    inject,
    ControlCommand(
      "subscribe", example: #"{"cmd":"subscribe"}"#,
      syntax: .none(
        options: [ControlCommandOption(name: "--count", placeholder: "N", effect: .lineCount)]),
      help: ["One JSON line per epoch."], sources: Set(ControlSource.allCases),
      changesReceiver: false, delivery: .subscription
    ) { fields throws(ControlRequestError) in
      try fields.rejectUnknown(known: [])
      return .subscribe
    },
  ]
}
