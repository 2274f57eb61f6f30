/// State that belongs to the handlers of one `IOLoop`: read and changed only where no other
/// handler of the loop runs (`IOLoop.isDispatchingHere`: a handler or `perform`ed task on the
/// loop's thread, or `IOLoop.exclusively` on another), so no lock of its own guards it; the
/// loop's dispatch lock orders each access after the one before. Debug builds check every
/// access.
public final class LoopOwned<Value: ~Copyable>: @unchecked Sendable {
  private var value: Value
  /// The loop whose handlers own the value.
  public let loop: IOLoop

  public init(_ value: consuming Value, on loop: IOLoop) {
    self.value = value
    self.loop = loop
  }

  /// Reads or changes the value; only where the loop dispatches (see the type). `body` must not
  /// touch this value again.
  public func access<Result: ~Copyable, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    assert(loop.isDispatchingHere, "state of \(loop.name)'s handlers touched outside them")
    return try body(&value)
  }
}
