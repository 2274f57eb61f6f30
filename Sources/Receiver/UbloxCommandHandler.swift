import Simulation
import UBX

/// A u-blox 8 or 9 chip answering the UBX a client writes to UART1: MON-VER, CFG-PRT,
/// CFG-MSG, CFG-RATE and, on u-blox 9, CFG-VALSET, CFG-VALGET and CFG-VALDEL on the whole
/// configuration database (`+ConfigurationDatabase`, `+ConfigurationLayers`).
///
/// Each CFG message is answered with ACK-ACK, or ACK-NAK when the chip would refuse it (wrong
/// length, another port, a rate or baud it cannot do, an unknown CFG message). Messages of other
/// classes get no answer, as on the chip; of NMEA lines, the PUBX,40 and PUBX,41 commands take
/// effect unacknowledged (`+PUBX`). The acknowledgement goes out before
/// the change takes effect, so a new baud starts after the ACK.
public struct UbloxCommandHandler: ReceiverCommandHandler {
  /// The chip.
  public let profile: ReceiverProfile
  let firmware: UbloxFirmware
  /// What UART1 sends, as configured so far.
  public internal(set) var output: OutputSelection
  /// UART1's line speed.
  public internal(set) var baud: Int
  /// The measurement and navigation rate.
  public internal(set) var rate: UBXNavigationRate
  /// Every other CFG value, the non-volatile layers and the GNSS state (`+Configuration`).
  var configurationState: UbloxConfigurationState
  /// u-blox 9's configuration layers beyond the state above (`+ConfigurationDatabase`).
  var configurationDatabase: UbloxConfigurationDatabase
  /// What the MON messages report (`+Polls`).
  var monitor: UbloxMonitor
  /// How many commands have written the battery-backed RAM or flash (`+NonVolatileState`).
  public internal(set) var nonVolatileWrites = 0
  /// CFG messages NAK'd for their length since `takeInputFaults()`.
  var inputFaults: [UBXInputFault] = []
  /// Stored items a power-up left out since `takeRefusedItems()`: from a state file
  /// (`+NonVolatileState`), or a reset or CFG-CFG load from the layers (`+ConfigurationLayers`).
  var refusedItems: [ChipStateError] = []

  /// A chip in its power-up state at `baud` (the profile's default when nil) and a measurement
  /// period of `periodMilliseconds`, with the profile's output for that baud, tracking
  /// `constellations` (the profile's when nil; `+TrackedSystems`).
  public init(
    profile: ReceiverProfile, baud: Int? = nil, periodMilliseconds: Int = 1000,
    constellations: Set<Constellation>? = nil
  ) {
    self.profile = profile
    firmware = UbloxFirmware(commandSet: profile.commandSet)
    let baud = baud ?? profile.defaultBaud
    self.baud = baud
    output = profile.defaultOutput(baud: baud)
    rate = UBXNavigationRate(
      measurementPeriodMilliseconds: periodMilliseconds, measurementsPerEpoch: 1)
    let catalogue = UbloxConfigurationCatalogue(firmware: firmware)
    configurationState = UbloxConfigurationState(
      catalogue: catalogue,
      defaults: Self.overlay(catalogue.factoryConfiguration, baud: baud, rate: rate, output: output)
    )
    configurationDatabase = UbloxConfigurationDatabase(
      powerUpOutput: output, baud: baud, rate: rate)
    monitor = UbloxMonitor(profile: profile)
    if let constellations, constellations != profile.defaultConstellations {
      startTracking(constellations)
    }
  }

  /// UART1's configuration as CFG-PRT reports it.
  public var port: UBXPortConfiguration {
    let uart1 = UInt16(UBXPortConfiguration.uart1)
    return reported(.cfgPRT, instance: uart1).flatMap(UBXPortConfiguration.init(payload:))
      ?? UBXPortConfiguration(baud: baud, inProtocols: [.ubx, .nmea], outProtocols: [])
  }

  /// CFG messages configure the chip (`+Configuration`, and `+ConfigurationDatabase` for the
  /// keys of u-blox 9); every other class is polled (`+Polls`).
  /// NMEA lines are PUBX commands or ignored (`+PUBX`). A protocol UART1 does not take in is
  /// ignored (`+InputProtocols`).
  public mutating func handle(_ message: ClientMessage) -> [ReceiverEffect] {
    guard takesInput(message) else { return [] }
    monitor.note(received: message)
    var effects: [ReceiverEffect]
    switch message {
    case .ubx(let frame): effects = handle(frame)
    case .nmea(let line): effects = handle(nmea: line)
    case .sirf: effects = []
    case .rtcm(let event): effects = handle(rtcm: event)
    }
    if rate(of: .monCOMMS) > 0 { effects.append(.setPortTraffic(monitor.traffic)) }
    return effects
  }

  /// Answers one UBX frame; a CFG message that changes how NMEA is written or the systems
  /// tracked also switches the dialect and retracks the sky (`+NMEAConfiguration`,
  /// `+TrackedSystems`); MON-GNSS then reports the systems enabled.
  mutating func handle(_ frame: UBXFrame) -> [ReceiverEffect] {
    guard frame.messageClass == UBXMessageType.configurationClass else { return poll(frame) }
    let (dialect, systems, prns) = (configuredDialect, configuredSystems, searchedSBASPRNs)
    var effects: [ReceiverEffect]
    if firmware.hasConfigurationDatabase {
      noteConfigurationMessage(frame.messageType)
      let (rover, base) = (configuredRoverSettings, configuredBaseSettings)
      effects = frame.messageType == .cfgVALDEL ? deleteValues(frame) : configure(frame)
      if configuredRoverSettings != rover { effects.append(.setRover(configuredRoverSettings)) }
      if configuredBaseSettings != base { effects.append(.setBase(configuredBaseSettings)) }
    } else {
      effects = configure(frame)
    }
    let (newDialect, newSystems, newPRNs) =
      (configuredDialect, configuredSystems, searchedSBASPRNs)
    if newSystems != systems { monitor.gnss.enabled = UbloxMonitor.systems(newSystems) }
    if newDialect != dialect { effects.append(.setDialect(newDialect)) }
    if newDialect != dialect || newSystems != systems || newPRNs != prns {
      effects.append(.setTracking(newSystems, sbasPRNs: newPRNs))
    }
    return effects
  }

  /// The cadence of a navigation rate, or nil outside what `CadencePlan` offers.
  static func plan(_ rate: UBXNavigationRate) -> CadencePlan? {
    rate.epochsPerSecond.flatMap { try? CadencePlan(rateHz: $0) }
  }

  /// The UART1 rate of a message: NMEA sentences by type, UBX messages by class and ID.
  func rate(of type: UBXMessageType) -> Int {
    if let sentence = type.nmeaSentence { return output.nmea[sentence] ?? 0 }
    return output.ubx[type] ?? 0
  }

  /// The output with one message's rate changed.
  func output(setting type: UBXMessageType, to newRate: Int) -> OutputSelection {
    Self.output(output, setting: type, to: newRate)
  }

  /// `output` with one message's rate changed: an NMEA sentence by type, a UBX message by class
  /// and ID; an NMEA ID this emulator does not send changes nothing.
  static func output(_ output: OutputSelection, setting type: UBXMessageType, to rate: Int)
    -> OutputSelection
  {
    var changed = output
    if let sentence = type.nmeaSentence {
      changed.nmea[sentence] = rate
    } else if type.messageClass != UBXMessageType.nmeaStandardClass {
      changed.ubx[type] = rate
    }
    return changed
  }

  /// Takes a new output; the effect only when it differs.
  mutating func apply(output changed: OutputSelection) -> [ReceiverEffect] {
    guard changed != output else { return [] }
    output = changed
    return [.setOutput(changed)]
  }

  /// Takes a new baud; the effect only when it differs.
  mutating func apply(baud pacing: BytePacing) -> [ReceiverEffect] {
    guard pacing.baud != baud else { return [] }
    baud = pacing.baud
    return [.setBaud(pacing)]
  }

  public mutating func noteLineTraffic(receivedBytes: Int, skippedBytes: Int, sentBytes: Int) {
    monitor.noteLine(receivedBytes: receivedBytes, skippedBytes: skippedBytes, sentBytes: sentBytes)
  }

  public mutating func takeInputFaults() -> [UBXInputFault] {
    defer { inputFaults.removeAll() }
    return inputFaults
  }

  /// ACK-NAK for a refused setting; a wrong length is noted as an input fault.
  mutating func refuse(_ frame: UBXFrame, because error: UBXConfigurationError)
    -> [ReceiverEffect]
  {
    if case .wrongLength(_, let count) = error {
      inputFaults.append(UBXInputFault(type: frame.messageType, kind: .wrongLength(count: count)))
    }
    return Self.refuse(frame)
  }

  static func acknowledge(_ frame: UBXFrame) -> ReceiverEffect {
    .reply(UBXAcknowledgement.acknowledge(frame.messageType).bytes)
  }

  static func refuse(_ frame: UBXFrame) -> [ReceiverEffect] {
    [.reply(UBXAcknowledgement.refuse(frame.messageType).bytes)]
  }
}
