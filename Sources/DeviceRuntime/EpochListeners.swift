import Receiver
import Simulation
import Synchronization

/// One epoch as it falls due, whole, whether or not a client has the device open: what the
/// control socket's subscribers and the network outputs see.
public struct DueEpoch: Sendable {
  /// The simulated time of the epoch (for a replay: the wire time it is sent at).
  public var time: UTCInstant
  /// Its bytes, packets in order. A replay's are held as the replay holds them, and copied
  /// out here (`bytes` copies them once, joined).
  public var packets: [[UInt8]] {
    get {
      switch storage {
      case .arrays(let packets): return packets
      case .held(let packets): return packets.packetBytes.map { Array($0) }
      }
    }
    set { storage = .arrays(newValue) }
  }
  /// Its bytes, joined.
  public var bytes: [UInt8] {
    switch storage {
    case .arrays(let packets): return packets.flatMap { $0 }
    case .held(let packets): return packets.packetBytes.flatMap { $0 }
    }
  }
  /// The fix it reports, when the source computed one (a simulated receiver).
  public var fix: Fix? {
    get { fixBox?.fix }
    set { fixBox = newValue.map(FixBox.init) }
  }
  /// True when it reports a fix: `fix` without copying it out.
  public var hasFix: Bool { fixBox != nil }
  /// How late the epoch started against its schedule (0 when on time or not measured).
  public var lateNanoseconds: Int64 = 0
  /// The fix, in a box of its own: a fix is some 400 bytes, and an epoch is copied several
  /// times on its way to the listeners, each copy a copy of the fix (3 % of a fleet's
  /// instructions under callgrind), where a box is one reference.
  private var fixBox: FixBox?
  /// The packets as the source holds them: a replay's are handed on as one reference, read
  /// only when a listener asks (an array of their bytes made for each epoch, and let go a few
  /// epochs later by the control socket's last-fix memory, was a tenth of an unpaced replay's
  /// instructions).
  private var storage: Packets

  private enum Packets: Sendable {
    case arrays([[UInt8]])
    case held(any HeldPackets)
  }

  /// An epoch at `time` of `packets`, with the fix it reports.
  package init(time: UTCInstant, packets: [[UInt8]], fix: Fix?, lateNanoseconds: Int64 = 0) {
    self.time = time
    storage = .arrays(packets)
    self.fix = fix
    self.lateNanoseconds = lateNanoseconds
  }

  /// An epoch at `time` of `packets`, as its source holds them, with the fix it reports.
  package init(time: UTCInstant, held packets: any HeldPackets, fix: Fix?) {
    self.time = time
    storage = .held(packets)
    self.fix = fix
  }
}

/// An epoch's packets as a source holds them (a replay: its log's packets), handed to
/// `DueEpoch` without building an array of their bytes. A type of one reference, so that the
/// existential holds it without an allocation.
package protocol HeldPackets: Sendable {
  /// The bytes of each packet, in order.
  var packetBytes: [ArraySlice<UInt8>] { get }
}

/// A fix that copies of a `DueEpoch` share.
private final class FixBox: Sendable {
  let fix: Fix

  init(_ fix: Fix) {
    self.fix = fix
  }
}

/// Handlers called on the epoch thread for every epoch as it falls due, once its first bytes
/// are written (or it is not sent). They must not block: queue the work elsewhere.
public final class EpochListeners: Sendable {
  /// A registered handler, to remove it.
  public struct Token: Hashable, Sendable {
    fileprivate let value: UInt64
  }

  private struct Handlers {
    /// The handlers in the order they were added: each epoch takes the array as it is (a
    /// reference), where copying a dictionary's values allocated an array a device-epoch.
    var all: [(value: UInt64, handler: @Sendable (DueEpoch) -> Void)] = []
    /// The handlers that need every epoch's packets, not only its fix.
    var needingPackets: Set<UInt64> = []
  }

  private let handlers = Mutex(Handlers())
  private let nextValue = Atomic<UInt64>(0)

  public init() {}

  /// Adds a handler. One that reads only the epochs' fixes (`needsPackets` false: the
  /// control socket's `status` and `subscribe`) lets a simulated receiver without a client
  /// skip encoding its epochs; it is then told of them with their fix and no packets.
  public func add(needsPackets: Bool = true, _ handler: @escaping @Sendable (DueEpoch) -> Void)
    -> Token
  {
    let value = nextValue.wrappingAdd(1, ordering: .relaxed).oldValue
    handlers.withLock { handlers in
      handlers.all.append((value, handler))
      if needsPackets { handlers.needingPackets.insert(value) }
    }
    return Token(value: value)
  }

  /// Removes a handler; it is not called after this returns, except by a call in progress.
  public func remove(_ token: Token) {
    handlers.withLock { handlers in
      handlers.all.removeAll { $0.value == token.value }
      handlers.needingPackets.remove(token.value)
    }
  }

  /// True when no handler is registered (nothing to build a `DueEpoch` for).
  package var isEmpty: Bool { handlers.withLock { $0.all.isEmpty } }

  /// True when a handler needs the epochs' packets (see `add(needsPackets:_:)`).
  package var needPackets: Bool { handlers.withLock { !$0.needingPackets.isEmpty } }

  /// Calls every handler with `epoch`.
  package func notify(_ epoch: @autoclosure () -> DueEpoch) {
    let current = handlers.withLock { $0.all }
    guard !current.isEmpty else { return }
    let value = epoch()
    for entry in current { entry.handler(value) }
  }
}
