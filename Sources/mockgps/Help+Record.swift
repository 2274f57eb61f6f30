/// The help page of `mockgps record`, kept apart from the others' pages.
extension Help {
  static let record = """
    OVERVIEW: Record what a serial GPS receiver (or any terminal, such as mockgps's own device)
    sends, with the time each read arrived, into a file 'mockgps run --replay' plays back with
    the same bytes and the same spacing.

    USAGE: mockgps record DEVICE --out FILE [--baud N] [--force]

    The device is opened like gpsd opens it (read-write, not as the controlling terminal) and kept
    open until SIGINT, SIGTERM or SIGHUP, or until it hangs up (the receiver is unplugged, the
    emulator stops); it is set to raw 8N1. Every read is written to FILE at once, as one record:
    '@SECONDS.NANOSECONDS COUNT', a line end, the bytes as read, a line end; after '# mockgps
    recording 1' and the headers Device, Serial and Start. A signal loses nothing already
    received. At the end, one line on standard error gives the records, bytes and duration.

    OPTIONS:
      --out FILE              Recording to create, mode 0644 (required).
      --baud N                Set the line speed: 1200, 2400, 4800, 9600, 19200, 38400, 57600,
                              115200, 230400, 460800 or 921600 (default: leave the speed as it
                              is).
      --force                 Replace FILE if it exists (default: refuse).
      -h, --help              Show this help.

    EXIT STATUS: 0 after a signal or when the device hangs up; 1 when reading DEVICE fails
    midway; 64 for a usage error; 65 when DEVICE is not a terminal; 66 when it is missing or
    cannot be opened; 73 when FILE exists (without --force) or cannot be created; 74 when
    writing FILE fails midway (a full disk), keeping what was written.

    """
}
