#!/usr/bin/env python3
"""Decode every NMEA line of FILE with pynmeagps, strictly, and print each one's fields as JSON.

Each line is parsed with checksum and message-ID validation (proprietary PUBX lines by
pynmeagps's u-blox definitions); a line pynmeagps rejects counts as an error. Output:
  {"errors": ["line: reason", ...],
   "sentences": [{"talker": "GN", "msgID": "GBS", "fields": {"errLat": 2.3, ...}}, ...]}
Times are written hhmmss.ss, dates ddmmyy; numbers as pynmeagps reads them; an empty field as "".
"""
import datetime
import json
import sys

from pynmeagps import NMEAReader, VALCKSUM, VALMSGID


def value(field):
    if isinstance(field, datetime.time):
        return field.strftime("%H%M%S.") + f"{field.microsecond // 10000:02d}"
    if isinstance(field, datetime.date):
        return field.strftime("%d%m%y")
    return field


def main(path):
    result = {"errors": [], "sentences": []}
    with open(path, encoding="ascii") as source:
        for line in source:
            line = line.rstrip("\r\n")
            if not line:
                continue
            try:
                message = NMEAReader.parse(line, validate=VALCKSUM | VALMSGID)
            except Exception as error:  # pynmeagps raises its own exception types
                result["errors"].append(f"{line}: {error}")
                continue
            if message is None:
                result["errors"].append(f"{line}: not decoded")
                continue
            fields = {name: value(field) for name, field in vars(message).items()
                      if not name.startswith("_")}
            result["sentences"].append(
                {"talker": message.talker, "msgID": message.msgID, "fields": fields})
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
