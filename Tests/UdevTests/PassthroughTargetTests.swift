import Testing
import Udev

@Suite struct PassthroughTargetTests {
  @Test(arguments: [
    ("/dev/ttyACM0", PassthroughTarget.path("/dev/ttyACM0")),
    ("auto", .auto(.anyKnownReceiver)),
    ("auto:1546:01A8", .auto(.ids(vendorID: "1546", productID: "01a8"))),
    ("auto:067b:2303", .auto(.ids(vendorID: "067b", productID: "2303"))),
    ("auto:0001", .auto(.serialNumber("0001"))),
    ("auto:1546:01a", .auto(.serialNumber("1546:01a"))),
    ("auto:A5XK3RJT", .auto(.serialNumber("A5XK3RJT"))),
    ("autoexec", .path("autoexec")),
    ("./gps", .path("./gps")),
  ])
  func parses(text: String, expected: PassthroughTarget) throws {
    #expect(try PassthroughTarget(parsing: text) == expected)
  }

  @Test(arguments: ["", "auto:"])
  func refusesEmptyValues(text: String) {
    #expect(throws: PassthroughTarget.ParseError.self) { try PassthroughTarget(parsing: text) }
  }

  @Test func describesItselfAsWritten() throws {
    #expect(try PassthroughTarget(parsing: "auto:1546:01A8").description == "auto:1546:01a8")
    #expect(try PassthroughTarget(parsing: "auto:0001").description == "auto:0001")
  }
}

@Suite struct ReceiverCriterionTests {
  static func device(
    _ node: String, _ ids: String? = nil, vendor: String? = nil, model: String? = nil,
    serial: String? = nil
  ) -> SerialDeviceInfo {
    var usb: [String: String] = [:]
    if let ids {
      let parts = ids.split(separator: ":").map(String.init)
      usb = ["idVendor": parts[0], "idProduct": parts[1]]
      usb["manufacturer"] = vendor
      usb["product"] = model
      usb["serial"] = serial
    }
    guard let info = SerialDeviceInfo(properties: ["DEVNAME": node], usbAttributes: usb) else {
      preconditionFailure("\(node) is no /dev node")
    }
    return info
  }

  static let console = device("/dev/ttyS0")
  static let ublox = device(
    "/dev/ttyACM0", "1546:01a8", vendor: "u-blox AG - www.u-blox.com",
    model: "u-blox GNSS receiver", serial: "0001")
  static let ublox7 = device("/dev/ttyACM1", "1546:01a7", vendor: "u-blox AG", serial: "0002")
  static let bu353 = device(
    "/dev/ttyUSB0", "067b:2303", vendor: "Prolific Technology Inc.",
    model: "USB-Serial Controller")
  static let ftdi = device("/dev/ttyUSB1", "0403:6001", vendor: "FTDI", serial: "A5XK3RJT")

  @Test func autoPicksTheSingleGNSSReceiverBeforeAnyBridge() throws {
    let devices = [Self.console, Self.bu353, Self.ublox]
    #expect(try ReceiverCriterion.anyKnownReceiver.select(from: devices).get() == Self.ublox)
    #expect(ReceiverCriterion.anyKnownReceiver.selectionNote(for: Self.ublox) == nil)
  }

  @Test func autoPicksTheSingleBridgeWhenNoReceiverIsKnownAndSaysSo() throws {
    let picked = try ReceiverCriterion.anyKnownReceiver.select(from: [Self.console, Self.bu353])
      .get()
    #expect(picked == Self.bu353)
    #expect(
      ReceiverCriterion.anyKnownReceiver.selectionNote(for: picked)
        == "--passthrough auto: no known GNSS receiver; using the only USB-serial bridge, "
        + "/dev/ttyUSB0 (067b:2303 Prolific Technology Inc. USB-Serial Controller) "
        + "(GPS pucks such as the BU-353 are built on one)")
  }

  @Test func autoWithNothingListsWhatWasFound() {
    let result = ReceiverCriterion.anyKnownReceiver.select(from: [Self.console])
    #expect(
      result.failureDescription
        == "--passthrough auto: no GNSS receiver found; serial devices: none with USB IDs, "
        + "1 others (consoles, UARTs)")
    #expect(
      ReceiverCriterion.anyKnownReceiver.select(from: []).failureDescription
        == "--passthrough auto: no GNSS receiver found; no serial devices at all")
  }

  @Test func autoWithSeveralReceiversOrSeveralBridgesNamesThem() {
    let receivers = ReceiverCriterion.anyKnownReceiver.select(from: [
      Self.ublox, Self.ublox7, Self.bu353,
    ])
    #expect(
      receivers.failureDescription
        == "--passthrough auto: 2 match: /dev/ttyACM0 (1546:01a8 u-blox AG - www.u-blox.com "
        + "u-blox GNSS receiver, serial 0001), /dev/ttyACM1 (1546:01a7 u-blox AG, serial 0002); "
        + "pick one with auto:VID:PID or auto:SERIAL")
    let bridges = ReceiverCriterion.anyKnownReceiver.select(from: [Self.bu353, Self.ftdi])
    #expect(
      bridges.failureDescription
        == "--passthrough auto: 2 match: /dev/ttyUSB0 (067b:2303 Prolific Technology Inc. "
        + "USB-Serial Controller), /dev/ttyUSB1 (0403:6001 FTDI, serial A5XK3RJT); "
        + "pick one with auto:VID:PID or auto:SERIAL")
  }

  @Test func idsAndSerialNumbersMatchDevicesOfAnyKind() throws {
    let devices = [Self.console, Self.ublox, Self.bu353, Self.ftdi]
    #expect(
      try ReceiverCriterion.ids(vendorID: "067b", productID: "2303").select(from: devices).get()
        == Self.bu353)
    #expect(try ReceiverCriterion.serialNumber("A5XK3RJT").select(from: devices).get() == Self.ftdi)
    #expect(
      ReceiverCriterion.serialNumber("A5XK3RJT").selectionNote(for: Self.ftdi) == nil)
    #expect(
      ReceiverCriterion.ids(vendorID: "1546", productID: "01a9").select(from: devices)
        .failureDescription
        == "--passthrough auto:1546:01a9: no device 1546:01a9 found; serial devices: "
        + "/dev/ttyACM0 (1546:01a8 u-blox AG - www.u-blox.com u-blox GNSS receiver, "
        + "serial 0001), /dev/ttyUSB0 (067b:2303 Prolific Technology Inc. USB-Serial "
        + "Controller), /dev/ttyUSB1 (0403:6001 FTDI, serial A5XK3RJT), 1 without USB IDs "
        + "(consoles, UARTs)")
    #expect(
      ReceiverCriterion.serialNumber("nope").select(from: devices).failureDescription?
        .hasPrefix("--passthrough auto:nope: no device with serial number 'nope' found; ") == true)
  }

  @Test func selectsFromThisMachinesRealDevices() throws {
    let devices = try UdevEnumerator.serialDevices()
    let result = ReceiverCriterion.anyKnownReceiver.select(from: devices)
    let receivers = devices.filter { $0.kind == .gnssReceiver }
    let bridges = devices.filter { $0.kind == .usbSerialBridge }
    switch result {
    case .success(let device):
      #expect(receivers == [device] || receivers.isEmpty && bridges == [device])
    case .failure(let error):
      #expect(receivers.count != 1 && (!receivers.isEmpty || bridges.count != 1))
      #expect(error.found == devices)
      #expect(!error.description.contains("\n"))
      // This machine (a container without udevd) has consoles only: they are counted.
      if devices.allSatisfy({ $0.vendorID == nil }) {
        #expect(error.description.hasSuffix("\(devices.count) others (consoles, UARTs)"))
      }
    }
  }
}

extension Result where Failure == ReceiverSelectionError {
  fileprivate var failureDescription: String? {
    guard case .failure(let error) = self else { return nil }
    return error.description
  }
}

@Suite struct UdevMonitorTests {
  @Test func startsOrSaysWhyAndReturnsAtOnceWithNothingPending() {
    do {
      let monitor = try UdevMonitor()
      #expect(monitor.descriptor >= 0)
      #expect(monitor.source == "udev" || monitor.source == "kernel")
      let clock = ContinuousClock()
      let start = clock.now
      #expect(monitor.receive().isEmpty)
      #expect(clock.now - start < .milliseconds(100))
    } catch {
      #expect(error.description.hasPrefix("libudev: udev_monitor_"))
    }
  }
}
