/// One row of the table of control commands (`ControlCommand.all`): everything mockgps knows of
/// a command but what an emulator does for it, which is its handler, found by `name`
/// (`Emulator.controlHandlers`).
///
/// The table is the one place a command is named: the request decoder, `mockgps ctl`'s
/// arguments and help, and the refusals of a source that does not take the command read it;
/// tests check the README's table, the completions and the panel against it. A new command is
/// one row here (with its `ControlRequest` case) and its handler.
public struct ControlCommand: Sendable {
  /// When and where the control server answers a request.
  public enum Delivery: Hashable, Sendable {
    /// At once, on the I/O thread.
    case now
    /// On a thread of its own: the request reads a file, which may take seconds that no other
    /// client or device waits for.
    case offIOThread
    /// The server itself: the connection gets one line per epoch from then on.
    case subscription
  }

  /// The name `cmd` gives.
  public let name: String
  /// A request line that shows the command's fields (the README's table shows it).
  public let example: String
  /// How `mockgps ctl` spells it after its name.
  public let syntax: ControlCommandSyntax
  /// What it does, as `mockgps ctl --help` says it: one or more lines of at most 60 columns.
  public let help: [String]
  /// The sources that take it; the others refuse it (`refusal(on:)`).
  public let sources: Set<ControlSource>
  /// False for a command that only reads (`status`, `subscribe`).
  public let changesReceiver: Bool
  /// When the server answers it.
  public let delivery: Delivery
  /// The request a line's fields make.
  let decode: @Sendable (ControlRequestFields) throws(ControlRequestError) -> ControlRequest

  /// Creates a row; `decode` reads the request's fields (and refuses unknown ones).
  init(
    _ name: String, example: String, syntax: ControlCommandSyntax, help: [String],
    sources: Set<ControlSource>, changesReceiver: Bool = true, delivery: Delivery = .now,
    decode:
      @escaping @Sendable (ControlRequestFields) throws(ControlRequestError) ->
      ControlRequest
  ) {
    self.name = name
    self.example = example
    self.syntax = syntax
    self.help = help
    self.sources = sources
    self.changesReceiver = changesReceiver
    self.delivery = delivery
    self.decode = decode
  }

  /// The row of the command `cmd` names, or nil for an unknown one.
  public static func named(_ name: String) -> ControlCommand? {
    byName[name]
  }

  /// The rows by name.
  private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

  /// Every command's name, in the table's order.
  public static var names: [String] { all.map(\.name) }

  /// The words `ctl` shows before the description in its help: `route FILE [--speed M/S]
  /// [--loop]`.
  public var usage: String {
    syntax.usage.isEmpty ? name : "\(name) \(syntax.usage)"
  }
}

extension ControlRequest {
  /// The row of the table of this request's command.
  public var definition: ControlCommand? { ControlCommand.named(command) }
}
