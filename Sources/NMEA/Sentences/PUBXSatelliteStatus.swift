/// u-blox's PUBX,03 (PUBX-SVSTATUS): every satellite tracked, with its use, position in the
/// sky, signal strength and carrier lock time.
///
///     $PUBX,03,GT{,sv,s,az,el,cno,lck}*hh
///
/// Fields: message ID `03`, the number of satellites that follow, then six fields each: the
/// satellite's number, its status (`U` used in the solution, `e` ephemeris known but not used,
/// `-` not used), azimuth and elevation (degrees, empty when unknown), C/N0 (dB-Hz) and the
/// carrier lock time (s, 0 to 64). See the u-blox 8 / M8 receiver description,
/// "PUBX-SVSTATUS (PUBX,03)". The repeated blocks are the sentence's `extraFields`, read and
/// written through `satellites`.
public struct PUBXSatelliteStatus: SentenceBody {
  /// One satellite's block.
  public struct Satellite: Hashable, Sendable {
    public var number: Int
    /// `U`, `e` or `-`.
    public var status: String
    public var azimuth: Int?
    public var elevation: Int?
    public var carrierToNoise: Int?
    public var lockSeconds: Int

    public init(
      number: Int, status: String, azimuth: Int?, elevation: Int?, carrierToNoise: Int?,
      lockSeconds: Int
    ) {
      self.number = number
      self.status = status
      self.azimuth = azimuth
      self.elevation = elevation
      self.carrierToNoise = carrierToNoise
      self.lockSeconds = lockSeconds
    }

    /// The block's six fields as u-blox writes them (`08,U,067,31,42,025`).
    var fields: [String] {
      [
        Self.digits(number, 2), status, azimuth.map { Self.digits($0, 3) } ?? "",
        elevation.map { Self.digits($0, 2) } ?? "", carrierToNoise.map { Self.digits($0, 2) } ?? "",
        Self.digits(lockSeconds, 3),
      ]
    }

    /// The block read from six fields, or nil when one is not what the message defines.
    init?(fields: ArraySlice<String>) {
      let values = Array(fields)
      guard values.count == 6, let number = Int(values[0]), let lock = Int(values[5]) else {
        return nil
      }
      func optional(_ text: String) -> Int?? { text.isEmpty ? .some(nil) : Int(text).map { $0 } }
      guard let azimuth = optional(values[2]), let elevation = optional(values[3]),
        let carrierToNoise = optional(values[4])
      else { return nil }
      self.init(
        number: number, status: values[1], azimuth: azimuth, elevation: elevation,
        carrierToNoise: carrierToNoise, lockSeconds: lock)
    }

    /// `value` with leading zeros to `width` digits (a negative value as is).
    static func digits(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return value < 0 ? text : String(repeating: "0", count: max(0, width - text.count)) + text
    }
  }

  public var talker = "P"
  public var messageID: String? = "03"
  /// How many satellite blocks follow.
  public var count: NMEADecimal?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  /// The satellite blocks; nil when the fields after the count are not whole blocks.
  public var satellites: [Satellite]? {
    get {
      guard extraFields.count % 6 == 0 else { return nil }
      var blocks: [Satellite] = []
      for start in stride(from: 0, to: extraFields.count, by: 6) {
        guard let block = Satellite(fields: extraFields[start..<start + 6]) else { return nil }
        blocks.append(block)
      }
      return blocks
    }
    set {
      let blocks = newValue ?? []
      count = NMEADecimal(integer: blocks.count)
      extraFields = blocks.flatMap(\.fields)
    }
  }

  public static let spec = SentenceSpec<PUBXSatelliteStatus>(
    type: "UBX", minimumFields: 2, standardFields: 2,
    fields: [.text(\.messageID, "message ID"), .decimal(\.count, "GT")],
    proprietaryID: "03")
}
