import NMEA
import SiRF
import Simulation
import UBX

/// Writes one epoch as the profile's chip sends it with the output a client selected: the NMEA
/// sentences of its dialect, then the UBX navigation messages that are switched on; a SiRF
/// switched to binary sends its binary messages instead.
public struct ReceiverEncoder: Sendable {
  /// The chip.
  public var profile: ReceiverProfile
  /// What goes out, as the client configured it.
  public var output: OutputSelection
  /// The NMEA part.
  public var nmea: EpochEncoder
  /// The UBX part.
  public var ubx: UBXNavigationEncoder
  /// The RTCM 3 part (a u-blox 9 as a reference station or moving base).
  public var rtcm = RTCMOutputEncoder()

  /// An encoder sending what the profile sends after power-up, tracking `constellations`
  /// (the profile's default when nil).
  public init(profile: ReceiverProfile = .generic, constellations: Set<Constellation>? = nil) {
    self.profile = profile
    output = profile.defaultOutput
    nmea = EpochEncoder(profile: profile)
    if let constellations { nmea.constellations = constellations }
    ubx = UBXNavigationEncoder(profile: profile)
  }

  /// Writes NMEA in `dialect` from now on, and lists its GSV signals in NAV-SIG.
  public mutating func write(dialect: NMEADialect) {
    nmea.dialect = dialect
    ubx.signals = dialect.signalIDs
  }

  /// The message `type` of `fix` as the chip answers a poll of it, whatever its rate: an NMEA
  /// sentence (CFG-MSG class F0, or PUBX) in the dialect, a UBX NAV message; nil for one the
  /// chip does not write.
  public func reply(_ type: UBXMessageType, for fix: Fix) -> [UInt8]? {
    guard let sentence = type.nmeaSentence else { return ubx.frame(type, for: fix)?.bytes }
    let lines = nmea.sentences(for: fix, sending: sentence).map(\.lineBytes)
    return lines.isEmpty ? nil : lines.concatenated()
  }

  /// The NMEA sentences of the epoch with this index.
  public func sentences(for fix: Fix, epochIndex: Int) -> [RawSentence] {
    nmea.sentences(for: fix, output: output, epochIndex: epochIndex)
  }

  /// The NMEA lines of the epoch with this index, each ending in CR LF.
  public func lines(for fix: Fix, epochIndex: Int) -> [[UInt8]] {
    nmea.lines(for: fix, output: output, epochIndex: epochIndex)
  }

  /// The UBX frames of the epoch with this index.
  public func frames(for fix: Fix, epochIndex: Int) -> [UBXFrame] {
    ubx.frames(for: fix, output: output, epochIndex: epochIndex)
  }

  /// The SiRF binary frames of the epoch with this index (none unless the port speaks it).
  public func sirfFrames(for fix: Fix, epochIndex: Int) -> [SiRFFrame] {
    SiRFNavigationEncoder.frames(for: fix, output: output, epochIndex: epochIndex)
  }

  /// The binary packets of the epoch: UBX frames, RTCM 3 frames (u-blox 9), then SiRF frames.
  public func binaryPackets(for fix: Fix, epochIndex: Int) -> [[UInt8]] {
    var packets = frames(for: fix, epochIndex: epochIndex).map { $0.bytes }
    if profile.commandSet == .ubloxF9 {
      packets += rtcm.frames(
        for: fix, output: output, epochIndex: epochIndex, measurements: ubx.rawMeasurements,
        signals: ubx.measuredSignals)
    }
    return packets + sirfFrames(for: fix, epochIndex: epochIndex).map { $0.bytes }
  }

  /// Every packet of the epoch in the order sent: NMEA sentences with CR LF, then binary
  /// frames.
  public func packets(for fix: Fix, epochIndex: Int) -> [[UInt8]] {
    lines(for: fix, epochIndex: epochIndex) + binaryPackets(for: fix, epochIndex: epochIndex)
  }
}
