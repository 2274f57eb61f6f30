/// A decoded RTCM 3 message of a type this module knows, or the number of one it does not.
public enum RTCMMessage: Hashable, Sendable {
  /// 1005 or 1006.
  case stationReference(StationReference)
  /// MSM4 or MSM7 of any system in `MSMSystem.all`.
  case msm(MSMMessage)
  /// 1230.
  case glonassBiases(GLONASSBiases)
  /// 1019.
  case gpsEphemeris(GPSEphemerisMessage)
  /// u-blox's 4072.0, a moving base's antenna (4072 of another sub-type is unsupported).
  case movingBaseReference(MovingBaseReference)
  /// A message this module does not decode (its payload is kept).
  case unsupported(number: Int, payload: [UInt8])

  /// Decodes a frame's payload by its message number.
  ///
  /// - Throws: `RTCMError.payloadTooShort` for a payload shorter than its message needs (or
  ///   than the 12-bit number), `.invalidField` for an impossible MSM cell mask.
  public init(frame: RTCMFrame) throws(RTCMError) {
    let payload = frame.payload
    guard let number = frame.messageNumber else {
      throw .payloadTooShort(message: 0, bit: 0, width: 12)
    }
    switch number {
    case 1005, 1006: self = .stationReference(try StationReference(payload: payload))
    case GLONASSBiases.messageNumber: self = .glonassBiases(try GLONASSBiases(payload: payload))
    case GPSEphemerisMessage.messageNumber:
      self = .gpsEphemeris(try GPSEphemerisMessage(payload: payload))
    case MovingBaseReference.messageNumber where MovingBaseReference.isReferencePVT(payload):
      self = .movingBaseReference(try MovingBaseReference(payload: payload))
    default:
      if MSMSystem.system(ofMessage: number) != nil {
        self = .msm(try MSMMessage(payload: payload))
      } else {
        self = .unsupported(number: number, payload: payload)
      }
    }
  }

  /// The message number.
  public var messageNumber: Int {
    switch self {
    case .stationReference(let station): return station.messageNumber
    case .msm(let message): return message.messageNumber
    case .glonassBiases: return GLONASSBiases.messageNumber
    case .gpsEphemeris: return GPSEphemerisMessage.messageNumber
    case .movingBaseReference: return MovingBaseReference.messageNumber
    case .unsupported(let number, _): return number
    }
  }

  /// The reference station ID the message carries, nil for messages without one (1019,
  /// unsupported messages).
  public var stationID: Int? {
    switch self {
    case .stationReference(let station): return station.stationID
    case .msm(let message): return message.stationID
    case .glonassBiases(let biases): return biases.stationID
    case .movingBaseReference(let base): return base.stationID
    case .gpsEphemeris, .unsupported: return nil
    }
  }

  /// The message in a frame.
  ///
  /// - Throws: `RTCMError.valueOutOfRange` when a value does not fit its field.
  public func frame() throws(RTCMError) -> RTCMFrame {
    switch self {
    case .stationReference(let station): return RTCMFrame(payload: try station.payload())
    case .msm(let message): return RTCMFrame(payload: try message.payload())
    case .glonassBiases(let biases): return RTCMFrame(payload: try biases.payload())
    case .gpsEphemeris(let ephemeris): return RTCMFrame(payload: ephemeris.payload())
    case .movingBaseReference(let base): return RTCMFrame(payload: try base.payload())
    case .unsupported(_, let payload): return RTCMFrame(payload: payload)
    }
  }
}
