import NMEA
import Simulation

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
  public var bytes: [UInt8] { Array(packets.joined()) }

  /// How many bytes the epoch holds.
  public var byteCount: Int { packets.reduce(0) { $0 + $1.count } }
}

/// Produces the epoch for a simulated time on demand: the scene with its encoder, and later a
/// replayed log or a real receiver. The epoch loop neither knows nor cares which it has.
public protocol EpochSource: Sendable {
  /// The epoch at simulated time `time`.
  func epoch(at time: UTCInstant) -> Epoch
}

/// The simulated receiver: the scene's fix at each epoch, written by the encoder.
public struct SceneSource: EpochSource {
  /// The world: motion, sky and the faults applied to the fix.
  public var scene: Scene
  /// How the fix becomes sentences.
  public var encoder: EpochEncoder

  /// Creates a source.
  public init(scene: Scene, encoder: EpochEncoder = EpochEncoder()) {
    self.scene = scene
    self.encoder = encoder
  }

  public func epoch(at time: UTCInstant) -> Epoch {
    let fix = scene.fix(at: time)
    return Epoch(packets: encoder.sentences(for: fix).map { Array($0.line.utf8) }, fix: fix)
  }
}
