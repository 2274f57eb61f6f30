import Simulation

/// The command handler of a profile's chip.
extension ReceiverProfile {
  /// A new handler in the chip's power-up state at `baud` and `periodMilliseconds` (the
  /// profile's factory baud and 1 Hz by default): u-blox 8 and 9 answer UBX, MediaTek answers
  /// PMTK, SiRF switches to and answers SiRF binary, the generic receiver answers nothing. A
  /// u-blox or MediaTek tracks `constellations` (its profile's when nil) until a client
  /// configures others.
  public func makeCommandHandler(
    baud: Int? = nil, periodMilliseconds: Int = 1000, constellations: Set<Constellation>? = nil
  ) -> any ReceiverCommandHandler {
    switch commandSet {
    case .ubloxM8, .ubloxF9:
      return UbloxCommandHandler(
        profile: self, baud: baud ?? defaultBaud, periodMilliseconds: periodMilliseconds,
        constellations: constellations)
    case .mtk:
      return MTKCommandHandler(
        profile: self, baud: baud ?? defaultBaud, constellations: constellations)
    case .sirf: return SiRFCommandHandler(profile: self, baud: baud ?? defaultBaud)
    case .none: return SilentCommandHandler()
    }
  }
}

/// Answers nothing: a chip that ignores whatever a client writes.
public struct SilentCommandHandler: ReceiverCommandHandler {
  /// Creates the handler.
  public init() {}

  public func handle(_ message: ClientMessage) -> [ReceiverEffect] { [] }
}
