import InputFiles
import Replay
import RouteFiles

/// What the control protocol asks of a replay's timeline (`pause`, `resume`, `seek`): asked on
/// the I/O thread, kept here under the loop's lock, and applied by the loop's next step, which
/// is woken for it. An epoch being written when a request arrives is finished first: a
/// sentence is never cut in half on the wire.
///
/// Times are those of the requests: a seek puts the timeline at its target when it is asked,
/// and a pause holds it from then until the resume (the paused span shifts the rest of the
/// log). While paused the device is silent, as a receiver whose log stops.
package struct ReplaySteering {
  /// A seek found on the I/O thread (see `ReplaySeek`), waiting for the step.
  struct PendingSeek: @unchecked Sendable {
    // The landing's source was made for this seek and is touched by one thread at a time: it
    // is read on the I/O thread, handed over under the lock, then read by steps only.
    var landing: ReplaySeek.Landing
    /// The new timeline's start on the monotonic clock: the log's start, had it played up to
    /// the target by the time of the request.
    var startNanoseconds: Int64
    /// The UTC time the log's start would have gone out at, for `--time now`.
    var liveStartNanoseconds: Int64
    /// UTC nanoseconds a pause since the seek has held its epoch, which was read before.
    var heldNanoseconds: Int64 = 0

    /// The landing's source, handed over to the step that goes on with it.
    func handedOverSource() -> sending any ReplayEpochSource {
      nonisolated(unsafe) let source = landing.source
      return source
    }
  }

  /// Set by the step once the timeline has started (a replay may wait for its client).
  var hasStarted = false
  /// Set by the step once the replay is over.
  var hasEnded = false
  /// As asked.
  var isPaused = false
  /// When the timeline stopped: the pause, or a seek while paused (which holds at its target).
  var heldSinceNanoseconds: Int64 = 0
  /// Monotonic nanoseconds the timeline moves on by (paused spans), not yet applied.
  var shiftNanoseconds: Int64 = 0
  var seek: PendingSeek?
  /// The log time of the last epoch begun, less its pass's start: time into the log's file.
  var logOffsetNanoseconds: Int64?

  /// True while something asked applies before the next epoch begins: a pause, the span of one
  /// to shift by, or a seek (epochs are not joined to a write then, see `ReplayLoop`).
  var hasRequestPending: Bool { isPaused || shiftNanoseconds != 0 || seek != nil }
}

extension ReplayLoop {
  /// Why a control request does not apply to the replay now.
  package enum SteeringRefusal: Error, Hashable, Sendable {
    case ended
    case notPaused
    case seek(ReplaySeek.Refusal)
  }

  /// Where a seek landed, for its reply.
  package struct SeekLanding: Hashable, Sendable {
    /// The log time the timeline stands at, seconds from the log's start.
    package var targetSeconds: Double
    /// The offset of the epoch sent next, seconds into the log's file.
    package var epochSeconds: Double
    package var isPastTheEnd: Bool
  }

  /// Stops the timeline after the epoch being written; nothing more is sent until `resume`.
  /// A pause while paused changes nothing.
  package func pause() throws(SteeringRefusal) {
    let now = runtime.monotonicNanoseconds()
    try steering.withLock { steering throws(SteeringRefusal) in
      guard !steering.hasEnded else { throw .ended }
      guard !steering.isPaused else { return }
      steering.isPaused = true
      steering.heldSinceNanoseconds = now
    }
    scheduled.wake()
  }

  /// Goes on where the pause held: the rest of the log comes later by the paused span.
  package func resume() throws(SteeringRefusal) {
    let now = runtime.monotonicNanoseconds()
    let timeScale = plan.timeScale
    try steering.withLock { steering throws(SteeringRefusal) in
      guard !steering.hasEnded else { throw .ended }
      guard steering.isPaused else { throw .notPaused }
      steering.isPaused = false
      // Before the timeline starts, nothing has been held.
      guard steering.hasStarted else { return }
      let span = max(0, now - steering.heldSinceNanoseconds)
      if var seek = steering.seek {
        seek.startNanoseconds = Self.adding(seek.startNanoseconds, span)
        let held = Int64((Double(span) * timeScale).rounded())
        seek.liveStartNanoseconds = Self.adding(seek.liveStartNanoseconds, held)
        seek.heldNanoseconds = Self.adding(seek.heldNanoseconds, held)
        steering.seek = seek
      } else {
        steering.shiftNanoseconds = Self.adding(steering.shiftNanoseconds, span)
      }
    }
    scheduled.wake()
  }

  /// Finds the log's first epoch at or after `seconds` (see `ReplaySeek`) by reading the log
  /// again on the calling thread, and has the next step go on from there.
  package func seek(seconds: Double) throws(SteeringRefusal) -> SeekLanding {
    guard !steering.withLock({ $0.hasEnded }) else { throw .ended }
    let utcNow = runtime.clock.now().nanoseconds
    // The log is read again from a source of its own, so that the steps go on meanwhile.
    let restarted: (any ReplayEpochSource)?
    do {
      restarted = try source.withLock { (source) throws(InputFileError) in try source.restarted() }
    } catch {
      throw .seek(.unreadable(error))
    }
    guard let restarted else { throw .seek(.cannotRestart) }
    let landing: ReplaySeek.Landing
    do {
      landing = try ReplaySeek.land(in: restarted, atSeconds: seconds, utcNowNanoseconds: utcNow)
    } catch {
      throw .seek(error)
    }
    // The landed epoch is due once the log has been read, not before: reading it can take
    // tens of milliseconds, which would otherwise count the landed epoch late.
    let now = runtime.monotonicNanoseconds()
    let target = landing.targetNanoseconds
    let epoch = landing.epoch
    let pending = ReplaySteering.PendingSeek(
      landing: landing, startNanoseconds: now - wireNanoseconds(target),
      liveStartNanoseconds: utcNow - target)
    try steering.withLock { steering throws(SteeringRefusal) in
      guard !steering.hasEnded else { throw .ended }
      steering.seek = pending
      if steering.isPaused { steering.heldSinceNanoseconds = now }
    }
    scheduled.wake()
    let epochOffset = (epoch.offsetNanoseconds ?? target) - epoch.loopStartNanoseconds
    return SeekLanding(
      targetSeconds: Double(target) / 1e9, epochSeconds: Double(epochOffset) / 1e9,
      isPastTheEnd: landing.isPastTheEnd)
  }

  /// True while paused (as asked: the epoch being written may still be finishing).
  var isPaused: Bool { steering.withLock { $0.isPaused } }

  /// Seconds into the log's file of the last epoch begun; nil before the first.
  var logOffsetSeconds: Double? {
    steering.withLock { $0.logOffsetNanoseconds }.map { Double($0) / 1e9 }
  }
}
