/// A restart a client orders (UBX-CFG-RST, PMTK101–104, SiRF's initialize message): what the
/// chip forgets and whether it powers up again.
public struct ReceiverRestart: Hashable, Sendable {
  /// What the navigation engine keeps, which sets the time to first fix.
  public enum Start: Hashable, Sendable {
    /// Ephemerides, almanac, time and position kept: a fix within seconds.
    case hot
    /// Ephemerides lost: the chip has to read them from the sky again.
    case warm
    /// Everything lost: the chip searches the sky.
    case cold
  }

  /// The kind of start.
  public var start: Start
  /// True when the chip goes through power-up (a hardware or controlled software reset): a
  /// silence, the power-up banner, and the settings kept in its non-volatile layers; false when
  /// only its navigation engine restarts and the port keeps running (u-blox's GNSS-only
  /// reset). MediaTek's PMTK101–104 reboot the chip, which then sends `$PMTK011`/`$PMTK010`.
  public var powersUp: Bool
  /// True when the chip stops at once, in the middle of what it is sending (u-blox's hardware
  /// reset "immediately"): the rest of the epoch on the line and the replies not yet sent are
  /// lost. A controlled reset first finishes what it sends.
  public var cutsOutput: Bool

  /// Creates a restart.
  public init(start: Start, powersUp: Bool, cutsOutput: Bool = false) {
    self.start = start
    self.powersUp = powersUp
    self.cutsOutput = cutsOutput
  }
}
