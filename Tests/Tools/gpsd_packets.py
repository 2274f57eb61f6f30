#!/usr/bin/env python3
"""Print the packets gpsd's own lexer (python3-gps `gps.packet`) finds in a log, as gpsfake does.

Usage: gpsd_packets.py LOG [LOG...]

Prints a JSON object {"logs": [{"packets": [[TYPE, LENGTH, HEX-PREFIX], ...]}, ...]}, one entry
per LOG in order, with every packet the lexer returns (comments included), TYPE being gpsd's name
without `_PACKET` in lower case. One process reads every log: a Python start per log cost most
of the corpus test's time.
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


def packets_of(path):
    packets = []
    with open(path, "rb") as log:
        getter = sniffer.new()
        while True:
            length, kind, packet, _counter = getter.get(log.fileno())
            if length <= 0:
                break
            packets.append([NAMES.get(kind, str(kind)), len(packet), packet[:8].hex()])
    return {"packets": packets}


def main():
    json.dump({"logs": [packets_of(path) for path in sys.argv[1:]]}, sys.stdout)


if __name__ == "__main__":
    main()
