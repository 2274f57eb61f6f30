/// GLONASS L1 and L2 code-phase biases, message 1230 (RTCM 10403.3, 3.5.17): what a base
/// station's receiver adds to its GLONASS code against its phase, for a rover to remove.
///
///     DF002 12 | DF003 12 | DF421 1 | DF001 3 | DF422 4 | DF423–DF426 16 each, as masked
///
/// With no bias in the mask the message is the empty form (4 bytes), which base stations send
/// when they have none to report.
public struct GLONASSBiases: Hashable, Sendable {
  /// The resolution of a bias, meters.
  public static let resolutionMeters = 0.02
  /// The message number.
  public static let messageNumber = 1230

  /// The reference station ID (DF003).
  public var stationID: Int
  /// True when the biases are aligned (DF421: the observations carry no bias).
  public var biasesAligned: Bool
  /// The biases of L1 C/A, L1 P, L2 C/A and L2 P in that order, meters; nil for a signal not
  /// in the mask (DF422).
  public var biasesMeters: [Double?]

  /// A message; by default the empty form.
  public init(stationID: Int, biasesAligned: Bool = false, biasesMeters: [Double?] = []) {
    self.stationID = stationID
    self.biasesAligned = biasesAligned
    self.biasesMeters = (0..<4).map { $0 < biasesMeters.count ? biasesMeters[$0] : nil }
  }

  /// The payload.
  ///
  /// - Throws: `RTCMError.valueOutOfRange` for a bias beyond ±655 m.
  public func payload() throws(RTCMError) -> [UInt8] {
    var writer = RTCMBitWriter()
    writer.append(unsigned: UInt64(Self.messageNumber), width: 12)
    writer.append(unsigned: UInt64(stationID & 0xFFF), width: 12)
    writer.append(biasesAligned)
    writer.append(unsigned: 0, width: 3)
    for bias in biasesMeters { writer.append(bias != nil) }
    for bias in biasesMeters.compactMap({ $0 }) {
      let units = (bias / Self.resolutionMeters).rounded()
      guard units.isFinite, units > -32768, units < 32768 else {
        throw .valueOutOfRange(name: "code-phase bias", value: bias)
      }
      writer.append(signed: Int64(units), width: 16)
    }
    return writer.bytes
  }

  /// Decodes a 1230 payload.
  ///
  /// - Throws: `RTCMError.unsupportedMessage` for another number, `.payloadTooShort`.
  public init(payload: [UInt8]) throws(RTCMError) {
    var reader = RTCMBitReader(payload, message: Self.messageNumber)
    let number = try reader.integer(12)
    guard number == Self.messageNumber else { throw .unsupportedMessage(number) }
    stationID = try reader.integer(12)
    biasesAligned = try reader.flag()
    _ = try reader.integer(3)
    var mask: [Bool] = []
    for _ in 0..<4 { mask.append(try reader.flag()) }
    var biases: [Double?] = []
    for present in mask {
      biases.append(present ? Double(try reader.signed(16)) * Self.resolutionMeters : nil)
    }
    biasesMeters = biases
  }
}
