import Simulation

/// The power-up sentences a restarted chip sends, and when: they lead the first epoch at or
/// after `time`.
public struct PowerUpBanner: Hashable, Sendable {
  /// When the chip is up again.
  public var time: UTCInstant
  /// The sentences, each with its CR LF.
  public var packets: [[UInt8]]

  /// Creates a banner from sentences without line ending.
  public init(time: UTCInstant, sentences: [String]) {
    self.time = time
    packets = sentences.map { Array(($0 + "\r\n").utf8) }
  }
}

extension SceneSource {
  /// Restarts the simulated chip at `time`, with the figures of its profile's family
  /// (`ReceiverProfile.restartTiming`).
  ///
  /// A restart that powers up silences the output (NMEA and binary alike) for the chip's boot,
  /// then the first epoch after it carries the profile's power-up sentences; a navigation-only
  /// restart keeps the port sending. Either way the navigation starts again when the chip is
  /// up: no fix, the satellites found one by one, until the start's time to first fix has
  /// passed (the scenarios' `coldStart` fault). A restart replaces a search still under way,
  /// and forgets the faults whose window is over and the corrections received; a survey-in
  /// starts over once the fix is back.
  public mutating func restart(_ restart: ReceiverRestart, at time: UTCInstant) {
    let timing = encoder.profile.restartTiming
    rover.reset()
    scene.faults.removeEnded(by: time)
    wireFaults.removeEnded(by: time)
    scene.faults.faults.removeAll { fault in
      if case .coldStart = fault.kind { return true }
      return false
    }
    var navigationStart = time
    if restart.powersUp {
      navigationStart = time.adding(nanoseconds: timing.powerUpNanoseconds)
      wireFaults.faults.append(
        WireFault(.silence, window: FaultWindow(from: time, until: navigationStart)))
      powerUpBanner = PowerUpBanner(
        time: navigationStart, sentences: encoder.profile.powerUpSentences)
    }
    let timeToFirstFix = timing.timeToFirstFixNanoseconds(restart.start)
    base.restart(fixFrom: navigationStart.adding(nanoseconds: timeToFirstFix))
    scene.faults.faults.append(
      FixFault(
        .coldStart(since: navigationStart, timeToFirstFixNanoseconds: timeToFirstFix),
        window: FaultWindow(from: navigationStart, nanoseconds: timeToFirstFix)))
  }

  /// The banner's packets when the epoch at `time` is the first at or after it, else none.
  func powerUpPackets(at time: UTCInstant) -> [[UInt8]] {
    guard let banner = powerUpBanner, banner.time <= time,
      time < banner.time.adding(nanoseconds: max(1, epochPeriodNanoseconds))
    else { return [] }
    return banner.packets
  }
}
