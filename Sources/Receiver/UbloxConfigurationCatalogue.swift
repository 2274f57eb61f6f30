import UBX

/// The CFG messages a u-blox chip answers: for each, its protocol row (lengths, polls,
/// instances, section, field ranges), the firmware that has it, and its factory value.
///
/// The u-blox M8 column is SPG 3.01 (protocol 18.00) of the u-blox 8 / M8 receiver description
/// (UBX-13003221): the messages of the standard precision products. Messages of other u-blox 8
/// products (CFG-HNR and the sensor messages of ADR/UDR, CFG-TMODE2 of timing, CFG-DGNSS and
/// CFG-TMODE3 of high precision, CFG-SLAS from protocol 19.20, CFG-BATCH from 23.01) are
/// refused by it, as by the real module. The u-blox 9 column is the legacy CFG messages the
/// ZED-F9P interface description (HPG 1.11) still lists beside the configuration database;
/// it takes the M8's factory values except where its own row gives them.
struct UbloxConfigurationCatalogue: Sendable {
  /// The firmware families this emulator models.
  enum Family: Hashable, Sendable {
    /// u-blox M8, SPG 3.01.
    case m8
    /// u-blox 9 ZED-F9P, HPG 1.11.
    case f9
  }

  /// One CFG message.
  struct Entry: Sendable {
    /// The protocol row.
    var spec: UBXConfigurationMessageSpec
    /// The firmware that answers it.
    var families: Set<Family>
    /// The factory value of each instance (instance 0 for a message without instances).
    var defaults: [UInt8: [UInt8]]
  }

  /// The entries of one family.
  let entries: [UBXMessageType: Entry]
  /// The family.
  let family: Family

  /// The catalogue of the firmware of `firmware`.
  init(firmware: UbloxFirmware) {
    let family: Family = firmware.hasConfigurationDatabase ? .f9 : .m8
    self.family = family
    var entries: [UBXMessageType: Entry] = [:]
    for entry in Self.all where entry.families.contains(family) {
      entries[entry.spec.type] = entry
    }
    if family == .f9 {
      entries[.cfgNAVX5] = Self.navigationExpertF9
      // Every port takes UBX, NMEA and RTCM 3 in (u-blox 9 has no RTCM 2 input).
      for (port, block) in entries[.cfgPRT]?.defaults ?? [:] {
        guard var configuration = UBXPortConfiguration(payload: block) else { continue }
        configuration.inProtocols = [.ubx, .nmea, .rtcm3]
        if port == UBXPortConfiguration.uart1 { configuration.baud = 38_400 }
        entries[.cfgPRT]?.defaults[port] = configuration.frame.payload
      }
    }
    self.entries = entries
  }

  /// How many major systems the chip tracks at once: three on the u-blox M8, four on the F9.
  var majorSystemLimit: Int { family == .m8 ? 3 : 4 }

  /// The section of a message for CFG-CFG, or nil for one the chip does not store.
  func section(of type: UBXMessageType) -> UBXConfigurationSections? {
    entries[type]?.spec.section
  }

  /// The factory configuration: every message's default value.
  var factoryConfiguration: UbloxConfiguration {
    var configuration = UbloxConfiguration()
    for (type, entry) in entries {
      for (instance, value) in entry.defaults {
        configuration[type, UInt16(instance)] = value
      }
    }
    return configuration
  }
}
