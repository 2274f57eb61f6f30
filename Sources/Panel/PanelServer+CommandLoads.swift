import Control
import Glibc
import Servers
import SystemIO

/// Commands whose row says `.offIOThread` (`route`): each is answered on a thread of its own
/// while its connection is suspended, so that reading a large file stalls no other request of
/// the panel. They count against the process's `RouteLoadSlots` with the control sockets'
/// loads; past them the command gets 503 and the control socket's refusal.
extension PanelServer {
  /// On libmicrohttpd's thread, once a command's body has arrived: answers it at once, or
  /// starts its thread and suspends the connection.
  func answerCommand(_ body: PendingBody, on connection: OpaquePointer?) -> Bool {
    let envelope: ControlEnvelope
    switch PanelDevices.decodeCommand(body.bytes) {
    case .refused(let response): return queue(response, on: connection)
    case .request(let decoded): envelope = decoded
    }
    guard envelope.request.definition?.delivery == .offIOThread, let connection else {
      return queue(devices.answer(envelope, device: body.device), on: connection)
    }
    let load = PanelCommandLoad()
    if let refusal = start(load, answering: envelope, device: body.device) {
      return queue(refusal, on: connection)
    }
    body.load = load
    if let response = load.suspendUnlessAnswered(connection) {
      return queue(response, on: connection)
    }
    return true
  }

  /// Takes a slot and starts the thread that answers `envelope`; the refusal to send when the
  /// panel is stopping, every slot is taken or no thread starts.
  private func start(
    _ load: PanelCommandLoad, answering envelope: ControlEnvelope, device: Int
  ) -> PanelResponse? {
    // Under the table's lock, so that `stop` either finds the load or refuses it here.
    loads.withLock { loads -> PanelResponse? in
      guard !isStopping.load(ordering: .acquiring) else {
        return .text(503, "the panel is stopping")
      }
      guard RouteLoadSlots.tryAcquire(forOwner: true) else {
        return .json(
          503,
          .refused(
            RouteLoadSlots.busyMessage(command: envelope.request.command), id: envelope.idJSON))
      }
      do {
        let thread = try SystemThread.start(name: "mockgps-load") { [devices] in
          let response = devices.answer(envelope, device: device)
          RouteLoadSlots.release(forOwner: true)
          load.finish(response)
        }
        loads[ObjectIdentifier(load)] = RunningCommandLoad(load: load, thread: thread)
        return nil
      } catch {
        RouteLoadSlots.release(forOwner: true)
        return .json(
          500, .refused("\(envelope.request.command): \(error)", id: envelope.idJSON))
      }
    }
  }

  /// The request of `load` completed (its answer sent, or its connection closed): its thread,
  /// which has stored the answer, is joined, unless `stop` took it off the table first (and
  /// let it end on its own).
  func forget(_ load: PanelCommandLoad) {
    guard let entry = loads.withLock({ $0.removeValue(forKey: ObjectIdentifier(load)) }) else {
      return
    }
    SystemThread.join(entry.thread)
  }
}

/// A command being answered on its own thread, which is joined or detached once.
struct RunningCommandLoad: Sendable {
  let load: PanelCommandLoad
  let thread: pthread_t
}
