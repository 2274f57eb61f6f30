import DeviceRuntime
import Glibc
import Passthrough
import Replay
import SystemIO
import Udev

/// The real receiver's side, on the I/O thread: reading the port, forwarding what it sends,
/// losing it and opening it again.
extension PassthroughLoop {
  /// Registers the open port on the I/O thread, readable (and writable while client bytes
  /// wait).
  func watchReceiver(_ state: inout State) {
    guard state.registration == nil, let descriptor = receiver.rawDescriptor else { return }
    state.watchingWritable = !state.toReceiver.isEmpty
    let events: Poll.Events = state.watchingWritable ? [.readable, .writable] : .readable
    do {
      state.registration = try runtime.io.add(descriptor: descriptor, events: events) {
        [self] events in receiverReady(events)
      }
    } catch {
      log.warning("cannot watch '\(receiver.path)': \(error); opening it again")
      lose(&state)
    }
  }

  /// The I/O thread's handler of the port: writes what waits, reads what came.
  private func receiverReady(_ events: Poll.Events) {
    state.withLock { state in
      guard !state.stopped, state.connection != nil else { return }
      if events.contains(.writable) { writeToReceiver(&state) }
      guard state.connection != nil else { return }
      if !events.intersection([.readable, .hangUp, .error]).isEmpty {
        readReceiver(&state, events: events)
      }
      if state.epochs.isGathering, let task = state.task {
        runtime.scheduler.wake(task, at: state.quietAtNanoseconds)
      }
    }
  }

  private func readReceiver(_ state: inout State, events: Poll.Events) {
    for _ in 0..<Self.readsPerWake {
      switch receiver.read(into: &state.buffer) {
      case .bytes(let count):
        let chunk = Array(state.buffer[..<count])
        forward(chunk[...], &state)
        if state.connection == nil { return }
      case .nothing:
        if !events.intersection([.hangUp, .error]).isEmpty { lose(&state) }
        return
      case .lost:
        lose(&state)
        return
      }
    }
  }

  private func forward(_ chunk: ArraySlice<UInt8>, _ state: inout State) {
    if state.connection?.noteReceived(chunk) == true, fixedBaud == nil {
      log.info("receiver '\(receiver.path)' sends GNSS data at \(baud) baud")
      device.setBaud(baud)
    }
    guard state.connection?.isFindingBaud != true else {
      counters.withLock { $0.bytesBeforeData += chunk.count }
      return
    }
    let now = runtime.clock.now()
    let (output, unrewritten, overriding) = rewriter.withLock {
      ($0.forward(chunk, at: now), $0.statistics.unrewrittenPositionFrames, $0.override.name)
    }
    // Written before anything else is done with them: the latency a passthrough adds.
    let dropped = output.count - transmitter.writeNow(output)
    let carried = self.now() + Self.lineNanoseconds(of: chunk.count, baud: baud)
    state.lineCarriedNanoseconds = max(state.lineCarriedNanoseconds, carried)
    let closed = state.epochs.add(output)
    if !closed.isEmpty {
      // What this chunk lost is the tail of what it carried: the epoch it begins.
      for packets in closed { account(packets, &state) }
      for packets in closed { publish(packets) }
    }
    state.bytesDroppedInEpoch += dropped
    if unrewritten > 0, !state.warnedOfUnrewritten, overriding != "off" {
      state.warnedOfUnrewritten = true
      log.info(
        "receiver '\(receiver.path)' sends positions in a binary protocol mockgps does not "
          + "rewrite (SiRF, TSIP…): they pass unrewritten")
    }
    if let newBaud = state.watcher.receiverSent(chunk) {
      switchBaud(to: newBaud, because: "the receiver acknowledged a client's command")
    }
  }

  /// Counts an epoch closed: sent when none of the bytes forwarded since the last one was
  /// dropped, else without a client or cut (the client's queue was full).
  private func account(_ packets: [[UInt8]], _ state: inout State) {
    let dropped = state.bytesDroppedInEpoch
    state.bytesDroppedInEpoch = 0
    let hasClients = device.hasClients
    transmitter.count { counters in
      counters.epochsDue += 1
      if dropped == 0 {
        counters.epochsSent += 1
        counters.packetsSent += packets.count
      } else if hasClients {
        counters.burstsCut += 1
      } else {
        counters.epochsWithoutClient += 1
      }
    }
  }

  /// Hands the epoch being gathered to the listeners.
  func publishGathered(_ state: inout State) {
    guard let packets = state.epochs.flush() else { return }
    account(packets, &state)
    publish(packets)
  }

  private func publish(_ packets: [[UInt8]]) {
    listeners.notify(DueEpoch(time: runtime.clock.now(), packets: packets, fix: nil))
  }

  /// The receiver went away: closes its port and drops what clients wrote for it.
  func lose(_ state: inout State) {
    // On the I/O thread, or before the port was watched: nothing to wait for.
    if let registration = state.registration { runtime.io.remove(registration) }
    state.registration = nil
    receiver.disconnect()
    dropClientBytes(&state)
    rewriter.withLock { $0.receiverLost() }
    publishGathered(&state)
    state.epochs = StreamEpochGrouper()
    let now = now()
    state.connection = nil
    state.lostNanoseconds = now
    state.nextRetryNanoseconds = now
    counters.withLock { $0.receiverLosses += 1 }
    log.info("receiver '\(receiver.path)' went away; the link stays up")
    if let task = state.task { runtime.scheduler.wake(task) }
  }

  /// Has the port opened again when a retry is due, on the I/O thread: finding the receiver
  /// (`auto` enumerates the serial devices) and opening it take longer than a step of the
  /// scheduler's, whose thread sends the other devices' epochs on time.
  func reconnectIfDue(_ state: inout State, now: Int64) {
    guard state.connection == nil, !state.reconnectQueued, now >= state.nextRetryNanoseconds
    else { return }
    state.nextRetryNanoseconds = now + Self.retryNanoseconds
    state.reconnectQueued = true
    runtime.io.perform { [self] in
      self.state.withLock { state in
        state.reconnectQueued = false
        guard !state.stopped, state.connection == nil else { return }
        reconnect(&state)
      }
    }
  }

  /// Opens the port again; when it opens, watches it.
  private func reconnect(_ state: inout State) {
    let baud = self.baud
    do {
      try receiver.connect(baud: baud)
    } catch {
      if case .foreignTerminal = error, !state.warnedOfForeignTerminal {
        state.warnedOfForeignTerminal = true
        log.warning("\(error)")
      }
      return
    }
    let now = now()
    state.warnedOfForeignTerminal = false
    state.connection = PassthroughConnection(now: now, candidateIndex: candidateIndex(of: baud))
    counters.withLock { $0.reconnections += 1 }
    let away = now - (state.lostNanoseconds ?? now)
    state.lostNanoseconds = nil
    log.info("receiver '\(receiver.path)' is back (after \(Self.seconds(away)) s)")
    watchReceiver(&state)
  }

  /// Hotplug events, on the I/O thread: the receiver's node removed is a loss; a tty added
  /// makes the next retry due now.
  func handle(_ events: [UdevMonitor.Event]) {
    state.withLock { state in
      guard !state.stopped else { return }
      let path = receiver.path
      for event in events {
        switch event.action {
        case .remove where state.connection != nil && Self.sameNode(event.deviceNode, path):
          lose(&state)
        case .add:
          state.nextRetryNanoseconds = 0
          if let task = state.task { runtime.scheduler.wake(task) }
        default:
          continue
        }
      }
    }
  }

  /// True when `node` is `path` or what `path` links to.
  private static func sameNode(_ node: String?, _ path: String) -> Bool {
    guard let node else { return false }
    if node == path { return true }
    guard let resolved = realpath(path, nil) else { return false }
    defer { free(resolved) }
    return String(cString: resolved) == node
  }
}
