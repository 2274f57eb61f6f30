import Geodesy
import Glibc
import Receiver
import Simulation
import UBX

// Compiled into every fuzz target beside the target's own file, which defines `fuzz(_:)` (the
// check run on each input) and `builtInSeeds` (inputs written into the seed corpus).

/// libFuzzer's entry point: runs the target's check on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzz(UnsafeBufferPointer(start: data, count: size))
  return 0
}

/// Called by libFuzzer before fuzzing. When `MOCKGPS_FUZZ_WRITE_SEEDS` names a folder, writes
/// the target's built-in seeds there and exits, so `scripts/fuzz` can make a seed corpus from
/// the same code under test without a second build of the modules.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  guard let folder = getenv("MOCKGPS_FUZZ_WRITE_SEEDS").map({ String(cString: $0) }) else {
    return 0
  }
  for (index, seed) in builtInSeeds.enumerated() {
    let path = "\(folder)/builtin-\(index)"
    guard let file = fopen(path, "wb") else {
      perror(path)
      exit(1)
    }
    _ = seed.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
  }
  exit(0)
}

/// Stops the run with a message; libFuzzer saves the input that got here as a crash artifact.
func failure(_ message: String) -> Never {
  fputs("fuzz check failed: \(message)\n", stderr)
  abort()
}

/// The epochs `EpochEncoder` sends for a few fixes: standing still, moving fast, no fix,
/// GLONASS too, and a time with a fraction of a second.
var encodedEpochs: [[UInt8]] {
  let start = UTCInstant(year: 2026, month: 11, day: 29, hour: 14, minute: 39, second: 54)
  let places = [
    GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 35),
    GeodeticPosition(known: -33.8568, 151.2153, altitudeMeters: -12.5),
    GeodeticPosition(known: 89.9999, -179.9999, altitudeMeters: 99_000),
  ]
  var epochs: [[UInt8]] = []
  for (index, place) in places.enumerated() {
    var fix = Scene(motion: FixedPosition(place)).fix(at: start.adding(nanoseconds: 250_000_000))
    fix.speedMetersPerSecond = Double(index) * 40.5
    fix.courseDegrees = Double(index) * 123.4
    var encoder = EpochEncoder()
    if index == 1 { encoder.constellations = [.gps, .glonass] }
    epochs.append(encoder.bytes(for: fix))
  }
  var noFix = Scene(motion: FixedPosition(places[0]), sky: StaticSky(satellites: [])).fix(
    at: start)
  noFix.dop = nil
  epochs.append(EpochEncoder().bytes(for: noFix))
  return epochs
}

/// UBX frames a client sends a receiver: polls, rate and message configuration, an
/// acknowledgement, and a long payload.
var ubxFrames: [[UInt8]] {
  [
    UBXFrame(.monVER), UBXFrame(.cfgPRT),
    UBXFrame(.cfgRATE, payload: [0xC8, 0x00, 0x01, 0x00, 0x01, 0x00]),
    UBXFrame(.cfgMSG, payload: [0xF0, 0x03, 0x00]),
    UBXFrame(.ackACK, payload: [0x06, 0x08]),
    UBXFrame(.navPVT, payload: Array(repeating: 0x5A, count: 92)),
    UBXFrame(messageClass: 0x13, id: 0x40, payload: (0..<300).map { UInt8($0 & 0xFF) }),
  ].map(\.bytes)
}
