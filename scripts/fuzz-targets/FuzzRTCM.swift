import GNSSMeasurements
import Geodesy
import RTCM
import Receiver
import Simulation

/// The `rtcm` target: the bytes after the first, fed to `RTCMFramer` whole and in chunks whose
/// sizes come from the first byte. Both must give the same events; once finished, the good
/// frames' bytes and the discarded bytes must add up to the input. Every good frame is decoded
/// by `RTCMMessage(frame:)`; a message that decodes and re-encodes must decode again to the
/// same message (MSM: the same cells). The decoded messages then feed an F9P's rover, one a
/// second, and its solution of a fixed position must stay a fix with a finite, positive range
/// error and baseline.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let first = bytes.first else { return }
  let input = Array(bytes.dropFirst())
  var whole = RTCMFramer()
  let expected = whole.append(input)
  whole.finish()
  // Sizes 1 to 16, cycling through a pattern the first byte picks.
  let sizes = (0..<4).map { Int((first >> ($0 * 2)) & 0x0F) + 1 }
  var chunked = RTCMFramer()
  var events: [RTCMFramer.Event] = []
  var start = 0
  var turn = 0
  while start < input.count {
    let end = min(input.count, start + sizes[turn % sizes.count])
    events += chunked.append(input[start..<end])
    start = end
    turn += 1
  }
  chunked.finish()
  guard events == expected, chunked.counts == whole.counts else {
    failure(
      "chunks gave \(events.count) events \(chunked.counts), whole \(expected.count) \(whole.counts)"
    )
  }
  var framed = 0
  for event in expected {
    guard case .frame(let frame) = event else { continue }
    framed += frame.bytes.count
    check(frame)
  }
  guard framed + whole.counts.discardedBytes == input.count else {
    failure("\(framed) framed + \(whole.counts.discardedBytes) discarded of \(input.count) bytes")
  }
  checkRover(expected)
}

/// A rover fed the messages one a second, asked for its solution after each.
func checkRover(_ events: [RTCMFramer.Event]) {
  let start = UTCInstant(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0)
  var rover = RTKRover()
  var second: Int64 = 0
  for case .frame(let frame) in events {
    guard let message = try? RTCMMessage(frame: frame), let input = CorrectionInput(message)
    else { continue }
    let time = start.adding(nanoseconds: second * 1_000_000_000)
    rover.receive(input, at: time)
    var fix = roverFix
    fix.time = time
    let solved = rover.solution(for: fix)
    guard solved.mode == .threeDimensional, solved.position == fix.position else {
      failure("the rover changed the fix: \(solved)")
    }
    for use in [solved.corrections, solved.movingBaseline?.corrections].compactMap({ $0 }) {
      guard use.rangeErrorMeters.isFinite, use.rangeErrorMeters > 0,
        use.baselineMeters.isFinite
      else { failure("corrections \(use)") }
    }
    second += 1
  }
}

/// A 3D fix at the built-in seeds' station, GPS 1–12 used.
let roverFix: Fix = {
  let satellites = (1...12).map {
    SatelliteInView(
      constellation: .gps, id: $0, elevation: Double(10 + $0 * 6), azimuth: Double($0 * 30),
      snr: 40, isUsed: true)
  }
  return Fix(
    time: UTCInstant(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0),
    mode: .threeDimensional, position: GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 80),
    geoidSeparationMeters: 0, speedMetersPerSecond: 0, courseDegrees: 0, satellites: satellites,
    dop: DilutionOfPrecision(directions: satellites.map { ($0.azimuth, $0.elevation) }))
}()

/// Decodes a frame, and checks that a message re-encoded decodes to itself.
func check(_ frame: RTCMFrame) {
  guard let message = try? RTCMMessage(frame: frame),
    let again = try? message.frame(), let back = try? RTCMMessage(frame: again)
  else { return }
  if case .msm(let sent) = message, case .msm(let received) = back {
    let cells = { (message: MSMMessage) in
      message.observations.map { [$0.satelliteID, $0.signalID] }
    }
    guard cells(sent) == cells(received), sent.epochTime == received.epochTime else {
      failure("MSM \(sent.messageNumber) re-encoded to other cells")
    }
    return
  }
  guard back == message else { failure("\(message) re-encoded to \(back)") }
}

/// A base station's stream (1005, 1006, 1019, MSM4, MSM7, 1230, 4072.0), a frame cut short and
/// noise.
let builtInSeeds: [[UInt8]] = {
  let place = GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 80)
  let sky = OrbitalSky.nominal(constellations: [.gps], seed: 5)
  let engine = MeasurementEngine(satellites: sky.orbitingSatellites, seed: 5)
  let time = UTCInstant(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0)
  let epoch = engine.epoch(
    at: time, position: place, velocity: EarthCenteredPosition(x: 0, y: 0, z: 0),
    tracked: sky.satellites(at: time, from: place), epochPeriodSeconds: 1)
  let station = EarthCenteredPosition(place)
  var payloads: [[UInt8]] = []
  let reference = StationReference(stationID: 7, x: station.x, y: station.y, z: station.z)
  var tall = reference
  tall.antennaHeightMeters = 1.5
  payloads += [(try? reference.payload()) ?? [], (try? tall.payload()) ?? []]
  for kind in MSMKind.allCases {
    var encoder = MSMEpochEncoder(stationID: 7, kind: kind)
    payloads += encoder.messages(for: epoch).map { (try? $0.payload()) ?? [] }
  }
  if let ephemeris = engine.ephemeris(
    number: epoch.measurements.first?.id ?? 1, atGPSSeconds: 1.4e9)
  {
    payloads.append(GPSEphemerisMessage(ephemeris).payload())
  }
  payloads.append((try? GLONASSBiases(stationID: 7, biasesMeters: [1, nil, 2]).payload()) ?? [])
  let moving = MovingBaseReference(
    stationID: 7, gpsMillisecondsOfWeek: 345_600_000, x: station.x, y: station.y, z: station.z,
    velocityX: 1.5, velocityY: -2.5, velocityZ: 0.25)
  payloads.append((try? moving.payload()) ?? [])
  let frames = payloads.map { RTCMFrame(payload: $0).bytes }
  let stream = frames.joined()
  return frames.map { [0x25] + $0 } + [
    [0x31] + stream,
    [0x7F] + frames[0].prefix(9) + frames[2] + Array("$GPGGA\r\n".utf8) + frames[1],
  ]
}()
