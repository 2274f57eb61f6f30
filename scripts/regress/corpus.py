"""What the harness needs to know about a corpus log: its transport and whether it is NMEA only.

The log is split by gpsd's own packet lexer (python3-gps's `gps.packet`), as gpsfake splits it.
"""
import os
import re

from gps import packet as lexer

TRANSPORT = re.compile(rb"^#\s*Transport:\s*(\S+)", re.MULTILINE)
SERIAL = re.compile(rb"^#\s*Serial:\s*(\d+)", re.MULTILINE)
# The bauds `mockgps run --passthrough-baud` accepts.
STANDARD_BAUDS = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)


class LogInfo:
    """A corpus log: `path`, `name`, `transport` (None for serial), `nmea_only`, and `baud`:
    the line speed mockgps's replay of it shows (its `# Serial:` baud, else 38400)."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        with open(path, "rb") as f:
            text = f.read()
        found = TRANSPORT.search(text)
        self.transport = found.group(1).decode("ascii", "replace").upper() if found else None
        serial = SERIAL.search(text)
        baud = int(serial.group(1)) if serial else 38400
        self.baud = baud if baud in STANDARD_BAUDS else 38400
        self.nmea_only = self._nmea_only()

    def _nmea_only(self):
        """True when every packet gpsd's lexer finds is an NMEA 0183 sentence (AIS's !AIVDM
        included) or a comment."""
        getter = lexer.new()
        kinds = set()
        with open(self.path, "rb") as f:
            while True:
                length, kind, _packet, _counter = getter.get(f.fileno())
                if length <= 0:
                    break
                if kind != lexer.COMMENT_PACKET:
                    kinds.add(kind)
        return bool(kinds) and kinds <= {lexer.NMEA_PACKET, lexer.AIVDM_PACKET}
