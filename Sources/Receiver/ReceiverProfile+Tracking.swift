import Simulation

/// Which satellite systems a profile's chip can track, and how many of them at once.
extension ReceiverProfile {
  /// What a chip's hardware and firmware let it track.
  public struct TrackingCapability: Hashable, Sendable {
    /// The systems it can track.
    public var trackable: Set<Constellation>
    /// The most of them it tracks at once, augmentation systems (SBAS) not counted.
    public var concurrentLimit: Int

    /// Creates a capability.
    public init(trackable: Set<Constellation>, concurrentLimit: Int) {
      self.trackable = trackable
      self.concurrentLimit = concurrentLimit
    }
  }

  /// A choice of systems the chip cannot track.
  public enum TrackingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A system the chip has no receiver for.
    case untrackable(profile: String, requested: Set<Constellation>, capability: TrackingCapability)
    /// More systems than the chip tracks at once.
    case tooManyAtOnce(
      profile: String, requested: Set<Constellation>, capability: TrackingCapability)

    public var description: String {
      switch self {
      case .untrackable(let profile, let requested, let capability):
        let missing = requested.subtracting(capability.trackable)
        return "profile '\(profile)' cannot track \(ReceiverProfile.list(missing)): "
          + capability.summary
      case .tooManyAtOnce(let profile, let requested, let capability):
        let major = requested.filter { !$0.isAugmentation }.count
        return "profile '\(profile)' cannot track \(major) systems at once: "
          + capability.summary
      }
    }
  }

  /// What the chip tracks: a u-blox M8 at most three major GNSS at once (receiver description,
  /// "GNSS configuration") and SBAS, a ZED-F9P all four concurrently and SBAS, an MT3301 GPS
  /// and SBAS (PMTK313), the SiRFstarV of the capture GPS and GLONASS; the generic receiver
  /// anything.
  public var tracking: TrackingCapability {
    let all = Set(Constellation.allCases)
    let major = all.filter { !$0.isAugmentation }.count
    switch commandSet {
    case .ubloxM8: return TrackingCapability(trackable: all, concurrentLimit: 3)
    case .ubloxF9, .none: return TrackingCapability(trackable: all, concurrentLimit: major)
    case .mtk: return TrackingCapability(trackable: [.gps, .sbas], concurrentLimit: 1)
    case .sirf: return TrackingCapability(trackable: [.gps, .glonass], concurrentLimit: 2)
    }
  }

  /// Checks that the chip can track `systems` together.
  ///
  /// - Throws: `TrackingError` naming what the chip can do.
  public func checkTracking(_ systems: Set<Constellation>) throws(TrackingError) {
    let capability = tracking
    guard systems.isSubset(of: capability.trackable) else {
      throw .untrackable(profile: name, requested: systems, capability: capability)
    }
    guard systems.filter({ !$0.isAugmentation }).count <= capability.concurrentLimit else {
      throw .tooManyAtOnce(profile: name, requested: systems, capability: capability)
    }
  }

  /// Systems in `Constellation.allCases` order, comma-separated.
  static func list(_ systems: Set<Constellation>) -> String {
    Constellation.allCases.filter(systems.contains).map(\.rawValue).joined(separator: ", ")
  }
}

extension ReceiverProfile.TrackingCapability {
  /// What the chip can do, in words: `it tracks at most 3 at once of gps, glonass, galileo,
  /// beidou (and sbas)`, or `it tracks gps only (and sbas)`; augmentation systems in brackets.
  public var summary: String {
    let major = trackable.filter { !$0.isAugmentation }
    let augmentation = trackable.subtracting(major)
    let systems = ReceiverProfile.list(major)
    let with = augmentation.isEmpty ? "" : " (and \(ReceiverProfile.list(augmentation)))"
    if major.count == 1 { return "it tracks \(systems) only\(with)" }
    if concurrentLimit >= major.count { return "it tracks any of \(systems) together\(with)" }
    return "it tracks at most \(concurrentLimit) at once of \(systems)\(with)"
  }
}
