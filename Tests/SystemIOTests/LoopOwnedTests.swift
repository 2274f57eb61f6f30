import Glibc
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// `IOLoop.exclusively` and `LoopOwned`: state the loop's handlers own, reached from another
/// thread only where no handler runs.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct LoopOwnedTests {
  /// The body of `exclusively` on another thread runs after the handler in progress returns,
  /// never beside it: the handler waits until the other thread has called `exclusively`, then
  /// 100 ms more, before it ends; without the exclusion the body would run in those 100 ms.
  @Test func exclusivelyWaitsOutTheRunningHandler() throws {
    let loop = try IOLoop(name: "test-io")
    try loop.start()
    defer { loop.stop() }
    let pipe = try WakePipe()
    let descriptor = pipe.readEnd.rawValue
    let owned = LoopOwned([String](), on: loop)
    let inHandler = Atomic(false)
    let calling = Atomic(false)
    let registration = try loop.add(descriptor: descriptor, events: .readable) { _ in
      IOLoopTests.readAll(descriptor)
      inHandler.store(true, ordering: .sequentiallyConsistent)
      while !calling.load(ordering: .sequentiallyConsistent) { usleep(1000) }
      usleep(100_000)
      owned.access { $0.append("handler") }
    }
    IOLoopTests.writeByte(pipe)
    #expect(IOLoopTests.wait { inHandler.load(ordering: .sequentiallyConsistent) })
    calling.store(true, ordering: .sequentiallyConsistent)
    let order = loop.exclusively { owned.access { $0 + ["body"] } }
    #expect(order == ["handler", "body"])
    loop.exclusively { loop.remove(registration) }
  }

  /// In a handler, and nested in another `exclusively`, it runs at once; `remove` inside it
  /// does not wait for the dispatch it is part of.
  @Test func exclusivelyRunsAtOnceWhereTheLoopAlreadyDispatches() throws {
    let loop = try IOLoop(name: "test-io")
    try loop.start()
    defer { loop.stop() }
    let ran = Atomic(0)
    loop.perform {
      loop.exclusively { _ = ran.add(1, ordering: .sequentiallyConsistent) }
    }
    #expect(IOLoopTests.wait { ran.load(ordering: .sequentiallyConsistent) == 1 })
    let timer = loop.addTimer(everyNanoseconds: 1_000_000_000) {}
    let nested = loop.exclusively {
      loop.exclusively {
        loop.remove(timer)
        return loop.isDispatchingHere
      }
    }
    #expect(nested)
    #expect(!loop.isDispatchingHere)
  }

  /// Outside the loop's dispatch, touching what its handlers own stops the process (debug
  /// builds, as the tests are), instead of racing them.
  @Test func touchingItOutsideTheLoopTraps() async {
    await #expect(processExitsWith: .failure) {
      let loop = try IOLoop(name: "test-io")
      let owned = LoopOwned(0, on: loop)
      owned.access { $0 += 1 }
    }
    await #expect(processExitsWith: .success) {
      let loop = try IOLoop(name: "test-io")
      let owned = LoopOwned(0, on: loop)
      loop.exclusively { owned.access { $0 += 1 } }
    }
  }
}
