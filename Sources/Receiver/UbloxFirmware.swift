import UBX

/// What a u-blox chip says about itself in MON-VER, and how its UART1 starts.
///
/// The strings are those of real firmware: a NEO-M8N with SPG 3.01 (protocol 18.00) and a
/// ZED-F9P with HPG 1.12 (protocol 27.11), as their MON-VER answers print them.
struct UbloxFirmware: Sendable {
  var version: UBXVersion
  /// True for protocol 27 and later: CFG-VALSET/VALGET are known.
  var hasConfigurationDatabase: Bool

  /// The firmware of the chip a command set stands for.
  init(commandSet: ReceiverProfile.CommandSet) {
    if commandSet == .ubloxF9 {
      version = UBXVersion(
        software: "EXT CORE 1.00 (61ce84)", hardware: "00190000",
        extensions: [
          "ROM BASE 0x118B2060", "FWVER=HPG 1.12", "PROTVER=27.11", "MOD=ZED-F9P",
          "GPS;GLO;GAL;BDS", "QZSS",
        ])
      hasConfigurationDatabase = true
    } else {
      version = UBXVersion(
        software: "ROM CORE 3.01 (107888)", hardware: "00080000",
        extensions: ["FWVER=SPG 3.01", "PROTVER=18.00", "GPS;GLO;GAL;BDS", "SBAS;IMES;QZSS"])
      hasConfigurationDatabase = false
    }
  }
}
