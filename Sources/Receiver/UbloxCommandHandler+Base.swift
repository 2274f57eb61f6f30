import Geodesy
import UBX

/// The items of a u-blox 9's time mode (CFG-TMODE-*) and its RTCM station ID, read as the
/// `BaseSettings` the emulator's station runs with (`ReceiverEffect.setBase`).
extension UbloxCommandHandler {
  /// The time mode the configuration holds; `.disabled` on u-blox 8.
  var configuredBaseSettings: BaseSettings {
    guard firmware.hasConfigurationDatabase else { return BaseSettings() }
    let stationID = (value(of: UBXConfigurationKey(0x3009_0001)) ?? 0) & 0xFFF
    let mode: BaseSettings.Mode
    switch value(of: UBXConfigurationKey(0x2003_0001)) ?? 0 {
    case 1:
      mode = .surveyIn(
        minimumSeconds: value(of: UBXConfigurationKey(0x4003_0010)) ?? 0,
        accuracyLimitMeters: Double(value(of: UBXConfigurationKey(0x4003_0011)) ?? 0) / 1e4)
    case 2:
      let accuracy = Double(value(of: UBXConfigurationKey(0x4003_000F)) ?? 0) / 1e4
      mode = .fixed(configuredBasePosition, accuracyMeters: accuracy)
    default:
      mode = .disabled
    }
    return BaseSettings(mode: mode, stationID: stationID)
  }

  /// CFG-TMODE's fixed position: ECEF (cm and 0.1 mm) or, with CFG-TMODE-POS_TYPE 1, latitude
  /// and longitude (1e-7° and 1e-9°) and height above the ellipsoid (cm and 0.1 mm).
  var configuredBasePosition: EarthCenteredPosition {
    let signed32 = { (key: UInt32) in
      Double(Int32(truncatingIfNeeded: value(of: UBXConfigurationKey(key)) ?? 0))
    }
    let signed8 = { (key: UInt32) in
      Double(Int8(truncatingIfNeeded: value(of: UBXConfigurationKey(key)) ?? 0))
    }
    let coordinate = { (coarse: UInt32, fine: UInt32, coarseUnit: Double, fineUnit: Double) in
      signed32(coarse) * coarseUnit + signed8(fine) * fineUnit
    }
    if value(of: UBXConfigurationKey(0x2003_0002)) == 1 {
      return EarthCenteredPosition(
        latitude: coordinate(0x4003_0009, 0x2003_000C, 1e-7, 1e-9),
        longitude: coordinate(0x4003_000A, 0x2003_000D, 1e-7, 1e-9),
        heightAboveEllipsoidMeters: coordinate(0x4003_000B, 0x2003_000E, 0.01, 1e-4))
    }
    return EarthCenteredPosition(
      x: coordinate(0x4003_0003, 0x2003_0006, 0.01, 1e-4),
      y: coordinate(0x4003_0004, 0x2003_0007, 0.01, 1e-4),
      z: coordinate(0x4003_0005, 0x2003_0008, 0.01, 1e-4))
  }
}

extension UbloxCommandHandler {
  /// The CFG-VALSET of `baseStationItems(_:)` into RAM and the battery-backed RAM, as a
  /// client would send it: a reset (CFG-RST) keeps the station.
  public static func baseStationSetup(_ position: GeodeticPosition) -> ClientMessage {
    .ubx(UBXValueSet.frame(baseStationItems(position), layers: [.ram, .batteryBacked]))
  }

  /// The items that make a u-blox 9 a reference station at `position` (its antenna's latitude,
  /// longitude and height above the ellipsoid), as `--base` sets them: time mode with that
  /// fixed position, and RTCM 1005, the four MSM4 (1074, 1084, 1094, 1124) and 1230 on UART1 once an epoch (the
  /// integration manual's recommended base output).
  public static func baseStationItems(_ position: GeodeticPosition) -> [UBXConfigurationItem] {
    let latitude = TimeModeCoordinate(position.latitude, coarse: 1e7, fine: 1e9)
    let longitude = TimeModeCoordinate(position.longitude, coarse: 1e7, fine: 1e9)
    let height = TimeModeCoordinate(position.altitudeMeters, coarse: 100, fine: 10_000)
    let item = { (key: UInt32, value: Int64) in
      UBXConfigurationItem(key: UBXConfigurationKey(key), value: UInt64(bitPattern: value))
    }
    return [
      item(0x2003_0001, 2), item(0x2003_0002, 1), item(0x4003_0009, latitude.coarse),
      item(0x4003_000A, longitude.coarse), item(0x4003_000B, height.coarse),
      item(0x2003_000C, latitude.fine), item(0x2003_000D, longitude.fine),
      item(0x2003_000E, height.fine), item(0x4003_000F, 100),
    ] + everyEpochOnUART1(rtcm: [1005, 1074, 1084, 1094, 1124, 1230])
  }

  /// The CFG-VALSET into RAM and the battery-backed RAM that makes a u-blox 9 a moving base:
  /// RTCM 4072.0, the MSM7 of GPS, GLONASS, Galileo and BeiDou (1077, 1087, 1097, 1127) and
  /// 1230 on UART1 once an epoch, as autopilots configure a moving base (ArduPilot's u-blox
  /// driver also asks for 4072.1, which the emulator does not send); time mode stays disabled.
  public static var movingBaseSetup: ClientMessage {
    let items = everyEpochOnUART1(rtcm: [40720, 1077, 1087, 1097, 1127, 1230])
    return .ubx(UBXValueSet.frame(items, layers: [.ram, .batteryBacked]))
  }

  /// The CFG-MSGOUT items that send these RTCM 3 messages (4072.0 as 40720) on UART1 every
  /// epoch.
  static func everyEpochOnUART1(rtcm numbers: [Int]) -> [UBXConfigurationItem] {
    numbers.compactMap { number in
      UBXMessageType.rtcmOutput(number).flatMap { UBXConfigurationKey.uart1MessageRates[$0] }
    }.map { UBXConfigurationItem(key: $0, value: 1) }
  }
}

/// A coordinate as CFG-TMODE's keys hold it: a coarse `I4` and an `I1` residue, each as the
/// two's complement bits of its width.
struct TimeModeCoordinate {
  let coarse: Int64
  let fine: Int64

  init(_ value: Double, coarse coarseScale: Double, fine fineScale: Double) {
    let coarseValue = (value * coarseScale).rounded(.towardZero)
    let residue = ((value * fineScale) - coarseValue * (fineScale / coarseScale)).rounded()
    coarse = Int64(UInt32(bitPattern: Int32(clamping: Int64(coarseValue))))
    fine = Int64(UInt8(bitPattern: Int8(clamping: Int64(residue))))
  }
}
