import Simulation
import UBX

/// Writes a fix as the UBX navigation messages a u-blox chip sends each epoch.
///
/// PLACEHOLDER (issue 8 contract): sends nothing yet; the UBX helper replaces this file.
public struct UBXNavigationEncoder: Sendable {
  /// The chip whose messages these are.
  public var profile: ReceiverProfile

  /// Creates an encoder for a profile's chip.
  public init(profile: ReceiverProfile) {
    self.profile = profile
  }

  /// The frames of the epoch with this index, for the UBX messages `output` switches on.
  public func frames(for fix: Fix, output: OutputSelection, epochIndex: Int) -> [UBXFrame] {
    []
  }
}
