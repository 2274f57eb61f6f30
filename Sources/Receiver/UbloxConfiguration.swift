import UBX

/// A u-blox chip's configuration as values: for each CFG message and instance (a port, a time
/// pulse, a protocol, or for CFG-MSG the message `class << 8 | id`), the payload a poll returns.
///
/// The current (RAM) configuration and the battery-backed and flash layers are each one of
/// these. The fields the emulator runs on (UART1's baud and output protocols, UART1's message
/// rates, the navigation rate) are kept by `UbloxCommandHandler` and written into a copy when
/// it is reported or saved.
struct UbloxConfiguration: Hashable, Sendable {
  /// One stored value's name.
  struct Slot: Hashable, Sendable {
    var type: UBXMessageType
    var instance: UInt16
  }

  /// The stored values.
  private(set) var values: [Slot: [UInt8]] = [:]

  /// The value of a message and instance; setting nil removes it.
  subscript(type: UBXMessageType, instance: UInt16) -> [UInt8]? {
    get { values[Slot(type: type, instance: instance)] }
    set { values[Slot(type: type, instance: instance)] = newValue }
  }

  /// The instances stored for a message, in order.
  func instances(of type: UBXMessageType) -> [UInt16] {
    values.keys.filter { $0.type == type }.map(\.instance).sorted()
  }

  /// This configuration with the values of the messages in `sections` taken from `source`.
  ///
  /// - Parameter section: the section of each message (messages with none are never copied).
  func replacing(
    _ sections: UBXConfigurationSections, from source: UbloxConfiguration,
    section: (UBXMessageType) -> UBXConfigurationSections?
  ) -> UbloxConfiguration {
    guard !sections.isEmpty else { return self }
    func inSections(_ slot: Slot) -> Bool {
      section(slot.type).map { !$0.isDisjoint(with: sections) } ?? false
    }
    var copy = self
    copy.values = values.filter { !inSections($0.key) }
    for (slot, value) in source.values where inSections(slot) { copy.values[slot] = value }
    return copy
  }
}
