/// The kinds of source an emulator runs, as the table of control commands names them: which
/// commands a source accepts is a column of `ControlCommand.all`.
public enum ControlSource: String, Hashable, Sendable, CaseIterable {
  /// A simulated receiver: a fixed position, a route or a scenario.
  case simulated
  /// A replayed log (`--replay`).
  case replay
  /// A passed-through real receiver (`--passthrough`).
  case passthrough
}
