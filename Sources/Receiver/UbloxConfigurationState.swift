import UBX

/// What a u-blox chip holds of its configuration beyond what the emulator runs on: the current
/// (RAM) values of every CFG message, the battery-backed and flash layers CFG-CFG saves to and
/// loads from, and whether CFG-RST has stopped its GNSS.
///
/// Kept per device for the run, as a value. Four configurations of about 2 KiB each, and CFG-MSG
/// rates only for the messages the chip outputs, keep it well under 64 KiB.
struct UbloxConfigurationState: Sendable {
  /// The messages this firmware answers.
  let catalogue: UbloxConfigurationCatalogue
  /// The current values, apart from those `UbloxCommandHandler` runs on (which overwrite them
  /// when reported or saved).
  var current: UbloxConfiguration
  /// The configuration the chip powered up with: what a clear returns a layer to.
  var defaults: UbloxConfiguration
  /// Battery-backed RAM; nil until a CFG-CFG writes it.
  var batteryBacked: UbloxConfiguration?
  /// Flash (and EEPROM, SPI flash); nil until a CFG-CFG writes it.
  var flash: UbloxConfiguration?
  /// True between a CFG-RST GNSS stop and a GNSS start (or a reset that powers up).
  var gnssStopped = false

  /// The state of a chip that powered up with `defaults` (the factory values with the baud,
  /// rate and output it started with).
  init(catalogue: UbloxConfigurationCatalogue, defaults: UbloxConfiguration) {
    self.catalogue = catalogue
    current = defaults
    self.defaults = defaults
  }

  /// What a power-up loads: battery-backed RAM where written, else flash, else the defaults.
  var powerUpConfiguration: UbloxConfiguration {
    batteryBacked ?? flash ?? defaults
  }

  /// The section of a message, for copying between layers.
  func section(of type: UBXMessageType) -> UBXConfigurationSections? {
    catalogue.section(of: type)
  }

  /// Carries out CFG-CFG's clear and save on the layers `devices` names; returns the
  /// configuration its load produces from `reported` (the current configuration as reported),
  /// or nil when it loads nothing.
  mutating func store(_ command: UBXStorageCommand, reported: UbloxConfiguration)
    -> UbloxConfiguration?
  {
    let usesBatteryBacked = command.devices.contains(.batteryBackedRAM)
    let usesFlash = !command.devices.isDisjoint(with: [.flash, .eeprom, .spiFlash])
    if usesBatteryBacked {
      batteryBacked = update(batteryBacked, with: command, reported: reported)
    }
    if usesFlash { flash = update(flash, with: command, reported: reported) }
    guard !command.load.isEmpty else { return nil }
    let source = usesBatteryBacked ? batteryBacked : usesFlash ? flash : nil
    guard let source else { return nil }
    return reported.replacing(command.load, from: source, section: section(of:))
  }

  /// A layer after a command's clear, then its save.
  private func update(
    _ layer: UbloxConfiguration?, with command: UBXStorageCommand,
    reported: UbloxConfiguration
  ) -> UbloxConfiguration {
    let cleared = (layer ?? defaults).replacing(
      command.clear, from: defaults, section: section(of:))
    return cleared.replacing(command.save, from: reported, section: section(of:))
  }
}
