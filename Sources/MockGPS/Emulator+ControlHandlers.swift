import Control
import Servers

extension Emulator {
  /// What an emulator does for one control request: its reply.
  typealias ControlHandler =
    @Sendable (Emulator, ControlRequest, ControlRequester) -> ControlReply

  /// The handler of each command of `ControlCommand.all`, by name: `handle(_:from:)` finds the
  /// command's row, refuses it for a source the row does not list, and calls its handler here.
  /// A test checks that every row has one and nothing else does.
  static let controlHandlers: [String: ControlHandler] = [
    "status": { emulator, _, _ in .ok(emulator.statusFields) },
    "position": simulation,
    "velocity": simulation,
    "fix": simulation,
    "satellites": simulation,
    "dop": simulation,
    "pause": steering,
    "resume": steering,
    "seek": steering,
    "scale": simulation,
    "rate": { emulator, request, _ in
      guard case .rate(let hertz) = request else { return .refused(request.command) }
      return emulator.setRate(hertz)
    },
    "route": simulation,
    "override": { emulator, request, _ in
      guard case .override(let override) = request else { return .refused(request.command) }
      return emulator.setOverride(override)
    },
    "inject": simulation,
    "subscribe": { _, _, _ in
      .refused("subscribe needs a control connection; from Swift use addEpochListener")
    },
  ]

  /// A change of the simulated scene (`LiveControls`), or a route to drive.
  private static let simulation: ControlHandler = { emulator, request, requester in
    emulator.changeSimulation(request, from: requester)
  }

  /// `pause`, `resume` and `seek`: the replay's timeline, else the simulated scene.
  private static let steering: ControlHandler = { emulator, request, requester in
    if let replay = emulator.replayLoop { return emulator.steer(replay, request) }
    return emulator.changeSimulation(request, from: requester)
  }
}
