/// Where a device's bytes go: the pseudo-terminal today, network clients and a recorder later.
///
/// One writer per device calls it, so paced bursts, replies to commands and overrun accounting
/// all pass through one place.
public protocol ByteSink: Sendable {
  /// Whether `byteCount` bytes, a whole epoch or reply, may be written now.
  func admit(byteCount: Int) -> SinkAdmission
  /// Writes bytes admitted before; false when they could not all be written.
  func write(_ bytes: ArraySlice<UInt8>) -> Bool
}

/// What a sink says to bytes offered to it.
public enum SinkAdmission: Hashable, Sendable {
  /// Write them.
  case accepted
  /// Nobody reads the sink now; real receivers send anyway, the bytes are lost.
  case noReader
  /// The reader has not taken what was sent before: drop the whole packet group, as a UART
  /// overrun does.
  case overrun
}
