import SystemIO

/// What clients write, on its way to the real receiver: queued, written when the port takes
/// it, the clients held back while the queue is full.
extension PassthroughLoop {
  /// Client bytes queued for the receiver beyond which the clients' input is held back.
  static let clientQueueHighWater = 65_536
  /// Client bytes queued below which held clients are read again.
  static let clientQueueLowWater = 16_384

  /// Forwards what a client wrote to the receiver, on the I/O thread (the device's tap): what
  /// the port does not take now is queued and written when it is writable; while the queue
  /// holds `clientQueueHighWater` bytes the device stops reading its clients, whose writes
  /// then block as on a real port. The bytes are dropped (counted) only while no receiver is
  /// plugged in.
  package func clientSent(_ bytes: ArraySlice<UInt8>) {
    state.withLock { state in
      state.watcher.clientSent(bytes)
      guard !state.stopped, state.connection != nil else {
        counters.withLock { $0.clientBytesDropped += bytes.count }
        return
      }
      state.toReceiver.append(bytes)
      writeToReceiver(&state)
      if !state.clientHeld, state.toReceiver.count >= Self.clientQueueHighWater {
        state.clientHeld = true
        device.holdClientInput(true)
      }
    }
  }

  /// Writes what the port takes of the queue; watches for room while bytes remain, and reads
  /// held clients again once the queue is low.
  func writeToReceiver(_ state: inout State) {
    if !state.toReceiver.isEmpty {
      let written = receiver.write(state.toReceiver.waiting)
      state.toReceiver.removeFirst(written)
      if written > 0 { counters.withLock { $0.clientBytesForwarded += written } }
    }
    let waiting = !state.toReceiver.isEmpty
    if waiting != state.watchingWritable, let registration = state.registration {
      state.watchingWritable = waiting
      runtime.io.change(registration, events: waiting ? [.readable, .writable] : .readable)
    }
    if state.clientHeld, state.toReceiver.count < Self.clientQueueLowWater {
      state.clientHeld = false
      device.holdClientInput(false)
    }
  }

  /// Drops what waits for a receiver that went away (counted), and reads held clients again.
  func dropClientBytes(_ state: inout State) {
    let dropped = state.toReceiver.removeAll()
    if dropped > 0 { counters.withLock { $0.clientBytesDropped += dropped } }
    state.watchingWritable = false
    if state.clientHeld {
      state.clientHeld = false
      device.holdClientInput(false)
    }
  }
}
