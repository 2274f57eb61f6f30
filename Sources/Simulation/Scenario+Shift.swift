extension Scenario {
  /// The same scenario moved in time so that it starts at `start`: every event keeps its
  /// offset from the start (`--time now`).
  public func shifted(toStartAt start: UTCInstant) -> Scenario {
    let offset = start.nanoseconds(since: startTime)
    var shifted = self
    shifted.startTime = start
    shifted.timeline = timeline.map { event in
      var event = event
      event.at = event.at.adding(nanoseconds: offset)
      return event
    }
    return shifted
  }
}
