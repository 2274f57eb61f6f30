// The harness of scripts/bench-routes: the work of a number of epochs, alone in a process, so
// that callgrind can count it and a clock can time it.
//
//   mockgps-bench load FILE RUNS          reads the route file RUNS times in this process (as
//                                         `run` and `check` read it); prints the points and the
//                                         best time in seconds
//   mockgps-bench epochs fixed|ROUTE N    N epochs a simulated second apart, from a fixed
//                                         position or along a route (looping), through the
//                                         encoder to bytes; prints the bytes and µs per epoch
//   mockgps-bench profile NAME static|orbital|sky N [HZ [rawx|base]]
//                                         N epochs at HZ (default 1) from a fixed position, as
//                                         the profile's chip writes them under the static sky or
//                                         the nominal four-system orbital sky; `sky` computes
//                                         only the orbital sky's satellites; `rawx` adds
//                                         RXM-RAWX and RXM-SFRBX, `base` makes the chip a fixed
//                                         reference station sending 1005, the MSM7 of the four
//                                         systems (1077, 1087, 1097, 1127) and 1230 (u-blox
//                                         only); prints as `epochs`
//   mockgps-bench replay LOG RUNS         reads the log RUNS times as `run --replay` does, into
//                                         epochs and nothing else (no device, no writes); prints
//                                         the epochs, packets and bytes, the best time and MB/s
import Geodesy
import Glibc
import Receiver
import Replay
import RouteFiles
import Simulation
import UBX

func fail(_ message: String) -> Never {
  let text = "mockgps-bench: \(message)\n"
  _ = text.withCString { write(2, $0, strlen($0)) }
  exit(64)
}

func monotonicNanoseconds() -> Int64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

let arguments = CommandLine.arguments
let usage =
  "usage: mockgps-bench load FILE RUNS | replay LOG RUNS | epochs fixed|ROUTE N"
  + " | profile NAME static|orbital|sky N [HZ [rawx|base]]"
let greenwich = GeodeticPosition(known: 51.477_928, -0.001_545, altitudeMeters: 46)

/// Prints the count, the bytes and the µs per epoch of `count` runs of `epoch`, one every
/// `period` nanoseconds.
func timeEpochs(
  _ count: Int, from start: UTCInstant, period: Int64 = 1_000_000_000,
  _ epoch: (UTCInstant) -> Int
) {
  var bytes = 0
  let began = monotonicNanoseconds()
  for index in 0..<count {
    bytes &+= epoch(start.adding(nanoseconds: Int64(index) * period))
  }
  let elapsed = monotonicNanoseconds() - began
  print("\(count) epochs, \(bytes) bytes, \(Double(elapsed) / 1000 / Double(count)) us/epoch")
}

if (5...7).contains(arguments.count), arguments[1] == "profile" {
  guard let profile = ReceiverProfile.named(arguments[2]) else {
    fail("no profile '\(arguments[2])'")
  }
  guard let count = Int(arguments[4]), count > 0 else { fail(usage) }
  let hertz = arguments.count >= 6 ? Int(arguments[5]) : 1
  guard let hertz, (1...20).contains(hertz) else { fail(usage) }
  let extra = arguments.count == 7 ? arguments[6] : nil
  guard [nil, "rawx", "base"].contains(extra) else { fail(usage) }
  let period = 1_000_000_000 / Int64(hertz)
  let systems = Set(Constellation.allCases)
  let orbital = OrbitalSky.nominal(constellations: systems, channelLimit: profile.channelLimit)
  let start = UTCInstant(year: 2026, month: 11, day: 30, hour: 12, minute: 0, second: 0)
  switch arguments[3] {
  case "sky":
    timeEpochs(count, from: start, period: period) {
      orbital.satellites(at: $0, from: greenwich).count
    }
  case "static", "orbital":
    let sky: any Sky = arguments[3] == "static" ? StaticSky.typicalGPS : orbital
    var source = SceneSource(
      scene: Scene(motion: FixedPosition(greenwich), sky: sky, geoid: EGM96Geoid()),
      encoder: ReceiverEncoder(profile: profile, constellations: systems))
    if extra != nil {
      guard UBXRawMeasurementEncoder.isAvailable(on: profile) else {
        fail("'\(profile.name)' has no raw measurements")
      }
      source.encoder.ubx.rawMeasurements = UBXRawMeasurementEncoder(
        satellites: orbital.orbitingSatellites, seed: 0)
    }
    if extra == "rawx" {
      source.encoder.output.ubx[.rxmRAWX] = 1
      source.encoder.output.ubx[.rxmSFRBX] = 1
    }
    if extra == "base" {
      source.configureBase(
        BaseSettings(mode: .fixed(EarthCenteredPosition(greenwich), accuracyMeters: 0.01)),
        at: start)
      for number in [1005, 1077, 1087, 1097, 1127, 1230] {
        if let type = UBXMessageType.rtcmOutput(number) { source.encoder.output.ubx[type] = 1 }
      }
    }
    source.epochPeriodNanoseconds = period
    timeEpochs(count, from: start, period: period) { source.epoch(at: $0).byteCount }
  default:
    fail(usage)
  }
  exit(0)
}
guard arguments.count == 4, let count = Int(arguments[3]), count > 0 else { fail(usage) }

if arguments[1] == "load" {
  var best = Int64.max
  var points = 0
  for _ in 0..<count {
    let began = monotonicNanoseconds()
    do {
      points = try RouteFile.load(path: arguments[2]).points.count
    } catch {
      fail(error.description)
    }
    best = min(best, monotonicNanoseconds() - began)
  }
  print("\(points) points, best \(Double(best) / 1e9) s")
  exit(0)
}
if arguments[1] == "replay" {
  var best = Int64.max
  var totals = (epochs: 0, packets: 0, bytes: 0)
  for _ in 0..<count {
    totals = (0, 0, 0)
    let began = monotonicNanoseconds()
    do {
      let reader = try ReplayReader(path: arguments[2])
      while let epoch = try reader.next() {
        totals.epochs += 1
        totals.packets += epoch.packets.count
        totals.bytes += epoch.byteCount
      }
    } catch {
      fail(error.description)
    }
    best = min(best, monotonicNanoseconds() - began)
  }
  let seconds = Double(best) / 1e9
  print(
    "\(totals.epochs) epochs, \(totals.packets) packets, \(totals.bytes) bytes, best \(seconds) s, "
      + "\(Double(totals.bytes) / seconds / 1e6) MB/s")
  exit(0)
}
guard arguments[1] == "epochs" else { fail(usage) }

let start = UTCInstant(year: 2024, month: 7, day: 1, hour: 12, minute: 0, second: 0)
var firstTime = start
let motion: any Motion
if arguments[2] == "fixed" {
  motion = FixedPosition(greenwich)
} else {
  let route: Route
  do {
    route = try RouteFile.load(path: arguments[2])
  } catch {
    fail(error.description)
  }
  if route.isTimed, let track = TrackMotion(route: route, looping: true) {
    firstTime = route.points[0].time ?? start
    motion = track
  } else if let driving = RouteDriving(
    route: route, limits: .car, startTime: start, looping: true)
  {
    motion = driving
  } else {
    fail("'\(arguments[2])' cannot be driven")
  }
}

let source = SceneSource(scene: Scene(motion: motion))
timeEpochs(count, from: firstTime) { source.epoch(at: $0).byteCount }
