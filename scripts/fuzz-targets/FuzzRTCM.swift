import GNSSMeasurements
import Geodesy
import RTCM
import Simulation

/// The `rtcm` target: the bytes after the first, fed to `RTCMFramer` whole and in chunks whose
/// sizes come from the first byte. Both must give the same events; once finished, the good
/// frames' bytes and the discarded bytes must add up to the input. Every good frame is decoded
/// by `RTCMMessage(frame:)`; a message that decodes and re-encodes must decode again to the
/// same message (MSM: the same cells).
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
}

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

/// A base station's stream (1005, 1006, 1019, MSM4, MSM7, 1230), a frame cut short and noise.
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
  if let ephemeris = engine.ephemeris(prn: epoch.measurements.first?.id ?? 1, atGPSSeconds: 1.4e9) {
    payloads.append(GPSEphemerisMessage(ephemeris).payload())
  }
  payloads.append((try? GLONASSBiases(stationID: 7, biasesMeters: [1, nil, 2]).payload()) ?? [])
  let frames = payloads.map { RTCMFrame(payload: $0).bytes }
  let stream = frames.joined()
  return frames.map { [0x25] + $0 } + [
    [0x31] + stream,
    [0x7F] + frames[0].prefix(9) + frames[2] + Array("$GPGGA\r\n".utf8) + frames[1],
  ]
}()
