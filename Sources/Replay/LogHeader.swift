import InputFiles

/// The headers of a gpsd test log (`# Serial: 38400 8N1`, `# Transport: UDP`,
/// `# Delay-Cookie: | 0.01`, `# Date: 2013-11-03`) or of a mockgps recording, gathered from its
/// comment lines.
public struct LogHeader: Hashable, Sendable {
  /// `# Serial: BAUD 8N1`: the line the log was recorded on.
  public struct Serial: Hashable, Sendable, CustomStringConvertible {
    public var baud: Int
    public var dataBits: Int
    /// `N`, `O` or `E`.
    public var parity: Character
    public var stopBits: Int

    public init(baud: Int, dataBits: Int = 8, parity: Character = "N", stopBits: Int = 1) {
      self.baud = baud
      self.dataBits = dataBits
      self.parity = parity
      self.stopBits = stopBits
    }

    /// `9600 8N1`.
    public var description: String { "\(baud) \(dataBits)\(parity)\(stopBits)" }
  }

  /// How gpsd's test framework delivers the log.
  public enum Transport: String, Hashable, Sendable {
    case pty, udp, tcp
  }

  /// `# Delay-Cookie: | 0.01`: the log is cut at each delimiter, with a pause between pieces.
  public struct DelayCookie: Hashable, Sendable {
    public var delimiter: [UInt8]
    public var delaySeconds: Double

    public init(delimiter: [UInt8], delaySeconds: Double) {
      self.delimiter = delimiter
      self.delaySeconds = delaySeconds
    }
  }

  /// `# Date: yyyy-mm-dd`: the day of a log whose sentences carry the time of day only.
  public struct Day: Hashable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
      self.year = year
      self.month = month
      self.day = day
    }
  }

  public var serial: Serial?
  public var transport: Transport = .pty
  public var delayCookie: DelayCookie?
  public var date: Day?
  /// True for a mockgps recording.
  public var isRecording = false

  /// Creates an empty header.
  public init() {}

  /// Takes what a comment line says. Returns nil for a remark or a header understood, else
  /// what is wrong with a header it knows (`# Serial: fast` → "expected '# Serial: BAUD 8N1'").
  public mutating func read(comment: some Collection<UInt8>) -> String? {
    var text = String(decoding: comment, as: UTF8.self)
    while let last = text.last, last.isNewline || last == " " { text.removeLast() }
    if text == RecordingFormat.magic {
      isRecording = true
      return nil
    }
    guard text.hasPrefix("#") else { return nil }
    let body = text.dropFirst().drop(while: { $0 == " " })
    guard let colon = body.firstIndex(of: ":") else { return nil }
    let name = body[..<colon]
    let words = body[body.index(after: colon)...].split(separator: " ")
    switch name {
    case "Serial":
      guard words.count == 2, let baud = NumberSpelling.unsignedInteger(words[0]), baud > 0,
        let serial = Self.framing(baud: baud, words[1])
      else { return "expected '# Serial: BAUD 8N1' (7 or 8 bits, N, O or E, 1 or 2 stop bits)" }
      self.serial = serial
    case "Transport":
      guard words.count == 1, let transport = Transport(rawValue: words[0].lowercased()) else {
        return "expected '# Transport: PTY', 'UDP' or 'TCP'"
      }
      self.transport = transport
    case "Delay-Cookie":
      guard words.count == 2, let delay = NumberSpelling.decimal(words[1]), delay >= 0,
        delay <= 3600
      else {
        return "expected '# Delay-Cookie: DELIMITER SECONDS'"
      }
      delayCookie = DelayCookie(delimiter: Array(words[0].utf8), delaySeconds: delay)
    case "Date":
      let parts = words.first?.split(separator: "-") ?? []
      guard words.count == 1, parts.count == 3, let year = Int(parts[0]),
        let month = Int(parts[1]), let day = Int(parts[2]), (1980...2200).contains(year),
        (1...12).contains(month), (1...31).contains(day)
      else { return "expected '# Date: YYYY-MM-DD'" }
      date = Day(year: year, month: month, day: day)
    default:
      return nil
    }
    return nil
  }

  private static func framing(baud: Int, _ text: Substring) -> Serial? {
    let characters = Array(text)
    guard characters.count == 3, let bits = characters[0].wholeNumberValue, bits == 7 || bits == 8,
      "NOE".contains(characters[1]), let stop = characters[2].wholeNumberValue,
      stop == 1 || stop == 2
    else { return nil }
    return Serial(baud: baud, dataBits: bits, parity: characters[1], stopBits: stop)
  }
}
