// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "mockgps",
  products: [
    .executable(name: "mockgps", targets: ["mockgps"]),
    .library(name: "MockGPS", targets: ["MockGPS"]),
    .library(name: "MockGPSTestSupport", targets: ["MockGPSTestSupport"]),
  ],
  targets: [
    // Pure logic: no POSIX, no Foundation.
    .target(name: "NMEA", linkerSettings: [.linkedLibrary("m")]),
    .target(name: "Geodesy", linkerSettings: [.linkedLibrary("m")]),
    .target(name: "Simulation", dependencies: ["NMEA", "Geodesy"]),
    .target(name: "UBX"),
    // Raw measurements from the simulated sky: pseudorange, carrier, Doppler, broadcast
    // ephemerides and LNAV subframes.
    .target(name: "GNSSMeasurements", dependencies: ["Simulation", "Geodesy"]),
    // RTCM 3: frames, CRC-24Q, station, MSM, ephemeris and bias messages, and MSMs from the
    // measurement engine's epochs.
    .target(name: "RTCM", dependencies: ["GNSSMeasurements", "Simulation"]),
    // SiRF binary: frames, payloads and the messages of a SiRFstar in binary mode.
    .target(name: "SiRF"),
    .systemLibrary(
      name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    // What every reader of input shares: the one bounded file reader, diagnostics, the JSON
    // parser and the one number spelling.
    .target(name: "InputFiles"),
    // Readers of route and scenario files: XML through libxml2's streaming reader, JSON through
    // InputFiles' parser.
    .target(name: "RouteFiles", dependencies: ["Simulation", "Geodesy", "CLibXML2", "InputFiles"]),
    .target(
      name: "Receiver",
      dependencies: [
        "Simulation", "NMEA", "UBX", "SiRF", "Geodesy", "GNSSMeasurements", "RTCM",
      ]),
    // What Replay and Passthrough share of a receiver's byte stream: packets framed as gpsd's
    // lexer frames them, and the byte-preserving rewriting of times and positions in them.
    .target(name: "Wire", dependencies: ["NMEA", "UBX", "Geodesy", "Simulation"]),
    // Recorded logs: packets, epochs, time shift and move, mockgps recordings.
    .target(
      name: "Replay",
      dependencies: ["Wire", "NMEA", "UBX", "Geodesy", "Simulation", "InputFiles"]),
    // A real receiver's stream: positions overridden on every path, baud detection and changes.
    .target(
      name: "Passthrough", dependencies: ["Wire", "NMEA", "UBX", "Geodesy", "Simulation"]),

    // The control protocol: requests, replies, and what a control socket changes of a receiver.
    .target(
      name: "Control", dependencies: ["Simulation", "Geodesy", "Receiver", "NMEA", "InputFiles"]),

    // The POSIX edge.
    .target(name: "CSystemShims"),
    // The commit the build scripts link in (a weak empty default otherwise).
    .target(name: "CBuildInfo"),
    .target(name: "SystemIO", dependencies: ["CSystemShims"]),
    .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
    .target(name: "Udev", dependencies: ["CUdev"]),
    .systemLibrary(
      name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),

    // The threads every device of a process shares and what runs on them: the I/O loop, the
    // scheduler of epochs (deadline queue, scheduled steps), the clock, the log, the device
    // counters, the epoch listeners and the udev hub of passed-through receivers.
    .target(
      name: "DeviceRuntime", dependencies: ["Receiver", "Simulation", "SystemIO", "Udev"]),
    // The emulated device: the pseudo-terminal and its clients (their input, the command
    // handler, the unread-bytes admission), its transmit path (pacing, admission and counting
    // of what a source sends), the link's guard, the chip's state file and the terminal recorder.
    .target(
      name: "DeviceTerminal",
      dependencies: [
        "DeviceRuntime", "NMEA", "Receiver", "SystemIO", "InputFiles", "Replay",
        "Simulation",
      ]),
    // The sources of a device's bytes, each handing them to the device's transmit path: a
    // simulated receiver's epochs (`EpochLoop`), a log's replay (`ReplayLoop`) and a real
    // receiver passed through (`PassthroughLoop`, read on the runtime's I/O thread).
    .target(
      name: "DeviceSources",
      dependencies: [
        "DeviceRuntime", "DeviceTerminal", "Control", "Receiver", "Simulation", "Replay",
        "Passthrough", "RouteFiles", "InputFiles", "UBX", "Udev", "SystemIO",
      ]),
    // The servers: the control socket (requests, replies, subscriptions, back-pressure), the
    // TCP and UDP outputs of the epochs, the listeners' backoff, and telling gpsd of a device.
    .target(name: "Servers", dependencies: ["DeviceRuntime", "Control", "Receiver", "SystemIO"]),
    // The composition root: `Emulator` and its configuration, wiring a source, a device, the
    // servers and the control handlers together on a runtime.
    .target(
      name: "MockGPS",
      dependencies: [
        "Geodesy", "Simulation", "Receiver", "Replay", "RouteFiles", "SystemIO",
        "Passthrough", "Udev", "Control", "InputFiles", "DeviceRuntime", "DeviceTerminal",
        "DeviceSources", "Servers",
      ]),
    // The browser panel (`--panel`): libmicrohttpd serving the page, the devices' events and
    // their control commands.
    .target(
      name: "Panel",
      dependencies: [
        "MockGPS", "Control", "Simulation", "SystemIO", "CMicroHTTPD", "Servers",
      ],
      resources: [
        .embedInCode("page/index.html"), .embedInCode("page/panel.js"),
        .embedInCode("page/panel.css"),
      ]),
    // The command line: `run`, `record`, `check`, `ctl`.
    .executableTarget(
      name: "mockgps",
      dependencies: [
        "Panel", "MockGPS", "SystemIO", "Geodesy", "Simulation", "Receiver", "Udev", "CBuildInfo",
        "RouteFiles", "Replay", "Passthrough", "Control", "InputFiles", "NMEA", "Wire",
        "DeviceRuntime", "DeviceTerminal", "DeviceSources", "Servers",
      ]),
    // The harness of scripts/bench-routes: epochs alone in a process, for callgrind.
    .executableTarget(
      name: "mockgps-bench",
      dependencies: ["Geodesy", "Simulation", "Receiver", "Replay", "RouteFiles", "UBX"]),
    // What every test target may use without the device stack: fixtures, the oracles run as
    // processes (Python decoders, RTKLIB), the manual clock and the trait for blocking suites.
    .target(name: "TestFixtures", dependencies: ["Simulation", "Geodesy", "RTCM", "CSystemShims"]),
    // The device stack under test: the emulator harness, fake receivers, terminal readers.
    .target(
      name: "MockGPSTestSupport",
      dependencies: [
        "Simulation", "Receiver", "NMEA", "SystemIO", "Replay", "MockGPS", "TestFixtures",
        "DeviceRuntime", "DeviceTerminal",
      ]),

    .testTarget(
      name: "NMEATests", dependencies: ["NMEA", "TestFixtures"], exclude: ["Fixtures"]),
    .testTarget(name: "UBXTests", dependencies: ["UBX"]),
    .testTarget(name: "InputFilesTests", dependencies: ["InputFiles"]),
    .testTarget(name: "SiRFTests", dependencies: ["SiRF"]),
    .testTarget(
      name: "ControlTests",
      dependencies: [
        "Control", "Simulation", "Geodesy", "Receiver", "NMEA", "TestFixtures", "InputFiles",
      ]),
    .testTarget(
      name: "ReplayTests",
      dependencies: [
        "Replay", "NMEA", "UBX", "Geodesy", "InputFiles", "TestFixtures", "Simulation", "Wire",
      ]),
    .testTarget(
      name: "WireTests", dependencies: ["Wire", "NMEA", "UBX", "Geodesy", "TestFixtures"]),
    .testTarget(
      name: "PassthroughTests",
      dependencies: ["Passthrough", "Wire", "NMEA", "UBX", "Geodesy", "TestFixtures", "Simulation"]),
    .testTarget(name: "GeodesyTests", dependencies: ["Geodesy", "TestFixtures"]),
    .testTarget(
      name: "RouteFilesTests",
      dependencies: [
        "RouteFiles", "Simulation", "Geodesy", "Receiver", "TestFixtures", "InputFiles",
      ]),
    .testTarget(
      name: "GNSSMeasurementsTests",
      dependencies: ["GNSSMeasurements", "Simulation", "Geodesy", "TestFixtures"]),
    .testTarget(
      name: "RTCMTests",
      dependencies: ["RTCM", "GNSSMeasurements", "Simulation", "Geodesy", "TestFixtures"]),
    .testTarget(
      name: "SimulationTests",
      dependencies: ["Simulation", "TestFixtures", "Geodesy", "NMEA", "Receiver"]),
    .testTarget(
      name: "ReceiverTests",
      dependencies: [
        "Receiver", "UBX", "SiRF", "Geodesy", "TestFixtures", "NMEA", "RTCM", "Simulation",
      ],
      exclude: ["Fixtures"]),
    .testTarget(name: "SystemIOTests", dependencies: ["SystemIO", "TestFixtures"]),
    .testTarget(name: "UdevTests", dependencies: ["Udev"]),
    .testTarget(
      name: "MockGPSTests",
      dependencies: [
        "MockGPS", "UBX", "Simulation", "Replay", "RouteFiles", "MockGPSTestSupport",
        "TestFixtures", "Passthrough", "Udev", "SystemIO", "Control", "InputFiles", "Wire",
        "DeviceRuntime", "DeviceTerminal", "DeviceSources", "Servers", "Geodesy", "NMEA", "RTCM",
        "Receiver",
      ]),
    .testTarget(
      name: "PanelTests",
      dependencies: [
        "Panel", "MockGPS", "Control", "SystemIO", "MockGPSTestSupport", "TestFixtures",
        "DeviceRuntime", "Receiver",
      ]),
    .testTarget(
      name: "mockgpsTests",
      dependencies: [
        "mockgps", "MockGPS", "Geodesy", "Receiver", "Replay", "MockGPSTestSupport",
        "TestFixtures", "RouteFiles", "Control", "InputFiles", "DeviceRuntime", "Servers",
        "Simulation", "SystemIO", "Udev",
      ]),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "mockgps", "NMEA", "UBX", "Receiver", "Replay", "Geodesy", "SystemIO",
        "MockGPSTestSupport", "TestFixtures", "Passthrough", "Control",
      ]),
  ]
)
