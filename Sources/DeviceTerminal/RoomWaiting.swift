/// A wait for room in a client's queue, in progress: on the I/O loop for a pseudo-terminal
/// (`RoomWait`), in memory for a test's line (`MemoryLine`). A `Transmitter` keeps the one it
/// waits on, and ends it when its source stops.
protocol RoomWaiting: AnyObject, Sendable {
  /// Stops waiting: the wait's `ready` is not called after this returns (unless it is
  /// running). Any number of times, from any thread.
  func cancel()
}

extension RoomWait: RoomWaiting {}
