import Glibc

/// A host and port to listen on or send to: an IPv4 or IPv6 literal, or `localhost`.
///
/// Names are not looked up beyond what `getaddrinfo` gives for a literal or `localhost`, so
/// an address never depends on DNS.
public struct InternetAddress: Hashable, Sendable, CustomStringConvertible {
  /// `127.0.0.1`, `::1` or `localhost`, as given (without the brackets of an IPv6 literal).
  public var host: String
  /// 0 asks the system for a free port (to listen on).
  public var port: UInt16

  /// An address from its parts.
  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// Why a text is not an address.
  public enum ParseError: Error, Equatable, CustomStringConvertible {
    case missingHost
    case badPort(String)
    case badHost(String)

    public var description: String {
      switch self {
      case .missingHost: return "a host is needed"
      case .badPort(let port): return "'\(port)' is not a port from 0 to 65535"
      case .badHost(let host):
        return "'\(host)' is not an IPv4 or IPv6 address or localhost"
      }
    }
  }

  /// Reads `HOST:PORT`, `[IPV6]:PORT` or, with a `defaultHost`, `PORT` alone.
  public init(parsing text: String, defaultHost: String?) throws(ParseError) {
    var hostPart: Substring?
    var portPart = Substring(text)
    if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
      hostPart = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard rest.first == ":" else { throw .badPort(String(rest)) }
      portPart = rest.dropFirst()
    } else if let colon = text.lastIndex(of: ":") {
      hostPart = text[..<colon]
      portPart = text[text.index(after: colon)...]
    }
    guard let host = hostPart.map(String.init) ?? defaultHost else { throw .missingHost }
    guard !portPart.isEmpty, portPart.allSatisfy(\.isASCII), portPart.allSatisfy(\.isNumber),
      portPart.count <= 5, let port = UInt16(portPart)
    else { throw .badPort(String(portPart)) }
    guard host == "localhost" || Self.isLiteral(host) else { throw .badHost(host) }
    self.init(host: host, port: port)
  }

  /// `127.0.0.1:2947`, `[::1]:2947`.
  public var description: String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  /// True for an IPv4 or IPv6 literal.
  static func isLiteral(_ host: String) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 16)
    return inet_pton(AF_INET, host, &buffer) == 1 || inet_pton(AF_INET6, host, &buffer) == 1
  }

  /// The socket addresses the host stands for, in the order `getaddrinfo` gives them.
  func resolve(type: Int32) throws(SystemError) -> [SocketAddress] {
    var hints = addrinfo()
    hints.ai_socktype = type
    hints.ai_flags = AI_NUMERICSERV | (host == "localhost" ? 0 : AI_NUMERICHOST)
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let list else {
      throw SystemError("resolve", path: description, errno: EADDRNOTAVAIL)
    }
    defer { freeaddrinfo(list) }
    var addresses: [SocketAddress] = []
    var next: UnsafeMutablePointer<addrinfo>? = list
    while let entry = next {
      if let address = entry.pointee.ai_addr {
        addresses.append(
          SocketAddress(
            family: entry.pointee.ai_family,
            bytes: Array(
              UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen)))))
      }
      next = entry.pointee.ai_next
    }
    return addresses
  }
}

/// A `sockaddr` as bytes, with its family.
struct SocketAddress: Sendable {
  var family: Int32
  var bytes: [UInt8]
}

/// TCP listening and accepting, UDP sending: sockets close-on-exec and non-blocking from the
/// start.
public enum InternetSocket {
  /// A TCP socket listening on `address` (the first of its addresses that binds); with port
  /// 0, `boundPort(of:)` says which free port it got.
  ///
  /// The corresponding C functions are `socket(2)`, `bind(2)` and `listen(2)`.
  public static func listen(on address: InternetAddress, backlog: Int32 = 64)
    throws(SystemError) -> FileDescriptor
  {
    var lastError = SystemError("listen", path: address.description, errno: EADDRNOTAVAIL)
    for target in try address.resolve(type: Int32(SOCK_STREAM.rawValue)) {
      do {
        let socket = try open(family: target.family, type: Int32(SOCK_STREAM.rawValue))
        let descriptor = socket.rawValue
        var yes: Int32 = 1
        _ = setsockopt(
          descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        try systemCall("listen", path: address.description) {
          target.bytes.withUnsafeBytes {
            bind(
              descriptor, $0.baseAddress?.assumingMemoryBound(to: sockaddr.self),
              socklen_t($0.count))
          }
        }
        try systemCall("listen", path: address.description) { Glibc.listen(descriptor, backlog) }
        return socket
      } catch {
        lastError = error
      }
    }
    throw lastError
  }

  /// Accepts a waiting connection on the listening socket `listener`, non-blocking and
  /// close-on-exec; nil when none is waiting (or it went away before it was accepted).
  ///
  /// The corresponding C function is `accept(2)`.
  public static func accept(from listener: Int32) throws(SystemError) -> FileDescriptor? {
    let descriptor = Glibc.accept(listener, nil, nil)
    guard descriptor >= 0 else {
      // Nothing waiting, or a connection that went away before it was taken.
      if [EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO].contains(errno) { return nil }
      throw SystemError("accept a connection", errno: errno)
    }
    let connection = FileDescriptor(owning: descriptor)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    guard (try? connection.setNonBlocking()) != nil else { return nil }
    return connection
  }

  /// A UDP socket connected to `address` (its first address), so that `send` needs no address.
  ///
  /// The corresponding C functions are `socket(2)` and `connect(2)`.
  public static func udpSender(to address: InternetAddress) throws(SystemError) -> FileDescriptor {
    guard let target = try address.resolve(type: Int32(SOCK_DGRAM.rawValue)).first else {
      throw SystemError("resolve", path: address.description, errno: EADDRNOTAVAIL)
    }
    let socket = try open(family: target.family, type: Int32(SOCK_DGRAM.rawValue))
    let descriptor = socket.rawValue
    try systemCall("connect to", path: address.description) {
      target.bytes.withUnsafeBytes {
        connect(
          descriptor, $0.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
      }
    }
    return socket
  }

  /// Sends bytes once without blocking and without SIGPIPE; may send fewer than given (a
  /// datagram goes whole or not at all).
  ///
  /// The corresponding C function is `send(2)` with `MSG_NOSIGNAL | MSG_DONTWAIT`.
  public static func send(_ bytes: ArraySlice<UInt8>, on socket: borrowing FileDescriptor)
    throws(SystemError) -> FileDescriptor.TransferResult
  {
    try send(bytes, onDescriptor: socket.rawValue)
  }

  /// `send(_:on:)` on a raw descriptor, for one held in an optional or a lock.
  public static func send(_ bytes: ArraySlice<UInt8>, onDescriptor descriptor: Int32)
    throws(SystemError) -> FileDescriptor.TransferResult
  {
    do {
      return .transferred(
        try systemCall("send") {
          bytes.withUnsafeBytes {
            Glibc.send(
              descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
          }
        })
    } catch  where error.errno == EAGAIN {
      return .wouldBlock
    }
  }

  /// A socket of `family` and `type`, close-on-exec and non-blocking.
  private static func open(family: Int32, type: Int32) throws(SystemError) -> FileDescriptor {
    let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
    return FileDescriptor(
      owning: try systemCall("create socket") { socket(family, type | flags, 0) })
  }

  /// The port a socket is bound to.
  ///
  /// The corresponding C function is `getsockname(2)`.
  public static func boundPort(of socket: borrowing FileDescriptor) throws(SystemError) -> UInt16 {
    let descriptor = socket.rawValue
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    try systemCall("read socket address") {
      withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          getsockname(descriptor, $0, &length)
        }
      }
    }
    // sin_port and sin6_port are both at offset 2, in network order.
    return withUnsafeBytes(of: storage) { UInt16($0[2]) << 8 | UInt16($0[3]) }
  }
}
