import Control
import Geodesy
import InputFiles
import Receiver
import Simulation

/// The `control` target: the bytes a control client writes, through `ControlLineReader` (in
/// chunks of 1 to 64 bytes drawn from a hash of the input, with a small bound so that too long
/// lines come up), each line through `ControlEnvelope.decode`, its reply encoded, and each
/// accepted change applied to `LiveControls` with the epoch after it computed.
///
/// Checked: the reader's buffer stays within its bound and gives the same items whole or in
/// chunks; every reply is one line of JSON that the JSON decoder reads back; nothing traps.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  let bound = 512
  var whole = ControlLineReader(maximumLineLength: bound)
  let expected = whole.receive(bytes)
  var chunked = ControlLineReader(maximumLineLength: bound)
  var items: [ControlLineReader.Item] = []
  let seed = bytes.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
  var generator = FaultRandomNumberGenerator(seed: seed)
  var start = 0
  while start < bytes.count {
    let end = min(bytes.count, start + 1 + Int(generator.next() % 64))
    items += chunked.receive(bytes[start..<end])
    guard chunked.bufferedByteCount <= bound + 1 else {
      failure("\(chunked.bufferedByteCount) bytes buffered over a bound of \(bound)")
    }
    start = end
  }
  guard items == expected else { failure("chunked input gave other lines than the whole") }
  var controls = LiveControls(
    base: SceneSource(scene: Scene(motion: FixedPosition(controlHome))),
    motionStartTime: controlStart)
  for (index, item) in items.enumerated() {
    guard case .line(let line) = item else { continue }
    let now = controlStart.adding(nanoseconds: Int64(index) * 100_000_000)
    let reply: ControlReply
    do {
      let envelope = try ControlEnvelope.decode(line: line)
      reply = .ok([("cmd", .string(envelope.request.command))], id: envelope.idJSON)
      do {
        try controls.apply(envelope.request, at: now)
      } catch {
        _ = ControlReply.refused(error.message).line
      }
      if case .route = envelope.request {
        controls.drive(route: controlRoute, speedMetersPerSecond: nil, loops: true, at: now)
      }
    } catch {
      reply = .refused(error.message, id: error.idJSON)
    }
    checkReply(reply)
  }
  // The epoch after every change, once per input: computing one per line would slow the
  // fuzzing of the decoder tenfold.
  let end = controlStart.adding(nanoseconds: Int64(items.count) * 100_000_000)
  if let fix = controls.source.epoch(at: end).fix {
    checkReply(ControlReply.ok(FixReport.fields(of: fix)))
  }
}

/// One line of JSON that the decoder reads back as an object.
func checkReply(_ reply: ControlReply) {
  let line = reply.line
  guard line.last == "\n", line.dropLast().allSatisfy({ $0 != "\n" && $0 != "\r" }) else {
    failure("reply is not one line: \(line.debugDescription)")
  }
  guard case .success(.object) = JSONValue.parse(Array(line.utf8)) else {
    failure("reply is not a JSON object: \(line.debugDescription)")
  }
}

let controlStart = UTCInstant(year: 2026, month: 3, day: 1, hour: 12)
let controlHome = GeodeticPosition(known: 46.05, 14.5, altitudeMeters: 300)
let controlRoute = Route(points: [
  RoutePoint(position: controlHome, time: controlStart),
  RoutePoint(
    position: GeodeticPosition(known: 46.06, 14.5, altitudeMeters: 310),
    time: controlStart.adding(nanoseconds: 60_000_000_000)),
])

/// A line of every command (the table's examples, so that a new command is seeded too) and
/// fault, some with an id, some refused.
let builtInSeeds: [[UInt8]] =
  ControlCommand.all.map { Array(($0.example + "\r\n").utf8) }
  + [
    #"{"cmd":"status","id":1}"#,
    #"{"cmd":"position","lat":51.5,"lon":-0.14,"alt":20}"#,
    #"{"cmd":"velocity","speed":12.5,"course":270,"climb":1}"#,
    #"{"cmd":"fix","mode":"none"}"#, #"{"cmd":"fix","mode":"rtk-float"}"#,
    #"{"cmd":"satellites","used":3}"#, #"{"cmd":"satellites","used":"all"}"#,
    #"{"cmd":"dop","hdop":1.2,"vdop":1.8,"pdop":2.2}"#, #"{"cmd":"dop","scale":3}"#,
    #"{"cmd":"dop","reset":true}"#, #"{"cmd":"pause"}"#, #"{"cmd":"resume","id":"r"}"#,
    #"{"cmd":"seek","time":120.5}"#, #"{"cmd":"scale","factor":10}"#, #"{"cmd":"rate","hz":5}"#,
    #"{"cmd":"route","file":"/tmp/a.gpx","speed":12,"loop":true}"#,
    #"{"cmd":"override","mode":"offset","north":10,"east":-5}"#,
    #"{"cmd":"override","mode":"replace","lat":1,"lon":2,"alt":3}"#,
    #"{"cmd":"inject","fault":"silence","duration":5}"#,
    #"{"cmd":"inject","fault":"corrupt","rate":0.5,"style":"truncate"}"#,
    #"{"cmd":"inject","fault":"jump","north":30,"east":4,"up":-2,"duration":0}"#,
    #"{"cmd":"inject","fault":"noise","sigma":5,"tau":10}"#,
    #"{"cmd":"inject","fault":"clock","week-rollover":true}"#,
    #"{"cmd":"inject","fault":"cold-start","ttff":12}"#, #"{"cmd":"subscribe"}"#,
    #"{"cmd":"position","latt":1}"#, #"["x"]"#, #"{"id":{"a":[1,2,{"b":null}]}}"#,
  ].map { Array(($0 + "\r\n").utf8) } + [
    Array(#"{"cmd":"pause"}{"cmd":"fix","mode":"2d"}"#.utf8)
      + [0x0A, 0x00, 0x0A] + Array(#"{"cmd":"resume"}"#.utf8) + [0x0A]
  ]
