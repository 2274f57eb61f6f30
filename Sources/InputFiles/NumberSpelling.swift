/// The one spelling of a number that mockgps reads wherever a person or a program writes one:
/// the command line, `mockgps ctl`, the control socket, and every file format (route, scenario,
/// almanac and config files, the headers of logs). It is JSON's grammar (RFC 8259): an optional
/// minus, an integer part without leading zeros, an optional fraction, an optional exponent.
///
/// Refused everywhere alike: hexadecimal (`0x10`), `inf`, `nan`, a plus sign (`+1`), a bare
/// point (`.5`, `5.`), a leading zero (`01`), digit separators (`1_000`, `1,5`), digits of other
/// scripts, a value beyond `Double`'s range (`1e400`), and spaces inside the text. Spaces
/// *around* a number are not the number's: where a format lays its fields out with white space
/// (JSON, XML text, a CSV cell, a YUMA line) its reader takes them away, as JSON's own
/// grammar does; an argument of the command line or of `ctl` has no such layout, so a space
/// there is refused.
public enum NumberSpelling {
  /// What makes a text that starts as a number not one: the spelling is cut short at `index`.
  package enum Flaw: Error, Hashable, Sendable {
    /// No digit where the integer part starts.
    case noDigit(index: Int)
    /// No digit after the point.
    case noFractionDigit(index: Int)
    /// No digit in the exponent.
    case noExponentDigit(index: Int)
  }

  /// The value `text` spells, or nil when it is not spelled by the grammar (or overflows).
  public static func decimal(_ text: some StringProtocol) -> Double? {
    var text = String(text)
    return text.withUTF8 { decimal(utf8: $0) }
  }

  /// `decimal(_:)` read from UTF-8 bytes; a short decimal such as a coordinate is converted
  /// without making a `String`.
  public static func decimal(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard case .success(let end) = scan(bytes, from: 0), end == bytes.count else { return nil }
    return value(ofScanned: bytes)
  }

  /// The value of text that `scan` read whole; nil when it overflows `Double`.
  package static func value(ofScanned bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    if let value = shortDecimal(bytes) { return value }
    guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else {
      return nil
    }
    return value
  }

  /// A number as messages and replies write it back: a whole number below 10^15 as an integer
  /// (`1000`, not `1000.0`), any other in Swift's shortest form that reads back the same.
  public static func text(_ value: Double) -> String {
    value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : String(value)
  }

  /// The whole number `text` spells, in `Int`'s range (see `whole(_:as:)`).
  public static func integer(_ text: some StringProtocol) -> Int? {
    whole(text, as: Int.self)
  }

  /// The whole number `text` spells without a minus (`0`, `9600`, `1e1`; not `-0`, `+1`,
  /// `09600` or `2.5`), in `T`'s range: a count, a baud, a seed.
  public static func unsignedInteger<T: FixedWidthInteger>(
    _ text: some StringProtocol, as: T.Type = Int.self
  )
    -> T?
  {
    guard text.first != "-" else { return nil }
    return whole(text, as: T.self)
  }

  /// The largest magnitude a whole number written with a fraction or an exponent may have:
  /// beyond 2^53 a `Double` no longer tells neighbouring integers apart.
  static let exactWholeLimit = 9_007_199_254_740_992.0

  /// A whole number as every reader takes it, JSON's way: any spelling of the grammar whose
  /// value is whole (`10`, `1e1`, `10.0`), as a JSON field's value is; digits alone are read
  /// exactly over `T`'s whole range (a 64-bit seed), a fraction or an exponent up to 2^53.
  public static func whole<T: FixedWidthInteger>(_ text: some StringProtocol, as: T.Type) -> T? {
    if isInteger(text) { return T(text) }
    guard let value = decimal(text), value == value.rounded(),
      value.magnitude <= exactWholeLimit
    else { return nil }
    return T(exactly: value)
  }

  /// True when `text` is an optional minus and digits alone, without leading zeros: a number
  /// that is written as an integer.
  public static func isInteger(_ text: some StringProtocol) -> Bool {
    let bytes = Array(text.utf8)
    guard case .success(let end) = scan(bytes, from: 0), end == bytes.count else { return false }
    return !bytes.contains { [0x2E, 0x65, 0x45].contains($0) }
  }

  /// Reads the grammar's longest spelling in `bytes` from `start`, which holds a minus or a
  /// digit: the index after it, or what cuts it short. A spelling may be followed by anything
  /// (`01` reads as `0`, leaving `1` to whoever reads on: JSON then finds a stray digit).
  package static func scan<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, from start: Int)
    -> Result<Int, Flaw>
  where Bytes.Index == Int {
    var index = start
    func digits() -> Int {
      let first = index
      while index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) { index += 1 }
      return index - first
    }
    if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") { index += 1 }
    if index < bytes.endIndex, bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if digits() == 0 {
      return .failure(.noDigit(index: index))
    }
    if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return .failure(.noFractionDigit(index: index)) }
    }
    if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.endIndex,
        bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { return .failure(.noExponentDigit(index: index)) }
    }
    return .success(index)
  }
}
