import DeviceRuntime
import SystemIO

/// A wait for room in a client's queue, in progress: on the scheduler's thread for a
/// pseudo-terminal (`TerminalRoomWait`), in memory for a test's line (`MemoryLine`). A
/// `Transmitter` keeps the one it waits on, and ends it when its source stops.
protocol RoomWaiting: AnyObject, Sendable {
  /// Stops waiting: the wait's `ready` is not called after this returns (unless it is
  /// running). Any number of times, from any thread.
  func cancel()
}

/// A wait for room in a pseudo-terminal's queue: the scheduler's thread polls a duplicate of
/// the master with its sleep (`DeadlineScheduler.whenWritable`) and calls `ready` there when
/// the client has read, or the last client left. The step that waits is woken by the thread
/// that runs it, with no other thread in between.
final class TerminalRoomWait: RoomWaiting {
  private let scheduler: DeadlineScheduler
  private let id: DescriptorWatches.ID

  /// Starts waiting on `scheduler` for room in `master`'s queue (a duplicate, which the wait
  /// closes).
  init(
    master: consuming FileDescriptor, on scheduler: DeadlineScheduler,
    ready: @escaping @Sendable () -> Void
  ) {
    self.scheduler = scheduler
    id = scheduler.whenWritable(master, ready)
  }

  func cancel() {
    scheduler.cancel(id)
  }
}
