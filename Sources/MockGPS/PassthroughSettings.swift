import Geodesy
import Passthrough
import Simulation
import SystemIO
import Udev

/// A real receiver passed through (`--passthrough`), and what its position becomes.
public struct PassthroughSettings: Hashable, Sendable {
  /// `--override`: how the real position is replaced.
  public enum OverrideMode: String, Hashable, Sendable, CaseIterable {
    case off, replace, offset, route, freeze
  }

  /// Meters north and east (`--offset NORTH_M,EAST_M`).
  public struct Offset: Hashable, Sendable {
    public var northMeters: Double
    public var eastMeters: Double

    public init(northMeters: Double, eastMeters: Double) {
      self.northMeters = northMeters
      self.eastMeters = eastMeters
    }
  }

  /// The device, or how to find it.
  public var target: PassthroughTarget
  /// The real port's baud (`--passthrough-baud`); nil finds it (`auto`).
  public var baud: Int?
  public var override: OverrideMode
  /// With `offset`: move by this much instead of moving the first fix to the position.
  public var offset: Offset?
  /// With `replace`: the position's altitude replaces the real one (`--position` gave one).
  public var replacesAltitude: Bool

  /// Creates settings.
  public init(
    target: PassthroughTarget, baud: Int? = nil, override: OverrideMode = .off,
    offset: Offset? = nil, replacesAltitude: Bool = false
  ) {
    self.target = target
    self.baud = baud
    self.override = override
    self.offset = offset
    self.replacesAltitude = replacesAltitude
  }

  /// The override to run when simulated time starts at `start`: `replace` and `offset` take
  /// the position of a `.fixed` source, `route` the motion of a route or scenario source.
  ///
  /// - Throws: `SourceError` for a route that cannot be played, or a source that does not
  ///   give what the mode needs.
  public func positionOverride(source: EmulatorConfiguration.Source, start: UTCInstant)
    throws(EmulatorConfiguration.Source.SourceError) -> PositionOverride
  {
    switch (override, source) {
    case (.off, _):
      return .off
    case (.freeze, _):
      return .freeze
    case (.offset, _) where offset != nil:
      let offset = offset ?? Offset(northMeters: 0, eastMeters: 0)
      return .offsetBy(northMeters: offset.northMeters, eastMeters: offset.eastMeters)
    case (.offset, .fixed(let position)):
      return .offsetTo(position)
    case (.replace, .fixed(let position)):
      return .replace(position, replacesAltitude: replacesAltitude)
    case (.route, .route), (.route, .scenario):
      let (scene, _) = try source.makeScene(
        simulatedStart: start, sky: { _ in StaticSky(satellites: []) })
      return .route(scene.motion)
    case (.replace, _), (.offset, _), (.route, _):
      throw .overrideNeedsSource(override.rawValue, needs: Self.sourceNeeded(by: override))
    }
  }

  /// What `--override MODE` needs beside it, for its error.
  private static func sourceNeeded(by mode: OverrideMode) -> String {
    switch mode {
    case .replace: return "--position"
    case .offset: return "--position or --offset"
    case .route: return "--route or --scenario"
    case .off, .freeze: return "nothing"
    }
  }
}
