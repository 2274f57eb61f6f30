import MockGPS

/// The help pages, kept as text so that tests can compare them exactly.
enum Help {
  static let main = """
    OVERVIEW: mockgps emulates a serial GPS receiver on a pseudo-terminal, for testing gpsd and
    the programs that read a GPS without the hardware.

    USAGE: mockgps [run] [<options>]
           mockgps record DEVICE --out FILE [--baud N] [--force]
           mockgps check FILE
           mockgps ctl [--control PATH | --link LINK] [--json] COMMAND [ARGS]
           mockgps devices
           mockgps profiles
           mockgps <subcommand> --help

    SUBCOMMANDS:
      run                     Emulate one receiver until SIGINT, SIGTERM or SIGHUP (the default).
      record                  Record a receiver (any terminal) read by read, for --replay.
      check                   Validate a route, scenario, almanac or log; report every error.
      ctl                     Change a running receiver through its control socket.
      devices                 List the USB serial devices (real receivers) udev knows.
      profiles                List the receiver profiles 'run --profile' emulates.

    OPTIONS:
      -h, --help              Show this help.
      --version               Show the version.

    See 'mockgps run --help' for the options of run.

    """

  /// The page of a topic.
  static func page(_ topic: HelpTopic) -> String {
    switch topic {
    case .main: return main
    case .run: return run
    case .devices: return devices
    case .check: return check
    case .profiles: return profiles
    case .record: return record
    case .ctl: return ctl
    }
  }

  static let devices = """
    OVERVIEW: List the USB serial devices udev knows, with their vendor and product IDs and
    whether they are known GNSS receivers or USB-serial bridges that GPS pucks are built on.

    USAGE: mockgps devices

    Works without udevd (as in containers), from sysfs; names then come from the USB descriptors.

    """

  static let profiles = """
    OVERVIEW: List the receivers 'mockgps run --profile NAME' emulates, one a line: the name,
    what the chip sends and answers, and which one is the default.

    USAGE: mockgps profiles

    """

  static let ctl = """
    OVERVIEW: Change a running receiver through its control socket: move it, set its fix,
    satellites and DOPs, pause it, inject a fault, or read its status and its fixes.

    USAGE: mockgps ctl [--control PATH | --link LINK] [--json] COMMAND [ARGS] [key=value...]

    COMMANDS:
    \(Help.ctlCommands)

    OPTIONS:
      --control PATH          The control socket (default: the one of /dev/ttyMOCKGPS).
      --link LINK             The control socket of the receiver on this link.
      --json                  Print the raw reply lines.
      -h, --help              Show this help.

    Any field of the protocol can be given as key=value (numbers, true, false and null as
    JSON, the rest as text).

    EXIT STATUS: 0 when the request was done, 1 when it was refused, 64 for a usage error, 69
    when nothing listens on the socket.

    """

  static let check = """
    OVERVIEW: Validate a route (GPX, KML, CSV, GeoJSON), a scenario (JSON), an almanac (YUMA),
    a log to replay (--replay) or a config of devices (--config) the way 'run' reads it, and report every error with its line
    or JSON path and what was expected.

    USAGE: mockgps check FILE

    The format is known by the content, not the name; a file named *.log, *.nmea, *.ubx,
    *.sirf, *.tsip or *.rec, or starting with '$', '!', '#' or a binary frame, is a log. A valid
    file gets one line with what it holds (points, length, duration, the scenario's actions, or
    the log's sentences and frames). In a log, each malformed packet (bad checksum, truncated,
    control character, line too long, garbage) is a warning on stderr naming its line: it is
    replayed as recorded, so the log is still valid.

    EXIT STATUS: 0 when the file is valid, 65 when its content is wrong (a log with nothing to
    replay), 66 when it is missing or cannot be read, 64 for a usage error. A config of devices
    is checked with the files its devices name; every error is reported, and the code is the
    first error's.

    """

  static let run = """
    OVERVIEW: Emulate one serial GPS receiver until SIGINT, SIGTERM or SIGHUP.

    Opens a pseudo-terminal, publishes its slave as a symbolic link, and sends at every epoch
    what the profile's chip sends (NMEA 0183 in its dialect, UBX when a client turns it on),
    paced at the baud like a real UART, and answers the commands the chip answers. The
    satellites move along their orbits: GGA, GSA, GSV and GST follow them.

    With --passthrough a real receiver on a serial port is the receiver: its bytes go to the
    pseudo-terminal and the client's bytes to it (a baud change is followed), its position
    replaced as --override says; its time, satellites, DOPs and fix quality stay its own. When
    it is unplugged the link stays, silent, until it is back.

    USAGE: mockgps run [--link PATH] [--position LAT,LON[,ALT] | --route FILE | --scenario FILE]
                       [--speed M/S] [--accel M/S2] [--turn-rate DEG/S] [--loop | --once]
                       [--time original|now] [--seed N] [--profile NAME]
                       [--almanac FILE] [--constellations LIST] [--rate HZ] [--baud N]
                       [--baud-mismatch garble|clean] [--output-delay MS[±JITTER]]
                       [--base LAT,LON[,ALT] | --moving-base] [--antenna-offset FORWARD,RIGHT[,UP]]
                       [--rtk-convergence FLOAT,FIXED]
                       [--state-dir DIR] [--group NAME] [--mode OCTAL] [--time-scale X]
                       [--start-time ISO8601]
                       [--tcp [HOST:]PORT] [--udp HOST:PORT] [--gpsd-socket PATH]
                       [--panel [HOST:]PORT] [--panel-files DIR] [--verbose | --quiet]
           mockgps run --replay FILE [--time original|now] [--loop | --once]
                       [--wait-for-client] [--settle SECONDS] [--move-to LAT,LON]
                       [--drop-invalid] [--baud N] [--time-scale X]
                       [--tcp [HOST:]PORT] [--udp HOST:PORT] [--link PATH]
           mockgps run --passthrough DEVICE [--passthrough-baud N|auto] [--override MODE]
                       [--position LAT,LON[,ALT] | --offset NORTH_M,EAST_M | --route FILE
                       | --scenario FILE] [--tcp [HOST:]PORT] [--udp HOST:PORT]
                       [--link PATH]
           mockgps run --config FILE [--shard K/N] [--panel [HOST:]PORT]
                       [--panel-files DIR] [--verbose | --quiet]

    OPTIONS:
      --link PATH             Device link to create (default: \(EmulatorConfiguration.defaultLinkPath)).
      --position LAT,LON[,ALT]
                              Fixed position in decimal degrees, altitude in meters above mean
                              sea level (default: 51.477928,-0.001545,46, the Royal Observatory,
                              Greenwich).
      --route FILE            Follow a route or play a track from a GPX, KML, CSV or GeoJSON
                              file. A track with a time at every point plays on its own
                              timeline; a route without times is driven at --speed.
      --scenario FILE         Play a scenario: a JSON timeline of motion and faults (see the
                              README); 'mockgps check FILE' validates it.
      --replay FILE           Replay a log as the receiver: raw NMEA, a gpsd test log, a binary
                              capture (UBX, SiRF...) or a 'mockgps record' recording. Its
                              bytes go out as recorded, at the log's own times, paced at the
                              baud; while a client has the device open nothing is dropped (the
                              replay waits for the client to read); what clients write is
                              logged, never answered.
      --speed M/S             Cruising speed on a route, 0.1 to 1000; given for a timed track,
                              its times are ignored (default: 13.9, 50 km/h).
      --accel M/S2            Largest acceleration and braking, 0.1 to 100 (default: 2).
      --turn-rate DEG/S       Fastest change of course, 1 to 360; the vehicle slows for
                              corners (default: 30).
      --loop                  Start the route or log again after its end (a route through a
                              closing leg back to its first point); time never goes back,
                              but a log's own times do under --time original.
      --once                  Exit with status 0 when the route ends (default: stay at its last
                              point), or when the clients have read the whole log (waiting up
                              to 10 s for them).
      --time original|now     A track, scenario or log plays at its own times (original, the
                              default) or moved to start now; a log's time and date fields are
                              then rewritten.
      --wait-for-client       Start the log's timeline when the first client opens the device,
                              after --settle.
      --settle SECONDS        Wait from the first client's open to the log's first byte, 0 to
                              60 (default: 1.4, as gpsfake: gpsd flushes the line at first).
      --move-to LAT,LON       Move a replayed track so that it starts here, keeping its shape
                              and motion.
      --drop-invalid          Leave out the log's broken packets (bad checksum, truncated,
                              garbage) instead of sending them as recorded.
      --seed N                Seed of the signal-to-noise noise, of a scenario's random faults
                              and of the RTK convergence (default: the scenario's, else 0).
      --passthrough DEVICE    Pass a real receiver through: a serial device (8N1, raw), or
                              auto for the single known GNSS receiver 'mockgps devices' lists,
                              auto:VID:PID or auto:SERIAL for one of several.
      --passthrough-baud N|auto
                              Its baud, one of those of --baud but 0, or auto: try the common
                              bauds until GNSS data arrives (default: auto).
      --override MODE         What the real position becomes: off (every byte as sent),
                              replace (--position), offset (the track moved so that its first
                              fix is at --position, or by --offset), route (position, speed and
                              course from --route or --scenario), freeze (the last real fix)
                              (default: replace with --position, route with --route or
                              --scenario, offset with --offset, else off).
      --offset NORTH_M,EAST_M
                              Move the real track this many meters north and east (signed),
                              keeping its motion.
      --control PATH          Control socket of the JSON-lines protocol 'mockgps ctl' speaks
                              (default: $XDG_RUNTIME_DIR/mockgps/LINK.sock, for root
                              /run/mockgps/LINK.sock, else /tmp/mockgps-UID/LINK.sock, LINK
                              the link's path escaped as systemd-escape does). Mode 0600.
      --control-group NAME    Open the control socket to this group (mode 0660).
      --no-control            No control socket.
      --profile NAME          Receiver to emulate, one of those 'mockgps profiles' lists
                              (default: generic).
      --almanac FILE          GPS satellites from a YUMA almanac (default: the nominal
                              GPS, GLONASS, Galileo and BeiDou constellations built in).
      --constellations LIST   Systems tracked, comma-separated: gps, glonass, galileo, beidou,
                              sbas (default: the profile's). Satellites below 5 degrees of
                              elevation are not used, SBAS ones never; sbas also sets the
                              chip's SBAS setting (CFG-SBAS, PMTK313). The chip's channels
                              limit the rest.
      --rate HZ               Epochs per second, 0.1 to 20 (default: 1). Epochs start on whole
                              UTC seconds.
      --baud N                Line speed the bytes are paced at, 8N1: 1200, 2400, 4800, 9600,
                              19200, 38400, 57600, 115200, 230400, 460800 or 921600; 0 writes
                              unpaced (default: the profile's, 9600 for generic; for a log,
                              its '# Serial:' speed, else 9600).
      --baud-mismatch MODE    What a client whose terminal is at another speed than the chip
                              reads: garble (default), what a UART at its speed makes of the
                              8N1 bytes at the chip's (fewer bytes when slower, more garbage
                              when faster; what it writes reaches the chip garbled too), or
                              clean: the bytes as sent, whatever its speed.
      --output-delay MS[±JITTER]
                              Send each epoch's first byte MS milliseconds after the instant it
                              describes, give or take JITTER (uniform, seeded: '120±15' or
                              '120+-15'), as a chip that computes its solution first; time
                              users calibrate it as an offset (default: the profile's, 0).
      --base LAT,LON[,ALT]    Be a reference station there (with --profile ublox-f9p): time mode
                              at that fixed antenna position (ALT above the geoid), sending
                              RTCM 3 1005, the MSM4 of GPS, GLONASS, Galileo and BeiDou (1074,
                              1084, 1094, 1124) and 1230 on the port every epoch.
      --moving-base           Be a moving base (with --profile ublox-f9p): send RTCM 3 4072.0
                              (the antenna's position and velocity, in the emulator's own
                              layout: u-blox publishes none), the MSM7 of GPS, GLONASS, Galileo
                              and BeiDou and 1230 every epoch, for a rover on the same vehicle
                              that gives its vector from this antenna in NAV-RELPOSNED.
      --antenna-offset FORWARD,RIGHT[,UP]
                              Where the antenna sits on the vehicle the position, route or
                              scenario moves, meters along the course over ground, to its right
                              and up (each within ±100): two devices on one route with their
                              offsets are a vehicle's two antennas.
      --rtk-convergence FLOAT,FIXED
                              How fast a ublox-f9p fed RTCM 3 corrections converges: mean
                              seconds from the first corrections to RTK float, then from float
                              to RTK fixed, each drawn from half to one and a half times
                              (seeded) and longer on a long baseline (default: 5,15).
      --state-dir DIR         Keep the chip's flash and battery-backed RAM (what a u-blox
                              CFG-CFG or CFG-VALSET saves) in DIR between runs, in a file named
                              after the link (/dev/ttyMOCKGPS0: dev+ttyMOCKGPS0.state, mode
                              0600), read at start; DIR must be of this user or root and
                              writable by no group or other (default: kept for the run only).
      --group NAME            Group of the device node, as for a real serial port
                              (default: dialout).
      --mode OCTAL            Permissions of the device node (default: 0660).
      --time-scale X          Simulated time runs X times as fast as the wall clock, 0.01 to
                              1000, or to 1000000 for a log (default: 1).
      --start-time ISO8601    Simulated UTC time at the start, YYYY-MM-DDTHH:MM:SS[.fraction]Z
                              or with +00:00 for Z, no leap second (default: now).
      --tcp [HOST:]PORT       Also serve the stream to any number of TCP clients (gpsd:
                              tcp://127.0.0.1:PORT), on 127.0.0.1 unless a host is given (an
                              IPv4 or [IPv6] address, or localhost); port 0 picks a free one,
                              which the start line says. A client that has not read the last
                              epoch loses the next one whole; what clients write is dropped.
      --udp HOST:PORT         Also send the stream as UDP datagrams to HOST:PORT, one per
                              sentence or binary frame (gpsd: udp://HOST:PORT).
      --gpsd-socket PATH      Tell the gpsd listening on this control socket (gpsd -F PATH)
                              about the device, as gpsd's hotplug scripts do: '+LINK' once the
                              link exists, '-LINK' before it is removed. Without a gpsd there,
                              a warning and the run goes on; a gpsd started later is not told.
      --panel [HOST:]PORT     Serve a live panel in the browser (map, sky, status, and controls
                              through the control layer), on 127.0.0.1 unless a host is given;
                              port 0 picks a free one. Standard error says its URL with a
                              random token, which every request needs; with --config one panel
                              serves every device.
      --panel-files DIR       The folder the panel's users may load route files from (none by
                              default): they have no account on this machine, so the panel
                              opens no other file.
      --config FILE           Run many receivers in one process, from a JSON file
                              {"devices": [{"link": "/tmp/gps0", "rate": 10}, ...]}: each
                              device takes the options above without their dashes (a
                              position as [LAT, LON, ALT], flags as true); relative files are
                              read from the file's folder. No other option but --shard,
                              --panel, --panel-files, --verbose or --quiet goes with it;
                              'mockgps check FILE' validates it. Every error of every
                              device, its files' included, is reported before any device
                              opens, and the exit status is the first error's.
      --shard K/N             Run only the devices of --config at positions K, K+N, K+2N...
                              (from 1), so that N hosts given the same file run each device
                              once between them.
      -v, --verbose           Also log clients opening and closing the device and the commands
                              they write.
      -q, --quiet             Log only errors (on standard error; the start lines on
                              standard output stay: they name each device and port).
      -h, --help              Show this help.

    EXIT STATUS: 0 after a signal or, with --once, at the end of the route or log; 1 when the
    receiver cannot start (link, pseudo-terminal, a --passthrough device that is not a
    terminal); 64 for a usage error; 65 when the route, scenario or almanac is wrong, or the log
    holds nothing to replay, or the --state-dir file is not this chip's state; 66 when it is
    missing or cannot be read, when the --state-dir directory is missing or unsafe, when the
    --passthrough device does not exist, or when auto finds no single receiver.

    """
}
