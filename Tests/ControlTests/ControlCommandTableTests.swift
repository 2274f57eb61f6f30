import Testing

@testable import Control

/// The table of control commands holds each command once, its example decodes to that
/// command, its `ctl` arguments make lines the decoder takes, and the refusals of a source
/// that does not take a command are worded from the table.
@Suite struct ControlCommandTableTests {
  @Test func everyCommandIsInTheTableOnceAndTheDecoderListsThemInItsOrder() {
    let names = ControlCommand.all.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(ControlEnvelope.commands == names)
    for name in names { #expect(ControlCommand.named(name)?.name == name) }
    #expect(ControlCommand.named("bogus") == nil)
  }

  @Test(arguments: ControlCommand.all.map(\.name)) func theExampleDecodesToItsCommand(
    name: String
  ) throws {
    let command = try #require(ControlCommand.named(name))
    #expect(command.example.hasPrefix(#"{"cmd":"\#(name)""#))
    let envelope = try ControlEnvelope.decode(line: Array(command.example.utf8))
    #expect(envelope.request.command == name)
    #expect(envelope.request.definition?.name == name)
  }

  /// `ctl NAME` with the placeholders of its usage replaced by values makes a line that
  /// decodes to the command.
  @Test func ctlArgumentsMakeLinesTheDecoderTakes() throws {
    let arguments: [String: [String]] = [
      "status": [], "position": ["48.85", "2.35", "35"], "velocity": ["12.5", "270"],
      "fix": ["2d"], "satellites": ["all"], "dop": ["scale", "3"], "pause": [], "resume": [],
      "seek": ["120.5"], "scale": ["10"], "rate": ["5"], "route": ["drive.gpx"],
      "override": ["offset", "10,-5"], "inject": ["silence", "5"], "subscribe": [],
    ]
    #expect(Set(arguments.keys) == Set(ControlCommand.names))
    for command in ControlCommand.all {
      let fields = try command.syntax.fields(
        of: arguments[command.name] ?? [], command: command.name, absolutePath: { "/here/" + $0 })
      let line = ControlReply.Value.object([("cmd", .string(command.name))] + fields).json
      let envelope = try ControlEnvelope.decode(line: Array(line.utf8))
      #expect(envelope.request.command == command.name, "\(line)")
    }
  }

  @Test func aWrongCountOfArgumentsNamesTheSyntax() {
    let seek = ControlCommand.named("seek")?.syntax
    #expect(throws: ControlSyntaxError.message("'seek' takes SECONDS")) {
      _ = try seek?.fields(of: ["1", "2"], command: "seek", absolutePath: { $0 })
    }
    #expect(
      throws: ControlSyntaxError.invalidValue("0x10", option: "hz", expected: "expected a number")
    ) {
      _ = try ControlCommand.named("rate")?.syntax.fields(
        of: ["0x10"], command: "rate", absolutePath: { $0 })
    }
    #expect(ControlCommand.named("route")?.usage == "route FILE [--speed M/S] [--loop]")
    #expect(ControlCommand.named("subscribe")?.usage == "subscribe [--count N]")
  }

  @Test func aSourceRefusesWhatItDoesNotTakeNamingWhatItTakes() throws {
    let rate = try #require(ControlCommand.named("rate"))
    #expect(
      rate.refusal(on: .replay)
        == "rate: a replay sends its log as recorded; only status, subscribe, pause, resume and "
        + "seek apply")
    #expect(
      rate.refusal(on: .passthrough)
        == "rate: a passthrough sends the real receiver's fix; use override")
    #expect(
      ControlCommand.named("override")?.refusal(on: .simulated)
        == "override applies to a passthrough (--passthrough) only")
  }

  /// What a replay and a passthrough take, as the README says it (Control socket); a
  /// simulated receiver takes the rest (a new command usually), so it is not listed here.
  @Test func aReplayAndAPassthroughTakeWhatTheReadmeSays() {
    #expect(
      ControlCommand.names(acceptedBy: .replay)
        == ["status", "subscribe", "pause", "resume", "seek"])
    #expect(ControlCommand.names(acceptedBy: .passthrough) == ["status", "subscribe", "override"])
  }
}
