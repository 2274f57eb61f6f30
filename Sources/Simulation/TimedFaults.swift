/// One thing that goes wrong, for a time: a fault of some kind and the window it holds in.
///
/// Fix faults (`FixFault`, between the scene and the encoder) and wire faults (`WireFault`, on
/// the bytes after it) are both timed faults; scenarios and the control socket inject them alike.
public struct TimedFault<Kind: Hashable & Sendable>: Hashable, Sendable {
  /// What goes wrong.
  public var kind: Kind
  /// When the fault is active.
  public var window: FaultWindow

  /// Creates a fault, active always unless a window is given.
  public init(_ kind: Kind, window: FaultWindow = .always) {
    self.kind = kind
    self.window = window
  }
}

/// Faults of one kind, each with its own window.
public struct TimedFaults<Kind: Hashable & Sendable>: Hashable, Sendable,
  ExpressibleByArrayLiteral
{
  /// The faults, in the order they were given.
  public var faults: [TimedFault<Kind>]

  /// No faults.
  public static var none: Self { Self() }

  /// Creates a list of faults.
  public init(_ faults: [TimedFault<Kind>] = []) {
    self.faults = faults
  }

  public init(arrayLiteral faults: TimedFault<Kind>...) {
    self.init(faults)
  }

  /// The faults active at `time`, in list order.
  ///
  /// Inlinable so that a caller in another module (the scene source, every epoch) gets it
  /// specialized for its kind of fault: unspecialized, it looks up generic metadata each time.
  @inlinable public func active(at time: UTCInstant) -> [TimedFault<Kind>] {
    faults.filter { $0.window.contains(time) }
  }

  /// Forgets the faults whose window is over at `time`.
  public mutating func removeEnded(by time: UTCInstant) {
    faults.removeAll { $0.window.hasEnded(by: time) }
  }
}
