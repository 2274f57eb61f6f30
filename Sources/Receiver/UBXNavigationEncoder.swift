import GNSSMeasurements
import Geodesy
import Simulation
import UBX

/// Writes a fix as the UBX navigation messages a u-blox chip sends each epoch.
///
/// Every message of an epoch comes from one `UBXNavigationSolution` made from the fix the NMEA
/// sentences of that epoch report, so NMEA and UBX agree. Accuracy estimates are the DOPs times
/// `rangeErrorMeters`, the same one-sigma range error for every satellite, or times the range
/// error of the corrections the fix used (`CorrectionUse`).
public struct UBXNavigationEncoder: Sendable {
  /// The order a u-blox chip sends its NAV messages in within an epoch: NAV-PVT first (as in
  /// gpsd's `ublox-neo-m8n.log` and `ublox-zed-f9p-hp.log`), NAV-EOE last.
  public static let messageOrder: [UBXMessageType] = [
    .navPVT, .navPOSECEF, .navPOSLLH, .navHPPOSLLH, .navSTATUS, .navDOP, .navSOL, .navVELECEF,
    .navVELNED, .navRELPOSNED, .navSVIN,
    .navSAT, .navSVINFO, .navSIG, .navORB, .navTIMEGPS, .navTIMEUTC, .navCLOCK, .navEOE,
  ]
  /// The one-sigma user range error behind the accuracy estimates, meters.
  public static let rangeErrorMeters = 2.5
  /// What a chip without a solution reports as its accuracy, meters (`U4` millimeters, all ones).
  static let unknownAccuracyMeters = Double(UInt32.max) / 1000

  /// The chip whose messages these are.
  public var profile: ReceiverProfile
  /// RXM-RAWX and RXM-SFRBX from the sky's orbits, for a chip that has them (nil: none).
  public var rawMeasurements: UBXRawMeasurementEncoder?
  /// The signals tracked per system, as the NMEA dialect's GSV signal IDs name them (the
  /// profile's at power-up; `ReceiverEncoder.write(dialect:)` keeps them current): NAV-SIG lists
  /// them (`+Signals`).
  public var signals: [Constellation: [Int?]] {
    didSet { measuredSignals = Self.measuredSignals(of: signals) }
  }
  /// The signals RXM-RAWX measures per system, kept with `signals` (`+Signals`).
  public private(set) var measuredSignals: [Constellation: [GNSSSignal]]
  /// What the chip's ports have received, as the command handler counts it
  /// (`ReceiverEffect.setPortTraffic`): the periodic MON-COMMS reports it.
  public var portTraffic = UBXPortTraffic()

  /// Creates an encoder for a profile's chip.
  public init(profile: ReceiverProfile) {
    self.profile = profile
    signals = profile.dialect.signalIDs
    measuredSignals = Self.measuredSignals(of: profile.dialect.signalIDs)
  }

  /// The frames of the epoch with this index, for the UBX messages `output` switches on: the
  /// NAV messages of the fix, then the MON messages of the chip's front end
  /// (`UbloxMonitor.periodicMessages`, MON-COMMS with `portTraffic`), built as a poll builds
  /// them.
  public func frames(for fix: Fix, output: OutputSelection, epochIndex: Int) -> [UBXFrame] {
    // Every UBX message goes out at a rate `output.ubx` holds: none, nothing to look up.
    guard !output.ubx.isEmpty else { return [] }
    let due = navigationMessages.filter { output.sends(ubx: $0, epochIndex: epochIndex) }
    let monitorDue = UbloxMonitor.periodicMessages.filter {
      output.sends(ubx: $0, epochIndex: epochIndex)
    }
    var frames: [UBXFrame] = []
    if !due.isEmpty {
      let solution = Self.solution(for: fix)
      frames = due.compactMap { frame($0, of: solution) }
    }
    if !monitorDue.isEmpty, [.ubloxM8, .ubloxF9].contains(profile.commandSet) {
      var monitor = UbloxMonitor(profile: profile)
      monitor.traffic = portTraffic
      let firmware = UbloxFirmware(commandSet: profile.commandSet)
      frames += monitorDue.compactMap { monitor.frame($0, firmware: firmware) }
    }
    if let rawMeasurements {
      frames += rawMeasurements.frames(
        for: fix, output: output, epochIndex: epochIndex, signals: measuredSignals)
    }
    return frames
  }

  /// The solution of a fix: its time on the GPS scale, heights, velocities, accuracies, sky.
  public static func solution(for fix: Fix) -> UBXNavigationSolution {
    let gpsTime = GPSTime(fix.time)
    let civil = fix.time.civil
    let heightAboveEllipsoid = fix.position.altitudeMeters + fix.geoidSeparationMeters
    let ecef = EarthCenteredPosition(
      latitude: fix.position.latitude, longitude: fix.position.longitude,
      heightAboveEllipsoidMeters: heightAboveEllipsoid)
    let motion = UbloxVelocity(fix: fix)
    let hasFix = fix.mode != .noFix
    let dop = fix.dop.map(Self.dop) ?? .unknown
    let corrections = hasFix ? fix.corrections : nil
    let sigma = corrections?.rangeErrorMeters ?? rangeErrorMeters
    let accuracy = { (dilution: Double) in hasFix ? dilution * sigma : unknownAccuracyMeters }
    let speedAccuracy = hasFix ? 0.1 * dop.position : 20
    var solution = UBXNavigationSolution(
      gpsWeek: gpsTime.week, nanosecondsOfWeek: gpsTime.nanosecondsOfWeek,
      leapSeconds: gpsTime.leapSeconds,
      utc: .init(
        year: civil.year, month: civil.month, day: civil.day, hour: civil.hour,
        minute: civil.minute, second: civil.second, nanosecond: civil.nanosecond),
      fixType: fixType(fix.mode), isDifferential: hasFix && fix.correction != .none,
      latitude: fix.position.latitude, longitude: fix.position.longitude,
      heightAboveEllipsoidMeters: heightAboveEllipsoid,
      heightAboveMeanSeaLevelMeters: fix.position.altitudeMeters,
      velocityNED: motion.northEastDown, groundSpeedMetersPerSecond: fix.speedMetersPerSecond,
      headingDegrees: fix.courseDegrees,
      positionECEF: .init(x: ecef.x, y: ecef.y, z: ecef.z), velocityECEF: motion.earthCentered,
      horizontalAccuracyMeters: accuracy(dop.horizontal),
      verticalAccuracyMeters: accuracy(dop.vertical),
      positionAccuracyMeters: accuracy(dop.position), speedAccuracyMetersPerSecond: speedAccuracy,
      headingAccuracyDegrees: motion.headingAccuracyDegrees(speedAccuracy: speedAccuracy),
      timeAccuracyNanoseconds: hasFix ? dop.time * sigma / 0.299_792_458 : 1e9, dop: dop,
      satellites: fix.satellites.map { satellite($0, hasFix: hasFix) })
    if hasFix { solution.carrierSolution = carrierSolution(fix.correction) }
    let moving = hasFix ? fix.movingBaseline : nil
    solution.relativePosition = (moving?.corrections ?? corrections).map { use in
      let heading = LocalTangentFrame.direction(east: use.east, north: use.north, up: 0)
      // A moving base's vector has the accuracy of its own solution, the position keeps its own.
      let relativeAccuracy = { (dilution: Double) in dilution * use.rangeErrorMeters }
      return UBXNavigationSolution.RelativePosition(
        stationID: use.stationID, correctionAgeSeconds: use.ageSeconds,
        northEastDown: .init(x: use.north, y: use.east, z: use.down),
        headingDegrees: heading.azimuthDegrees,
        accuracy: .init(
          x: relativeAccuracy(dop.north), y: relativeAccuracy(dop.east),
          z: relativeAccuracy(dop.vertical)),
        carrierSolution: carrierSolution(moving?.level ?? fix.correction),
        isMoving: moving != nil)
    }
    solution.relativePosition?.referencePositionMissed = moving?.positionMissed ?? false
    solution.relativePosition?.referenceObservationsMissed = moving?.observationsMissed ?? false
    solution.survey = fix.base.map { base in
      UBXNavigationSolution.Survey(
        durationSeconds: base.surveySeconds,
        mean: .init(x: base.mean.x, y: base.mean.y, z: base.mean.z),
        meanAccuracyMeters: base.meanAccuracyMeters, observations: base.observations,
        isValid: base.isValid, isActive: base.isActive)
    }
    return solution
  }

  /// NAV-PVT's `carrSoln` of a fix's corrections.
  static func carrierSolution(_ correction: Fix.Correction) -> UBXNavigationSolution.CarrierSolution
  {
    switch correction {
    case .none, .differential: return .none
    case .rtkFloat: return .float
    case .rtkFixed: return .fixed
    }
  }

  static func fixType(_ mode: Fix.Mode) -> UBXNavigationSolution.FixType {
    switch mode {
    case .noFix: return .noFix
    case .twoDimensional: return .twoDimensional
    case .threeDimensional: return .threeDimensional
    }
  }

  static func dop(_ dop: DilutionOfPrecision) -> UBXNavigationSolution.DOP {
    UBXNavigationSolution.DOP(
      geometric: (dop.position * dop.position + dop.time * dop.time).squareRoot(),
      position: dop.position, time: dop.time, vertical: dop.vertical, horizontal: dop.horizontal,
      north: dop.north, east: dop.east)
  }

  /// A satellite in u-blox terms: `gnssId` from its constellation, `svId` its number; used
  /// only while there is a fix, so that NAV-PVT's count, NAV-SAT, NAV-SVINFO and NAV-SIG all
  /// drop their used flags when it is lost.
  static func satellite(_ satellite: SatelliteInView, hasFix: Bool) -> UBXSatellite {
    UBXSatellite(
      system: system(satellite.constellation), number: satellite.id,
      carrierToNoise: satellite.snr ?? 0,
      elevationDegrees: satellite.elevation, azimuthDegrees: satellite.azimuth,
      isUsed: hasFix && satellite.isUsed, frequencyID: frequencyID(of: satellite))
  }

  /// The u-blox `freqId` of a satellite (NAV-SIG, RXM-RAWX, RXM-SFRBX): its GLONASS frequency
  /// channel plus 7, 0 for the other systems and for a slot without a published channel.
  static func frequencyID(of satellite: SatelliteInView) -> UInt8 {
    frequencyID(of: satellite.constellation, number: satellite.id)
  }

  /// The u-blox `freqId` of satellite `number` of `constellation`.
  static func frequencyID(of constellation: Constellation, number: Int) -> UInt8 {
    guard constellation == .glonass, let channel = GLONASSChannels.channel(ofSlot: number)
    else { return 0 }
    return UInt8(channel + 7)
  }

  /// The u-blox `gnssId` of a constellation.
  static func system(_ constellation: Constellation) -> UBXSatellite.System {
    switch constellation {
    case .gps: return .gps
    case .glonass: return .glonass
    case .galileo: return .galileo
    case .beidou: return .beidou
    case .sbas: return .sbas
    }
  }
}
