import Geodesy
import NMEA
import Simulation
import UBX

/// The bytes of one epoch, as packets that leave in order and are never split: NMEA sentences
/// with their CR LF, or binary frames.
public struct Epoch: Hashable, Sendable {
  /// The packets in the order they are sent.
  public var packets: [[UInt8]]
  /// The fix the epoch reports, when its source computed one.
  public var fix: Fix?

  /// Creates an epoch.
  public init(packets: [[UInt8]], fix: Fix? = nil) {
    self.packets = packets
    self.fix = fix
  }

  /// Every byte of the epoch.
  public var bytes: [UInt8] { packets.concatenated() }

  /// How many bytes the epoch holds.
  public var byteCount: Int { packets.reduce(0) { $0 + $1.count } }
}

extension Array where Element == [UInt8] {
  /// The packets' bytes one after another, in one array allocated at its size (`joined()`
  /// grows its array by doubling: seven allocations and copies for a 500-byte epoch, which a
  /// fleet of 1,000 devices at 10 Hz paid 10,000 times a second).
  public func concatenated() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(reduce(0) { $0 + $1.count })
    for packet in self { bytes.append(contentsOf: packet) }
    return bytes
  }
}

/// Produces the epoch for a simulated time on demand: the scene with its encoder, and later a
/// replayed log or a real receiver. The epoch loop neither knows nor cares which it has.
public protocol EpochSource: Sendable {
  /// The epoch at simulated time `time`.
  func epoch(at time: UTCInstant) -> Epoch
  /// The simulated time after which the source has nothing more to play (a route run once), or
  /// nil when it goes on for ever. Once the epoch loop has sent an epoch at or after it, the
  /// emulator reports that it has finished.
  var endTime: UTCInstant? { get }
  /// The fix the epoch at `time` reports (`epoch(at:).fix`), without encoding it where the
  /// source can.
  func reportedFix(at time: UTCInstant) -> Fix?
}

extension EpochSource {
  public var endTime: UTCInstant? { nil }
  public func reportedFix(at time: UTCInstant) -> Fix? { epoch(at: time).fix }
}

/// The simulated receiver: the scene's fix at each epoch (with its fix faults), written by the
/// profile's encoder, then what the wire faults do to the NMEA bytes.
///
/// Wire faults act on the NMEA sentences; binary frames pass unchanged, except that silence
/// silences them too.
public struct SceneSource: EpochSource {
  /// The world: motion, sky and the faults applied to the fix.
  public var scene: Scene
  /// How the fix becomes sentences and frames.
  public var encoder: ReceiverEncoder
  /// What happens to the bytes after the encoder: silence, corruption, truncation, noise.
  public var wireFaults: WireFaults
  /// The period of the navigation epochs, which numbers them: a message at rate N goes out in
  /// the epochs whose number is a multiple of N (see `OutputSelection`). The raw measurements
  /// follow it: they flag a clock step and send a subframe in the first epoch after each.
  public var epochPeriodNanoseconds: Int64 = 1_000_000_000 {
    didSet {
      encoder.ubx.rawMeasurements?.epochPeriodSeconds = Double(epochPeriodNanoseconds) / 1e9
    }
  }
  /// The power-up sentences of the last restart (see `restart(_:at:)`); they lead the first
  /// epoch after it, past the wire faults.
  public var powerUpBanner: PowerUpBanner?
  /// The chip's rover engine: what the corrections written to it make of each fix (nothing
  /// until some arrive; only the F9P's command handler gives it any).
  public var rover = RTKRover()
  /// The chip as a reference station (time mode; only the F9P's command handler sets one,
  /// `configureBase(_:at:)`).
  public internal(set) var base = BaseStation()
  /// The sky of the same world tracking other systems and of SBAS the satellites of these PRNs
  /// (`track(_:sbasPRNs:)`), or nil when the scene's sky cannot be rebuilt.
  public var skyTracking: (@Sendable (Set<Constellation>, Set<Int>) -> any Sky)?

  /// Creates a source.
  public init(
    scene: Scene, encoder: ReceiverEncoder = ReceiverEncoder(), wireFaults: WireFaults = .none
  ) {
    self.scene = scene
    self.encoder = encoder
    self.wireFaults = wireFaults
  }

  /// Creates the source of a scenario: its scene and its wire faults.
  public init(_ scenario: CompiledScenario, encoder: ReceiverEncoder = ReceiverEncoder()) {
    self.init(scene: scenario.scene, encoder: encoder, wireFaults: scenario.wireFaults)
  }

  /// The end of the scene's motion.
  public var endTime: UTCInstant? { scene.motion.endTime }

  /// The number of the epoch at `time`: whole periods since 1970, so that a message sent every
  /// N-th epoch goes out at the same seconds whenever the emulator started.
  public func epochIndex(at time: UTCInstant) -> Int {
    let period = max(1, epochPeriodNanoseconds)
    let nanoseconds = time.nanoseconds
    let index = nanoseconds / period - (nanoseconds % period < 0 ? 1 : 0)
    return Int(index)
  }

  /// The chip's fix at `time`: the scene's, as the rover's corrections make it, with the
  /// reference station's report.
  public func fix(at time: UTCInstant) -> Fix {
    var fix = scene.fix(at: time)
    if rover.hasReceived { fix = rover.solution(for: fix, antennaAt: antenna(at:)) }
    if sendsMovingBase { fix.faultFreeAntenna = EarthCenteredPosition(antenna(at: time)) }
    if base.settings.mode != .disabled {
      fix.base = base.report(at: time, antenna: EarthCenteredPosition(fix.ellipsoidalPosition))
    }
    return fix
  }

  /// True when the chip is a moving base: out of time mode, with RTCM 4072.0 on.
  var sendsMovingBase: Bool {
    guard base.settings.mode == .disabled, let type = UBXMessageType.rtcmOutput(40720) else {
      return false
    }
    return (encoder.output.ubx[type] ?? 0) > 0
  }

  /// Where the antenna truly is at `time`, its altitude above the ellipsoid: the motion's
  /// position, without the faults a fix may carry.
  func antenna(at time: UTCInstant) -> GeodeticPosition {
    let position = scene.motion.state(at: time).position
    return GeodeticPosition(
      known: position.latitude, position.longitude,
      altitudeMeters: position.altitudeMeters + scene.geoidSeparation(at: position))
  }

  public func reportedFix(at time: UTCInstant) -> Fix? { fix(at: time) }

  public func epoch(at time: UTCInstant) -> Epoch {
    let fix = fix(at: time)
    let index = epochIndex(at: time)
    let active = wireFaults.active(at: time)
    if active.contains(where: { $0.kind == .silence }) { return Epoch(packets: [], fix: fix) }
    let frames = encoder.binaryPackets(for: fix, epochIndex: index)
    let banner = powerUpPackets(at: time)
    guard !active.isEmpty else {
      let lines = encoder.lines(for: fix, epochIndex: index)
      // Most epochs have neither: each `+` copied the lines into a new array.
      guard banner.isEmpty, frames.isEmpty else {
        return Epoch(packets: banner + lines + frames, fix: fix)
      }
      return Epoch(packets: lines, fix: fix)
    }
    let sentences = encoder.sentences(for: fix, epochIndex: index)
    return Epoch(
      packets: banner + Self.lines(of: wireFaults.apply(to: sentences, at: time)) + frames,
      fix: fix)
  }

  /// Splits bytes after each LF, so that pacing still never splits what looks like a line.
  static func lines(of bytes: [UInt8]) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var start = 0
    for (index, byte) in bytes.enumerated() where byte == 0x0A {
      lines.append(Array(bytes[start...index]))
      start = index + 1
    }
    if start < bytes.count { lines.append(Array(bytes[start...])) }
    return lines
  }
}

extension SceneSource {
  /// Runs the reference station with `settings` from `time` on, its RTCM with their station
  /// ID.
  public mutating func configureBase(_ settings: BaseSettings, at time: UTCInstant) {
    base.configure(settings, at: time)
    encoder.rtcm.stationID = settings.stationID
  }

  /// The seed of the station's survey-in.
  public mutating func seedBase(_ seed: UInt64) {
    base.seed = seed
  }
}
