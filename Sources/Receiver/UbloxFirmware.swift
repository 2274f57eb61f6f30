import UBX

/// What a u-blox chip says about itself in MON-VER, and how its UART1 starts.
///
/// The strings are those of real firmware: a NEO-M8N with SPG 3.01 (protocol 18.00), and the
/// ZED-F9P with HPG 1.11 (protocol 27.10) whose MON-VER heads gpsd's `ublox-zed-f9p-hp.log`.
struct UbloxFirmware: Sendable {
  var version: UBXVersion
  /// True for protocol 27 and later: CFG-VALSET/VALGET are known.
  var hasConfigurationDatabase: Bool
  /// Messages the firmware no longer has, whose CFG-MSG it refuses: u-blox 9 dropped NAV-SOL
  /// and NAV-SVINFO (gpsd's `driver_ubx.c` notes both).
  var removedMessages: Set<UBXMessageType>

  /// The firmware of the chip a command set stands for.
  init(commandSet: ReceiverProfile.CommandSet) {
    if commandSet == .ubloxF9 {
      version = UBXVersion(
        software: "EXT CORE 1.00 (94e56e)", hardware: "00190000",
        extensions: [
          "ROM BASE 0xDD3FE36C", "FWVER=HPG 1.11", "PROTVER=27.10", "MOD=ZED-F9P",
          "GPS;GLO;GAL;BDS", "QZSS",
        ])
      hasConfigurationDatabase = true
      removedMessages = [.navSOL, .navSVINFO]
    } else {
      version = UBXVersion(
        software: "ROM CORE 3.01 (107888)", hardware: "00080000",
        extensions: ["FWVER=SPG 3.01", "PROTVER=18.00", "GPS;GLO;GAL;BDS", "SBAS;IMES;QZSS"])
      hasConfigurationDatabase = false
      removedMessages = []
    }
  }
}
