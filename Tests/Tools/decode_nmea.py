#!/usr/bin/env python3
"""Decode every NMEA line of FILE with pynmeagps, strictly, and print JSON.

Each line is parsed with checksum and message-ID validation; a line pynmeagps rejects counts as
an error. Epochs start at each GGA with a new time. Output:
  {"lines": n, "errors": n, "errorLines": [...],
   "epochs": [{"time", "lat", "lon", "alt", "used", "inView", "pdop", "hdop", "vdop", "quality",
               "diffAge", "diffStation"}]}
"used" counts the satellite slots of the epoch's GSAs, "inView" the distinct (talker, number)
of its GSVs (a satellite listed for two signals counts once).
"""
import json
import sys

from pynmeagps import NMEAReader, VALCKSUM, VALMSGID


def main(path):
    result = {"lines": 0, "errors": 0, "errorLines": [], "epochs": []}
    epoch = None
    with open(path, encoding="ascii") as source:
        for line in source:
            line = line.rstrip("\r\n")
            if not line:
                continue
            result["lines"] += 1
            try:
                message = NMEAReader.parse(line, validate=VALCKSUM | VALMSGID)
            except Exception as error:  # pynmeagps raises its own exception types
                result["errors"] += 1
                result["errorLines"].append(f"{line}: {error}")
                continue
            if message is None:
                result["errors"] += 1
                result["errorLines"].append(f"{line}: not decoded")
                continue
            kind = message.msgID
            if kind == "GGA":
                if epoch is None or epoch["time"] != str(message.time):
                    epoch = {"time": str(message.time), "lat": message.lat, "lon": message.lon,
                             "alt": message.alt, "used": 0, "inView": 0, "pdop": None,
                             "hdop": message.HDOP, "vdop": None, "quality": message.quality,
                             "diffAge": message.diffAge, "diffStation": message.diffStation,
                             "_seen": set()}
                    result["epochs"].append(epoch)
            elif epoch is None:
                continue
            elif kind == "GSA":
                epoch["pdop"], epoch["vdop"] = message.PDOP, message.VDOP
                epoch["used"] += sum(
                    1 for i in range(1, 13) if getattr(message, f"svid_{i:02d}", "") not in ("", None))
            elif kind == "GSV":
                for i in range(1, 5):
                    number = getattr(message, f"svid_{i:02d}", "")
                    if number not in ("", None):
                        epoch["_seen"].add((message.talker, number))
                epoch["inView"] = len(epoch["_seen"])
    for epoch in result["epochs"]:
        del epoch["_seen"]
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
