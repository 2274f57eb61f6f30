import Foundation
import Testing
import Udev

@Suite struct SerialDeviceInfoTests {
  @Test func readsTheIDsUdevdFillsIn() throws {
    let info = try #require(
      SerialDeviceInfo(properties: [
        "DEVNAME": "/dev/ttyACM0", "ID_VENDOR_ID": "1546", "ID_MODEL_ID": "01a8",
        "ID_VENDOR": "u-blox_AG_-_www.u-blox.com", "ID_MODEL": "u-blox_GNSS_receiver",
        "ID_SERIAL_SHORT": "0001", "ID_USB_DRIVER": "cdc_acm",
      ]))
    #expect(info.deviceNode == "/dev/ttyACM0")
    #expect(info.vendorID == "1546")
    #expect(info.productID == "01a8")
    #expect(info.vendor == "u-blox AG - www.u-blox.com")
    #expect(info.model == "u-blox GNSS receiver")
    #expect(info.driver == "cdc_acm")
    #expect(info.kind == .gnssReceiver)
  }

  @Test func fallsBackToTheUSBParentsSysfsAttributesWithoutUdevd() throws {
    let info = try #require(
      SerialDeviceInfo(
        properties: ["DEVNAME": "/dev/ttyUSB0", "SUBSYSTEM": "tty"],
        usbAttributes: [
          "idVendor": "067B", "idProduct": "2303", "product": "USB-Serial Controller",
        ]))
    #expect(info.vendorID == "067b")
    #expect(info.model == "USB-Serial Controller")
    #expect(info.kind == .usbSerialBridge)
  }

  @Test(arguments: [["SUBSYSTEM": "tty"], ["DEVNAME": "ttyS0"]])
  func aDeviceWithoutADevNodeIsNotListed(properties: [String: String]) {
    #expect(SerialDeviceInfo(properties: properties) == nil)
  }

  @Test func malformedIDsAreIgnored() throws {
    let info = try #require(
      SerialDeviceInfo(properties: [
        "DEVNAME": "/dev/ttyS0", "ID_VENDOR_ID": "12345", "ID_MODEL_ID": "zz",
      ]))
    #expect(info.vendorID == nil)
    #expect(info.productID == nil)
    #expect(info.kind == .unknown)
  }

  @Test func theUdevRulesFileListsEveryKnownID() throws {
    let rules = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("udev/60-mockgps-receivers.rules"), encoding: .utf8)
    let ruleLines = rules.split(separator: "\n").filter { $0.hasPrefix("ATTRS") }
    #expect(ruleLines.count == ReceiverKind.knownIDs.count)
    for known in ReceiverKind.knownIDs {
      let line = ruleLines.first {
        $0.contains(
          "ATTRS{idVendor}==\"\(known.vendorID)\", ATTRS{idProduct}==\"\(known.productID)\"")
      }
      #expect(line != nil, "\(known.name) missing from the rules")
      #expect(line?.contains("SYMLINK") == (known.kind == .gnssReceiver))
    }
  }
}

@Suite struct UdevEnumeratorTests {
  @Test func enumeratesTheRealTTYDevicesOfThisMachine() throws {
    let devices = try UdevEnumerator.serialDevices()
    #expect(!devices.isEmpty)
    #expect(devices.allSatisfy { $0.deviceNode.hasPrefix("/dev/") })
    #expect(
      devices.contains { $0.deviceNode == "/dev/tty" || $0.deviceNode.hasPrefix("/dev/ttyS") })
  }
}
