import UBX

/// What a u-blox chip says about itself: MON-VER and the `GNTXT` banner it prints at power-up,
/// both from one definition so that they name the same firmware, and how its UART1 starts.
///
/// The strings are those of real firmware: a NEO-M8N with SPG 3.01 (ROM CORE 3.01, protocol
/// 18.00, as its MON-VER reads in ubxtool's and gpsd's reports of such modules), and a ZED-F9P
/// with HPG 1.32 (protocol 27.31). The banner repeats MON-VER's hardware and extension strings
/// between u-blox's header and the antenna supervisor's status, as the chips print it.
struct UbloxFirmware: Sendable {
  var version: UBXVersion
  /// True for protocol 27 and later: CFG-VALSET/VALGET are known.
  var hasConfigurationDatabase: Bool
  /// Messages of `UbloxOutputMessages` this firmware does not have, whose CFG-MSG it refuses
  /// and which it neither sends nor answers: u-blox 9 dropped NAV-SOL and NAV-SVINFO (gpsd's
  /// `driver_ubx.c` notes both); u-blox 8's protocol 18 has none of u-blox 9's NAV-HPPOSLLH,
  /// NAV-SIG and MON-RF, MON-COMMS, nor NAV-RELPOSNED (the M8P's protocol 20).
  var missingMessages: Set<UBXMessageType>
  /// The chip's name in the banner's `HW` line (`UBX-M8030`, `UBX 9`).
  var chipName: String
  /// True when the banner prints the software version (u-blox 8's `ROM CORE 3.01 (107888)`);
  /// u-blox 9 prints its `ROM BASE` extension instead.
  var bannerShowsSoftware: Bool
  /// The banner's last lines: the GNSS in OTP and the antenna supervisor's state.
  var bannerTrailer: [String]

  /// The firmware of the chip a command set stands for.
  init(commandSet: ReceiverProfile.CommandSet) {
    self = commandSet == .ubloxF9 ? .hpg132 : .spg301
  }

  private init(
    version: UBXVersion, hasConfigurationDatabase: Bool, missingMessages: Set<UBXMessageType>,
    chipName: String, bannerShowsSoftware: Bool, bannerTrailer: [String]
  ) {
    self.version = version
    self.hasConfigurationDatabase = hasConfigurationDatabase
    self.missingMessages = missingMessages
    self.chipName = chipName
    self.bannerShowsSoftware = bannerShowsSoftware
    self.bannerTrailer = bannerTrailer
  }

  /// u-blox M8 SPG 3.01, protocol 18.00 (NEO-M8N).
  static let spg301 = UbloxFirmware(
    version: UBXVersion(
      software: "ROM CORE 3.01 (107888)", hardware: "00080000",
      extensions: ["FWVER=SPG 3.01", "PROTVER=18.00", "GPS;GLO;GAL;BDS", "SBAS;IMES;QZSS"]),
    hasConfigurationDatabase: false,
    missingMessages: [.navHPPOSLLH, .navSIG, .navRELPOSNED, .navSVIN, .monRF, .monCOMMS],
    chipName: "UBX-M8030",
    bannerShowsSoftware: true,
    bannerTrailer: [
      "GNSS OTP=GPS;GLO", "ANTSUPERV=AC SD PDoS SR", "ANTSTATUS=OK", "PF=3FF",
    ])

  /// u-blox 9 HPG 1.32, protocol 27.31 (ZED-F9P).
  static let hpg132 = UbloxFirmware(
    version: UBXVersion(
      software: "EXT CORE 1.00 (f4c834)", hardware: "00190000",
      extensions: [
        "ROM BASE 0x118B2060", "FWVER=HPG 1.32", "PROTVER=27.31", "MOD=ZED-F9P",
        "GPS;GLO;GAL;BDS", "SBAS;QZSS",
      ]),
    hasConfigurationDatabase: true, missingMessages: [.navSOL, .navSVINFO], chipName: "UBX 9",
    bannerShowsSoftware: false,
    bannerTrailer: ["ANTSUPERV=", "ANTSTATUS=DONTKNOW", "PF=3FF"])

  /// The text of the power-up banner, one `GNTXT` notice per line: header, hardware, the
  /// software (u-blox 8), MON-VER's extensions, then the trailer.
  var bannerLines: [String] {
    ["u-blox AG - www.u-blox.com", "HW \(chipName) \(version.hardware)"]
      + (bannerShowsSoftware ? [version.software] : []) + version.extensions + bannerTrailer
  }
}
