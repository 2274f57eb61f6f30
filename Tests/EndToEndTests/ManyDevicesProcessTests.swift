import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// `mockgps run --config` with more devices than Linux allows a user inotify instances (128 by
/// default): every device's node is watched through the process's one instance.
@Suite(.blocking, .serialized) struct ManyDevicesProcessTests {
  static let deviceCount = 200

  /// Device `index`'s latitude: a multiple of 1/8 degree, exact in GGA's ddmm.mmmmm.
  static func latitude(_ index: Int) -> Double { Double(index) / 8 }

  /// The latitude field GGA carries for device `index`, with its hemisphere.
  static func ggaLatitude(_ index: Int) -> String {
    let minutes = Double(index % 8) * 7.5
    return String(format: "%02d%08.5f,N,01000.00000,E", index / 8, minutes)
  }

  /// The descriptors of process `pid` that are inotify instances.
  static func inotifyInstances(of pid: pid_t) -> Int {
    let directory = "/proc/\(pid)/fd"
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return entries.count { entry in
      let target = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "\(directory)/\(entry)")
      return target == "anon_inode:inotify"
    }
  }

  @Test(.timeLimit(.minutes(10)))
  func twoHundredDevicesStartShareOneInotifyInstanceAndEachSendsItsOwnPosition() throws {
    let directory = try ScratchDirectory("config-many")
    defer { directory.remove() }
    let links = (0..<Self.deviceCount).map { "\(directory.path)/gps\($0)" }
    let devices = links.enumerated().map { index, link in
      "{\"link\": \"\(link)\", \"position\": [\(Self.latitude(index)), 10], \"rate\": 1}"
    }
    // A process that cannot start them all ends with an error: no need to wait on.
    let process = try MockGPSBinary.startFleet(devices, in: directory, seconds: 60)
    defer { process.kill() }
    let started = process.standardOutput.split(separator: "\n").count == Self.deviceCount
    #expect(started, "\(process.standardError.suffix(2000))")
    guard started else { return }
    #expect(Self.inotifyInstances(of: process.pid) == 1)
    // Every client at once, then each read: all the devices serve their clients together.
    let readers = try links.map { try DeviceReader(path: $0) }
    for (index, reader) in readers.enumerated() {
      let gga = reader.readUntil(type: "GGA", timeoutSeconds: 10)
      #expect(
        gga?.text.contains(Self.ggaLatitude(index)) == true,
        "\(links[index]): \(gga?.text ?? "nothing")")
    }
    #expect(Self.inotifyInstances(of: process.pid) == 1)
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 30) == 0, "\(process.standardError.suffix(2000))")
    #expect(links.filter { FileManager.default.fileExists(atPath: $0) } == [])
    #expect(
      process.standardError.contains("SIGTERM: removing \(Self.deviceCount) links and stopping"))
  }
}
