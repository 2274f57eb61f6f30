import Simulation

/// The `iso8601` target: `UTCInstant(iso8601:)` on the bytes as UTF-8 text.
///
/// The parser accepts one strict form, so an accepted text is the instant's `description` up to
/// two spellings: the fraction without its trailing zeros (none at all for a whole second) and
/// `+00:00` written `Z`. The description must therefore be exactly that, and parse back to the
/// same instant.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  let text = String(decoding: bytes, as: UTF8.self)
  guard let instant = try? UTCInstant(iso8601: text) else { return }
  let printed = instant.description
  var fraction = ""
  var rest = text.dropFirst(19)
  if rest.first == "." {
    rest = rest.dropFirst()
    fraction = String(rest.prefix { $0.isASCII && $0.isNumber })
    rest = rest.dropFirst(fraction.count)
  }
  while fraction.hasSuffix("0") { fraction.removeLast() }
  let expected = text.prefix(19) + (fraction.isEmpty ? "" : "." + fraction) + "Z"
  guard printed == expected, rest == "Z" || rest == "+00:00" else {
    failure("\(text.debugDescription) parses to \(printed), expected \(expected)")
  }
  guard let again = try? UTCInstant(iso8601: printed), again == instant else {
    failure("\(text.debugDescription) prints as \(printed), which does not parse back")
  }
}

let builtInSeeds: [[UInt8]] = [
  "2026-11-29T14:39:54Z", "2026-11-29T14:39:54.250Z", "1678-01-01T00:00:00.000000001Z",
  "2261-12-31T23:59:59.999999999Z", "2000-02-29T12:00:00+00:00", "1970-01-01T00:00:00Z",
  "1969-12-31T23:59:59.5Z", "2024-02-30T00:00:00Z", "2016-12-31T23:59:60Z",
  "2026-11-29T14:39:54-05:00",
].map { Array($0.utf8) }
