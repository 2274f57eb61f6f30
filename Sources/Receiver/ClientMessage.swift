import RTCM
import SiRF
import UBX

/// One message a client wrote to the device, as `InputDemultiplexer` frames it.
public enum ClientMessage: Hashable, Sendable {
  /// An NMEA line starting with `$` or `!`, without line ending; its checksum is not checked.
  case nmea(String)
  /// A UBX frame whose checksum matched.
  case ubx(UBXFrame)
  /// A SiRF binary frame whose checksum and end matched.
  case sirf(SiRFFrame)
  /// An RTCM 3 frame, or one whose CRC failed (a receiver reports both).
  case rtcm(RTCMFramer.Event)
}

extension ClientMessage: CustomStringConvertible {
  /// The NMEA line as written, or the UBX frame's name and payload: `UBX-MON-VER`.
  public var description: String {
    switch self {
    case .nmea(let line): return line
    case .ubx(let frame): return frame.description
    case .sirf(let frame): return frame.description
    case .rtcm(.frame(let frame)): return "RTCM \(frame.messageNumber.map(String.init) ?? "-")"
    case .rtcm(.checksumFailed(let number)):
      return "RTCM \(number.map(String.init) ?? "-") with a bad CRC"
    }
  }
}

extension ClientMessage {
  /// How many bytes the message took on the line up to the byte that completed it: a sentence
  /// with the one CR or LF that ended it (its LF after a CR is not part of it), a frame whole;
  /// nil for an RTCM frame whose CRC failed (its length is not kept).
  public var lineByteCount: Int? {
    switch self {
    case .nmea(let line): return line.utf8.count + 1
    case .ubx(let frame): return frame.bytes.count
    case .sirf(let frame): return frame.bytes.count
    case .rtcm(.frame(let frame)): return frame.bytes.count
    case .rtcm(.checksumFailed): return nil
    }
  }
}
