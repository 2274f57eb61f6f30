#!/usr/bin/env python3
"""Print the packets gpsd's own lexer (python3-gps `gps.packet`) finds in a log, as gpsfake does.

Usage: gpsd_packets.py LOG

Prints a JSON object {"packets": [[TYPE, LENGTH, HEX-PREFIX], ...]} with every packet the lexer
returns (comments included), TYPE being gpsd's name without `_PACKET` in lower case.
"""
import json
import sys

# python3-gps lives in the system's dist-packages; a pyenv python3 does not see it.
sys.path.append("/usr/lib/python3/dist-packages")
import gps.packet as sniffer  # noqa: E402

NAMES = {
    getattr(sniffer, name): name[: -len("_PACKET")].lower()
    for name in dir(sniffer)
    if name.endswith("_PACKET")
}


def main():
    packets = []
    with open(sys.argv[1], "rb") as log:
        getter = sniffer.new()
        while True:
            length, kind, packet, _counter = getter.get(log.fileno())
            if length <= 0:
                break
            packets.append([NAMES.get(kind, str(kind)), len(packet), packet[:8].hex()])
    json.dump({"packets": packets}, sys.stdout)


if __name__ == "__main__":
    main()
