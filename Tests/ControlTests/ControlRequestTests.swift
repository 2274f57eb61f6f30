import Control
import Geodesy
import Simulation
import Testing

/// Request lines as a client writes them, decoded with the real JSON decoder.
@Suite struct ControlRequestTests {
  static func decode(_ line: String) throws(ControlRequestError) -> ControlEnvelope {
    try ControlEnvelope.decode(line: Array(line.utf8))
  }

  /// The refusal of a line; fails the test when it is accepted.
  static func refusal(_ line: String) -> ControlRequestError? {
    do {
      let envelope = try decode(line)
      Issue.record("accepted \(line) as \(envelope.request)")
      return nil
    } catch {
      #expect(!error.message.contains("\n"), "one line: \(error.message)")
      return error
    }
  }

  @Test func aRequestNamesItsCommand() {
    #expect(ControlRequest.status.command == "status")
  }

  struct Accepted: CustomTestStringConvertible, Sendable {
    let line: String
    let request: ControlRequest
    var testDescription: String { line }
  }

  @Test(arguments: [
    Accepted(line: #"{"cmd":"status"}"#, request: .status),
    Accepted(
      line: #"{"cmd":"position","lat":51.5,"lon":-0.14,"alt":20}"#,
      request: .position(latitude: 51.5, longitude: -0.14, altitudeMeters: 20)),
    Accepted(
      line: #"{"cmd":"position","lat":-90,"lon":180}"#,
      request: .position(latitude: -90, longitude: 180, altitudeMeters: nil)),
    Accepted(
      line: #"{"cmd":"velocity","speed":12.5,"course":270}"#,
      request: .velocity(speedMetersPerSecond: 12.5, courseDegrees: 270, climbMetersPerSecond: 0)),
    Accepted(
      line: #"{"cmd":"velocity","speed":0,"course":360,"climb":-2}"#,
      request: .velocity(speedMetersPerSecond: 0, courseDegrees: 0, climbMetersPerSecond: -2)),
    Accepted(line: #"{"cmd":"fix","mode":"none"}"#, request: .fix(.none)),
    Accepted(line: #"{"cmd":"fix","mode":"rtk-fixed"}"#, request: .fix(.rtkFixed)),
    Accepted(line: #"{"cmd":"fix","mode":"3d"}"#, request: .fix(.threeDimensional)),
    Accepted(line: #"{"cmd":"satellites","used":5}"#, request: .satellites(usedCount: 5)),
    Accepted(line: #"{"cmd":"satellites","used":"all"}"#, request: .satellites(usedCount: nil)),
    Accepted(line: #"{"cmd":"satellites","used":null}"#, request: .satellites(usedCount: nil)),
    Accepted(
      line: #"{"cmd":"dop","hdop":1.2,"vdop":1.8,"pdop":2.2}"#,
      request: .dop(.values(horizontal: 1.2, vertical: 1.8, position: 2.2))),
    Accepted(
      line: #"{"cmd":"dop","hdop":3,"vdop":4}"#,
      request: .dop(.values(horizontal: 3, vertical: 4, position: 5))),
    Accepted(line: #"{"cmd":"dop","scale":3}"#, request: .dop(.scale(3))),
    Accepted(line: #"{"cmd":"dop","reset":true}"#, request: .dop(nil)),
    Accepted(line: #"{"cmd":"pause"}"#, request: .pause),
    Accepted(line: #"{"cmd":"resume"}"#, request: .resume),
    Accepted(line: #"{"cmd":"seek","time":120.5}"#, request: .seek(seconds: 120.5)),
    Accepted(line: #"{"cmd":"scale","factor":10}"#, request: .scale(factor: 10)),
    Accepted(line: #"{"cmd":"scale","factor":0.1}"#, request: .scale(factor: 0.1)),
    Accepted(line: #"{"cmd":"scale","factor":100,"id":3}"#, request: .scale(factor: 100)),
    Accepted(line: #"{"cmd":"rate","hz":5}"#, request: .rate(hertz: 5)),
    Accepted(line: #"{"cmd":"rate","hz":0.1}"#, request: .rate(hertz: 0.1)),
    Accepted(
      line: #"{"cmd":"route","file":"/path/track.gpx","speed":12,"loop":true}"#,
      request: .route(path: "/path/track.gpx", speedMetersPerSecond: 12, loops: true)),
    Accepted(
      line: #"{"cmd":"route","file":"a.csv"}"#,
      request: .route(path: "a.csv", speedMetersPerSecond: nil, loops: false)),
    Accepted(
      line: #"{"cmd":"override","mode":"replace","lat":48.8584,"lon":2.2945,"alt":35}"#,
      request: .override(
        OverrideRequest(
          mode: .replace, position: GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 35)))),
    Accepted(
      line: #"{"cmd":"override","mode":"offset","north":10,"east":-5}"#,
      request: .override(OverrideRequest(mode: .offset, northMeters: 10, eastMeters: -5))),
    Accepted(
      line: #"{"cmd":"override","mode":"offset","lat":1,"lon":2}"#,
      request: .override(
        OverrideRequest(mode: .offset, position: GeodeticPosition(known: 1, 2)))),
    Accepted(
      line: #"{"cmd":"override","mode":"freeze"}"#,
      request: .override(OverrideRequest(mode: .freeze))),
    Accepted(
      line: #"{"cmd":"override","mode":"off"}"#, request: .override(OverrideRequest(mode: .off))),
    Accepted(line: #"{"cmd":"subscribe"}"#, request: .subscribe),
  ])
  func everyCommandDecodes(_ accepted: Accepted) throws {
    #expect(try Self.decode(accepted.line).request == accepted.request)
  }

  @Test(arguments: [
    Accepted(
      line: #"{"cmd":"inject","fault":"silence","duration":5}"#,
      request: .inject(.silence, durationSeconds: 5)),
    Accepted(
      line: #"{"cmd":"inject","fault":"nofix","duration":2.5}"#,
      request: .inject(.fix(.none), durationSeconds: 2.5)),
    Accepted(
      line: #"{"cmd":"inject","fault":"fix","mode":"2d"}"#,
      request: .inject(.fix(.twoDimensional), durationSeconds: nil)),
    Accepted(
      line: #"{"cmd":"inject","fault":"checksum"}"#,
      request: .inject(.corrupt(rate: 1, style: .checksum), durationSeconds: nil)),
    Accepted(
      line: #"{"cmd":"inject","fault":"truncate","rate":0.5,"duration":0}"#,
      request: .inject(.corrupt(rate: 0.5, style: .truncate), durationSeconds: 0)),
    Accepted(
      line: #"{"cmd":"inject","fault":"corrupt","style":"truncate"}"#,
      request: .inject(.corrupt(rate: 1, style: .truncate), durationSeconds: nil)),
    Accepted(
      line: #"{"cmd":"inject","fault":"jump","north":30,"up":-2,"duration":10}"#,
      request: .inject(.jump(northMeters: 30, eastMeters: 0, upMeters: -2), durationSeconds: 10)),
    Accepted(
      line: #"{"cmd":"inject","fault":"noise","sigma":5}"#,
      request: .inject(.noise(sigmaMeters: 5, timeConstantSeconds: 60), durationSeconds: nil)),
    Accepted(
      line: #"{"cmd":"inject","fault":"noise","sigma":5,"tau":10}"#,
      request: .inject(.noise(sigmaMeters: 5, timeConstantSeconds: 10), durationSeconds: nil)),
    Accepted(
      line: #"{"cmd":"inject","fault":"noise","sigma":5,"time-constant":20}"#,
      request: .inject(.noise(sigmaMeters: 5, timeConstantSeconds: 20), durationSeconds: nil)),
    Accepted(
      line: #"{"cmd":"inject","fault":"coldstart","ttff":12}"#,
      request: .inject(.coldStart(timeToFirstFixNanoseconds: 12_000_000_000), durationSeconds: nil)
    ),
    Accepted(
      line: #"{"cmd":"inject","fault":"outage","duration":3}"#,
      request: .inject(.outage, durationSeconds: 3)),
    Accepted(
      line: #"{"cmd":"inject","fault":"cold-start"}"#,
      request: .inject(.coldStart(timeToFirstFixNanoseconds: 30_000_000_000), durationSeconds: nil)
    ),
    Accepted(
      line: #"{"cmd":"inject","fault":"clock","offset":-1.5}"#,
      request: .inject(.clock(offsetNanoseconds: -1_500_000_000), durationSeconds: nil)),
    Accepted(
      line: #"{"cmd":"inject","fault":"clock","week-rollover":true,"duration":60}"#,
      request: .inject(
        .clock(offsetNanoseconds: FixFaultKind.weekRolloverNanoseconds), durationSeconds: 60)),
  ])
  func everyFaultDecodes(_ accepted: Accepted) throws {
    #expect(try Self.decode(accepted.line).request == accepted.request)
  }

  @Test func theIDIsEchoedAsItsJSONText() throws {
    #expect(try Self.decode(#"{"cmd":"status","id":7}"#).idJSON == "7")
    #expect(try Self.decode(#"{"id":"a\"b","cmd":"pause"}"#).idJSON == #""a\"b""#)
    #expect(try Self.decode(#"{"cmd":"status","id":1.5}"#).idJSON == "1.5")
    #expect(try Self.decode(#"{"cmd":"status","id":null}"#).idJSON == "null")
    #expect(try Self.decode(#"{"cmd":"status"}"#).idJSON == nil)
    // A refusal echoes the id too.
    #expect(Self.refusal(#"{"cmd":"fix","mode":"4d","id":"x"}"#)?.idJSON == #""x""#)
    #expect(Self.refusal(#"{"cmd":"status","id":[1]}"#)?.message.contains("'id'") == true)
  }

  @Test func crLFAndSpacesAroundAreAccepted() throws {
    #expect(try Self.decode(" {\"cmd\" : \"pause\"}\r").request == .pause)
  }

  struct Refused: CustomTestStringConvertible, Sendable {
    let line: String
    let message: String
    var testDescription: String { line }
  }

  @Test(arguments: [
    // Not JSON, not an object, empty.
    Refused(line: "status", message: "not JSON"),
    Refused(line: #"{"cmd":"status""#, message: "not JSON"),
    Refused(line: "", message: "not JSON"),
    Refused(line: "\u{0}\u{0}", message: "not JSON"),
    Refused(line: #"["status"]"#, message: "expected a JSON object"),
    Refused(line: "42", message: "expected a JSON object"),
    Refused(line: "{}", message: "missing field 'cmd'; expected one of status, position"),
    // The command.
    Refused(line: #"{"cmd":"teleport"}"#, message: "unknown command 'teleport'; expected one of"),
    Refused(line: #"{"cmd":5}"#, message: "'cmd' is a number; expected one of status"),
    Refused(line: #"{"command":"status"}"#, message: "missing field 'cmd'"),
    // Unknown fields.
    Refused(
      line: #"{"cmd":"position","latt":51,"lon":0}"#,
      message: "position: unknown field 'latt'; expected lat, lon, alt"),
    Refused(line: #"{"cmd":"status","verbose":true}"#, message: "status: unknown field 'verbose'"),
    Refused(
      line: #"{"cmd":"inject","fault":"silence","sigma":1}"#,
      message: "inject: unknown field 'sigma'; expected fault, duration"),
    // Missing fields.
    Refused(
      line: #"{"cmd":"position","lat":51}"#,
      message: "position: missing field 'lon'; expected a number in -180...180"),
    Refused(line: #"{"cmd":"velocity","course":10}"#, message: "velocity: missing field 'speed'"),
    Refused(line: #"{"cmd":"fix"}"#, message: "fix: missing field 'mode'; expected one of none"),
    Refused(line: #"{"cmd":"satellites"}"#, message: "satellites: missing field 'used'"),
    Refused(line: #"{"cmd":"dop"}"#, message: "dop: expected hdop and vdop"),
    Refused(line: #"{"cmd":"dop","hdop":1}"#, message: "dop: missing field 'vdop'"),
    Refused(line: #"{"cmd":"seek"}"#, message: "seek: missing field 'time'"),
    Refused(
      line: #"{"cmd":"scale"}"#,
      message: "scale: missing field 'factor'; expected a number in 0.1...100"),
    Refused(
      line: #"{"cmd":"scale","factor":0}"#,
      message: "scale: 'factor' expected a number in 0.1...100, got 0"),
    Refused(
      line: #"{"cmd":"scale","factor":1000}"#,
      message: "scale: 'factor' expected a number in 0.1...100, got 1000"),
    Refused(
      line: #"{"cmd":"scale","factor":"fast"}"#,
      message: #"scale: 'factor' expected a number in 0.1...100, got "fast""#),
    Refused(
      line: #"{"cmd":"scale","factor":1e400}"#, message: "scale: 'factor' is not a finite number"),
    Refused(line: #"{"cmd":"scale","factor":NaN}"#, message: "not JSON"),
    Refused(
      line: #"{"cmd":"scale","factor":2,"speed":3}"#,
      message: "scale: unknown field 'speed'; expected factor"),
    Refused(line: #"{"cmd":"rate"}"#, message: "rate: missing field 'hz'"),
    Refused(line: #"{"cmd":"route"}"#, message: "route: missing field 'file'"),
    Refused(line: #"{"cmd":"override"}"#, message: "override: missing field 'mode'"),
    Refused(
      line: #"{"cmd":"override","mode":"replace"}"#, message: "override: missing field 'lat'"),
    Refused(line: #"{"cmd":"inject"}"#, message: "inject: missing field 'fault'"),
    Refused(line: #"{"cmd":"inject","fault":"noise"}"#, message: "inject: missing field 'sigma'"),
    Refused(line: #"{"cmd":"inject","fault":"clock"}"#, message: "inject: missing field 'offset'"),
    // Wrong types.
    Refused(
      line: #"{"cmd":"position","lat":"51","lon":0}"#,
      message: #"position: 'lat' expected a number in -90...90, got "51""#),
    Refused(line: #"{"cmd":"fix","mode":3}"#, message: "fix: 'mode' expected one of none, 2d, 3d"),
    Refused(
      line: #"{"cmd":"route","file":"a","loop":"yes"}"#, message: "'loop' expected true or false"),
    Refused(line: #"{"cmd":"route","file":""}"#, message: "route: 'file' expected the path"),
    // Cut at the NUL, the path would name another file (/etc/passwd here).
    Refused(
      line: #"{"cmd":"route","file":"/etc/passwd\u0000.gpx"}"#,
      message: "route: 'file' expected the path of a route file without a NUL character"),
    Refused(
      line: #"{"cmd":"satellites","used":"some"}"#,
      message: #"'used' expected a whole number in 0...64, "all" or null, got "some""#),
    Refused(line: #"{"cmd":"dop","reset":false}"#, message: "dop: 'reset' expected true"),
    Refused(line: #"{"cmd":"velocity","speed":null,"course":0}"#, message: "got null"),
    Refused(line: #"{"cmd":"velocity","speed":[1],"course":0}"#, message: "got an array"),
    // Out of range.
    Refused(
      line: #"{"cmd":"position","lat":91,"lon":0}"#,
      message: "position: 'lat' expected a number in -90...90, got 91"),
    Refused(
      line: #"{"cmd":"position","lat":0,"lon":-180.5}"#,
      message: "'lon' expected a number in -180...180"),
    Refused(
      line: #"{"cmd":"position","lat":0,"lon":0,"alt":-1001}"#,
      message: "'alt' expected a number in -1000...100000"),
    Refused(
      line: #"{"cmd":"velocity","speed":-1,"course":0}"#,
      message: "velocity: 'speed' expected a number in 0...1000, got -1"),
    Refused(
      line: #"{"cmd":"velocity","speed":1,"course":361}"#,
      message: "'course' expected a number in 0...360"),
    Refused(
      line: #"{"cmd":"velocity","speed":1,"course":0,"climb":1001}"#,
      message: "'climb' expected a number in -1000...1000"),
    Refused(
      line: #"{"cmd":"dop","hdop":0,"vdop":1}"#,
      message: "'hdop' expected a number above 0 and at most 99.9, got 0"),
    Refused(
      line: #"{"cmd":"dop","hdop":1,"vdop":100}"#,
      message: "'vdop' expected a number above 0 and at most 99.9"),
    Refused(
      line: #"{"cmd":"rate","hz":25}"#, message: "rate: 'hz' expected a number in 0.1...20, got 25"),
    Refused(line: #"{"cmd":"rate","hz":0.05}"#, message: "'hz' expected a number in 0.1...20"),
    Refused(
      line: #"{"cmd":"seek","time":-1}"#,
      message: "seek: 'time' expected a number in 0...1000000000"),
    Refused(
      line: #"{"cmd":"satellites","used":65}"#, message: "'used' expected a whole number in 0...64"),
    Refused(
      line: #"{"cmd":"satellites","used":2.5}"#, message: "'used' expected a whole number in 0...64"
    ),
    Refused(
      line: #"{"cmd":"inject","fault":"silence","duration":-1}"#,
      message: "'duration' expected a number in 0"),
    Refused(
      line: #"{"cmd":"inject","fault":"checksum","rate":2}"#,
      message: "'rate' expected a number in 0...1"),
    // Non-finite: JSON has no NaN; a number too big for a Double is not accepted either.
    Refused(line: #"{"cmd":"rate","hz":NaN}"#, message: "not JSON"),
    Refused(
      line: #"{"cmd":"position","lat":1e999,"lon":0}"#,
      message: "position: 'lat' is not a finite number"),
    Refused(
      line: #"{"cmd":"position","lat":1e400,"lon":0}"#,
      message: "position: 'lat' is not a finite number"),
    Refused(
      line: #"{"cmd":"position","lat":0,"lon":"# + String(repeating: "9", count: 400) + "}",
      message: "position: 'lon' is not a finite number"),
    Refused(
      line: #"{"cmd":"satellites","used":-1e400}"#,
      message: "satellites: 'used' is not a finite number"),
    // Strings that are not text: the first real error, with its column.
    Refused(
      line: "{\"cmd\":\"route\",\"file\":\"a\u{0}b\"}",
      message: "not JSON: expected no control character in a string, got byte 0 at column 25"),
    Refused(
      line: #"{"cmd":"status""#,
      message: "not JSON: expected ',' or '}' after a member, got the end of the file at column 16"),
    // A field given twice: the decoder alone would keep one of them without a word.
    Refused(
      line: #"{"cmd":"pause","cmd":"status"}"#,
      message: "duplicate field 'cmd'; give each field once"),
    Refused(
      line: #"{"cmd":"position","lat":10,"lat":20,"lon":5}"#,
      message: "duplicate field 'lat'; give each field once"),
    Refused(
      line: #"{"cmd":"status","id":{"a":1,"a":2}}"#, message: "duplicate field 'a'"),
    // Unknown faults and bad combinations.
    Refused(
      line: #"{"cmd":"inject","fault":"meteor"}"#,
      message: "inject: unknown fault 'meteor'; expected one of nofix, fix, silence"),
    Refused(
      line: #"{"cmd":"inject","fault":"clock","offset":1,"week-rollover":true}"#,
      message: "either offset or week-rollover"),
    Refused(line: #"{"cmd":"dop","scale":2,"hdop":1}"#, message: "either scale or DOP values"),
    Refused(
      line: #"{"cmd":"override","mode":"offset","north":1,"lat":2}"#,
      message: "either north/east meters or lat/lon"),
    Refused(
      line: #"{"cmd":"override","mode":"sideways"}"#,
      message: "'mode' expected one of off, replace, offset, route, freeze"),
  ])
  func everyBadRequestIsRefusedInOneLine(_ refused: Refused) {
    let message = Self.refusal(refused.line)?.message ?? ""
    #expect(message.contains(refused.message), "\(message)")
    #expect(!message.isEmpty)
  }

  @Test func aStringThatIsNotUTF8IsRefusedWithItsColumn() {
    let line = Array(#"{"cmd":"route","file":"a"#.utf8) + [0xFF] + Array(#""}"#.utf8)
    do {
      let envelope = try ControlEnvelope.decode(line: line)
      Issue.record("accepted as \(envelope.request)")
    } catch {
      #expect(error.message == "not JSON: a string that is not UTF-8 at column 23")
    }
  }

  @Test func aRequestWithADuplicateFieldEchoesItsID() {
    #expect(Self.refusal(#"{"cmd":"pause","id":4,"cmd":"status"}"#)?.idJSON == "4")
    #expect(Self.refusal(#"{"cmd":"pause","id":4,"id":5}"#)?.idJSON == nil)
  }

  @Test func aClientsTextIsQuotedOnOneLineAndShort() {
    let field = String(repeating: "x", count: 500) + "\n"
    let message = Self.refusal("{\"cmd\":\"status\",\"\(field.replacingNewline)\":1}")?.message
    #expect(message?.count ?? 1000 < 200)
    let command = Self.refusal(#"{"cmd":"a\nb"}"#)?.message
    #expect(command?.contains(#"unknown command 'a\nb'"#) == true)
  }

  @Test func deepNestingIsRefusedWithoutCrashing() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(Self.refusal(deep) != nil)
    let object =
      #"{"cmd":"status","id":"# + String(repeating: "{\"a\":", count: 10_000) + "1"
      + String(repeating: "}", count: 10_001)
    #expect(Self.refusal(object) != nil)
  }
}

extension String {
  fileprivate var replacingNewline: String {
    split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
  }
}
