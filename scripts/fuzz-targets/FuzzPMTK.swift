import Receiver

/// The `pmtk` target: `PMTKCommand(parsing:)` on the bytes as a line, and the MediaTek handler
/// on the same line. A command that parses re-encodes to text that parses to the same command;
/// the handler answers every command it accepts: a reply and at most one setting, or for a restart
/// (PMTK101–104) the restart itself last, after the factory settings a full cold start restores.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  let line = String(decoding: bytes, as: UTF8.self)
  var handler = MTKCommandHandler(profile: pmtkProfile)
  let effects = handler.handle(.nmea(line))
  guard let command = try? PMTKCommand(parsing: line) else {
    guard effects.isEmpty else { failure("\(effects) for a line that is no command: \(line)") }
    return
  }
  guard let reparsed = try? PMTKCommand(parsing: command.text), reparsed == command else {
    failure("\(command) re-encodes to '\(command.text)', which does not parse back")
  }
  if (101...104).contains(command.number) {
    guard case .restart = effects.last, effects.count == (command.number == 104 ? 4 : 1) else {
      failure("\(effects) for the restart \(command)")
    }
    return
  }
  guard (1...2).contains(effects.count) else { failure("\(effects) for \(command)") }
}

let pmtkProfile = ReceiverProfile(
  name: "fuzz-mtk", summary: "MediaTek", commandSet: .mtk, defaultConstellations: [.gps],
  channelLimit: 22, defaultBaud: 9600,
  defaultOutput: OutputSelection(nmeaEveryEpoch: ["GGA", "GSA", "GSV", "RMC", "VTG"]))

let builtInSeeds: [[UInt8]] = [
  "$PMTK605*31", "$PMTK220,200*2C", "$PMTK300,1000,0,0,0.0,0.0*1C",
  "$PMTK314,0,1,0,1,1,5,1,1,0,0,0,0,0,0,0,0,0,1,0*2D", "$PMTK314,-1*04", "$PMTK251,38400*27",
  "$PMTK320,0*2F", "$PMTK301,2*2E", "$PMTK313,1*2E", "$PMTK424*30", "$PMTK414*33",
  "$PMTK101*32", "$PMTK104*37",
].map { Array($0.utf8) }
