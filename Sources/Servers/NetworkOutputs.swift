import DeviceRuntime
import Synchronization
import SystemIO

/// An emulator's network outputs (`--tcp`, `--udp`), fed from its epoch listeners: each epoch
/// as it falls due, whole, whether or not a client has the serial device open.
package final class NetworkOutputs: Sendable {
  package let tcp: TCPOutput?
  package let udp: UDPOutput?
  /// The epoch listener feeding the outputs, while there is one.
  private let listener = Mutex<(EpochListeners, EpochListeners.Token)?>(nil)

  /// Opens what `--tcp` and `--udp` ask for; nil when they ask for nothing.
  ///
  /// - Throws: `SystemError` naming the address that cannot be listened on or sent to.
  package init?(
    tcp tcpAddress: InternetAddress?, udp udpAddress: InternetAddress?, io: IOLoop, log: Log
  ) throws(SystemError) {
    guard tcpAddress != nil || udpAddress != nil else { return nil }
    tcp = try tcpAddress.map { (address) throws(SystemError) in
      try TCPOutput(address: address, io: io, log: log)
    }
    do {
      udp = try udpAddress.map { (address) throws(SystemError) in
        try UDPOutput(address: address)
      }
    } catch {
      tcp?.stop()
      throw error
    }
  }

  /// Starts accepting TCP clients and listens to the epochs.
  package func start(listeners epochListeners: EpochListeners?) throws(SystemError) {
    try tcp?.start()
    guard let epochListeners else { return }
    let (tcp, udp) = (tcp, udp)
    let token = epochListeners.add { epoch in
      if let tcp { tcp.send(epoch.bytes) }
      udp?.send(epoch.packets)
    }
    listener.withLock { $0 = (epochListeners, token) }
  }

  /// Stops listening to the epochs and closes the outputs; any number of times.
  package func stop() {
    if let (listeners, token) = listener.withLock({ $0.take() }) { listeners.remove(token) }
    tcp?.stop()
    udp?.stop()
  }
}
