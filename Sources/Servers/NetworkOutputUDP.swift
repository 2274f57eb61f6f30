import Synchronization
import SystemIO

/// Sends the epochs as UDP datagrams, one per sentence or binary frame, the way NMEA-over-UDP
/// senders do: a packet is never split. Sending never blocks (a datagram the socket has no
/// room for, or that the network refuses, is dropped and counted), so it is done on the
/// epoch thread.
public final class UDPOutput: Sendable {
  /// Where the datagrams go.
  public let address: InternetAddress
  private let socket: Mutex<FileDescriptor?>
  private let counters = Mutex(Statistics())

  /// Counters of the datagrams.
  public struct Statistics: Hashable, Sendable {
    public var datagramsSent = 0
    /// Datagrams the socket had no room for, or refused (nothing listening, unreachable).
    public var datagramsDropped = 0
  }

  /// Opens a socket that sends to `address`.
  ///
  /// - Throws: `SystemError` naming the address when it cannot be sent to.
  public init(address: InternetAddress) throws(SystemError) {
    self.address = address
    socket = Mutex(try InternetSocket.udpSender(to: address))
  }

  /// A copy of the counters.
  public var statistics: Statistics { counters.withLock { $0 } }

  /// Sends each packet of an epoch as one datagram.
  public func send(_ packets: [[UInt8]]) {
    var (sent, dropped) = (0, 0)
    socket.withLock { socket in
      guard let descriptor = socket?.rawValue else { return }
      for packet in packets {
        // A refusal reported for an earlier datagram fails this one's send: try once more.
        for _ in 0..<2 {
          if case .transferred = try? InternetSocket.send(packet[...], onDescriptor: descriptor) {
            sent += 1
            break
          }
        }
      }
      dropped = packets.count - sent
    }
    counters.withLock {
      $0.datagramsSent += sent
      $0.datagramsDropped += dropped
    }
  }

  /// Closes the socket; any number of times.
  public func stop() {
    _ = socket.withLock { $0.take() }
  }
}
