import InputFiles
import Testing

/// One table of spellings: what the command line, `ctl` and the control socket accept as a
/// number, and what each of them refuses alike.
@Suite struct NumberSpellingTests {
  static let accepted: [(String, Double)] = [
    ("0", 0), ("-0", 0), ("16", 16), ("12.5", 12.5), ("-3.25", -3.25), ("1e1", 10), ("1E-2", 0.01),
    ("-3.25e+2", -325), ("0.5", 0.5),
  ]
  static let refused = [
    "0x10", "inf", "-inf", "nan", "+1", " 1", "1 ", ".5", "5.", "01", "1e", "1e+", "", "-", "1,5",
    "1_000", "٣", "1e400", "--1", "0x1p4",
  ]

  @Test func theGrammarTakesJSONNumbersAndNothingElse() {
    for (text, value) in Self.accepted {
      #expect(NumberSpelling.decimal(text) == value, "\(text)")
    }
    for text in Self.refused {
      #expect(NumberSpelling.decimal(text) == nil, "'\(text)' was taken for a number")
    }
  }

  @Test func integersAreTheSpellingsWithoutFractionOrExponent() {
    #expect(NumberSpelling.isInteger("16"))
    #expect(NumberSpelling.isInteger("-7"))
    #expect(!NumberSpelling.isInteger("1e1"))
    #expect(!NumberSpelling.isInteger("1.0"))
    #expect(!NumberSpelling.isInteger("0x10"))
  }

  /// A whole number (a count, a baud, a seed, a satellite count) is whole in any spelling, as
  /// a JSON field's value is: `ctl subscribe --count 1e0`, `run --seed 1e1` and the socket's
  /// `"used":1e1` read alike. Digits alone are exact over the type's range; a fraction or an
  /// exponent only where a Double tells integers apart (up to 2^53).
  @Test func wholeNumbersAreWholeInAnySpelling() {
    #expect(NumberSpelling.integer("1e1") == 10)
    #expect(NumberSpelling.integer("-20.0") == -20)
    #expect(NumberSpelling.integer("2.5") == nil)
    #expect(NumberSpelling.integer("0x10") == nil)
    #expect(NumberSpelling.unsignedInteger("1e0") == 1)
    #expect(NumberSpelling.unsignedInteger("-1") == nil)
    #expect(NumberSpelling.unsignedInteger("-0") == nil)
    #expect(NumberSpelling.unsignedInteger("18446744073709551615", as: UInt64.self) == .max)
    #expect(NumberSpelling.unsignedInteger("9007199254740992.0", as: UInt64.self) == 1 << 53)
    #expect(NumberSpelling.unsignedInteger("1e16", as: UInt64.self) == nil)
    #expect(NumberSpelling.unsignedInteger("1e3", as: UInt8.self) == nil)
  }
}
