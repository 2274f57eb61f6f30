import InputFiles
import RouteFiles
import Testing

/// A route's field that a person wrote as a number the grammar refuses (`+48.2`, `048.2`,
/// `0x10`, `.5`) says why, in CSV, GPX and KML alike; text that is no number at all keeps the
/// short message.
@Suite struct NumberRefusalMessageTests {
  @Test func refusedSpellingsOfNumbersSayWhy() {
    let text = "lat,lon\n+48.2,11.5\n048.2,11.5\n48.2,0x1A\n.5,11.5\n48.,11.5\nabc,11.5\n"
    #expect(
      diagnostics { try parse(text, name: "r.csv") } == [
        "r.csv:2: latitude '+48.2' is not a number (no '+' sign: numbers are written as in JSON)",
        "r.csv:3: latitude '048.2' is not a number (no leading zero: numbers are written as in "
          + "JSON)",
        "r.csv:4: longitude '0x1A' is not a number (no hexadecimal: numbers are written as in "
          + "JSON)",
        "r.csv:5: latitude '.5' is not a number (a digit on each side of the point: numbers are "
          + "written as in JSON)",
        "r.csv:6: latitude '48.' is not a number (a digit on each side of the point: numbers are "
          + "written as in JSON)",
        "r.csv:7: latitude 'abc' is not a number",
      ])
    let gpx = "<gpx><wpt lat=\"48.1\" lon=\"-011.5\"/></gpx>"
    #expect(
      diagnostics { try parse(gpx, name: "r.gpx") } == [
        "r.gpx:1: longitude '-011.5' is not a number (no leading zero: numbers are written as in "
          + "JSON)"
      ])
    let kml =
      "<kml><Placemark><LineString><coordinates>+11.5,48.1 11.6,48.2</coordinates>"
      + "</LineString></Placemark></kml>"
    #expect(
      diagnostics { try parse(kml, name: "r.kml") } == [
        "r.kml:1: longitude '+11.5' is not a number (no '+' sign: numbers are written as in JSON)"
      ])
  }

  @Test func theHintIsGivenOnlyForWhatLooksLikeANumber() {
    for text in ["abc", "NaN", "inf", "+", "0x", "0xZZ", "1e", "--1", "0", "5", ""] {
      #expect(NumberSpelling.refusalHint(text) == nil, "\(text)")
    }
    #expect(NumberSpelling.refusalHint("00") == "no leading zero")
    #expect(NumberSpelling.refusalHint("-00.5") == "no leading zero")
    #expect(NumberSpelling.refusalHint(" +1e3 ") == "no '+' sign")
  }
}
