import Passthrough

/// The passthrough's timers, one step on the runtime's scheduler: reopening the port while the
/// receiver is away, the rate trial and the silence warning, following the client's line speed,
/// and handing a quiet receiver's gathered epoch to the listeners.
extension PassthroughLoop {
  /// Does what is due at `now` and returns when it next is: the next line check, retry or
  /// quiet hand-over, whichever comes first.
  func step(now: Int64) -> Int64? {
    state.withLock { state -> Int64? in
      guard !state.stopped else { return nil }
      reconnectIfDue(&state, now: now)
      checkTrialAndSilence(&state, now: now)
      followClientLineSpeed(&state, now: now)
      var next = state.nextLineCheckNanoseconds
      if state.epochs.isGathering {
        let quietAt = state.quietAtNanoseconds
        if now >= quietAt {
          publishGathered(&state)
        } else {
          next = min(next, quietAt)
        }
      }
      if state.connection == nil { next = min(next, state.nextRetryNanoseconds) }
      return max(next, now + 1)
    }
  }

  private func checkTrialAndSilence(_ state: inout State, now: Int64) {
    guard state.connection != nil else { return }
    if state.connection?.shouldWarnOfSilence(now: now, silenceNanoseconds: Self.silenceNanoseconds)
      == true
    {
      log.warning(
        "no GNSS data from '\(receiver.path)' in 5 s at \(baud) baud; still listening")
    }
    if let next = state.connection?.nextCandidateBaud(now: now) {
      setRealBaud(next, discardingInput: true)
    }
  }

  /// Follows the speed a client set on the device's line, as a program sets a serial port's;
  /// looks every `lineCheckNanoseconds`.
  private func followClientLineSpeed(_ state: inout State, now: Int64) {
    guard now >= state.nextLineCheckNanoseconds else { return }
    state.nextLineCheckNanoseconds = now + Self.lineCheckNanoseconds
    guard let lineBaud = (try? device.lineSettings())??.baud else { return }
    defer { state.lineBaud = lineBaud }
    guard device.hasClients, state.connection != nil, let before = state.lineBaud,
      before != lineBaud, lineBaud != baud
    else { return }
    switchBaud(to: lineBaud, because: "a client set the line to it")
  }

  /// Switches the real port and the device to `newBaud`, and says why.
  func switchBaud(to newBaud: Int, because reason: String) {
    guard newBaud != baud else { return }
    setRealBaud(newBaud)
    device.setBaud(newBaud)
    counters.withLock { $0.baudChanges += 1 }
    log.info("receiver '\(receiver.path)' switched to \(newBaud) baud: \(reason)")
  }

  private func setRealBaud(_ newBaud: Int, discardingInput: Bool = false) {
    if !receiver.setBaud(newBaud, discardingInput: discardingInput) {
      log.debug("cannot set '\(receiver.path)' to \(newBaud) baud")
    }
    counters.withLock { $0.baud = newBaud }
  }
}
