#!/usr/bin/env python3
"""Decodes a receiver's mixed NMEA and UBX stream with pyubx2/pynmeagps and prints JSON.

Usage: passthrough_oracle.py FILE
Checksums are validated. Prints {"errors": n, "messages": [...]} where each message has its
identity (GPGGA-style talker + formatter for NMEA, `NAV-PVT` for UBX) and, where it carries
them: lat, lon (degrees), alt or hMSL/height (m), speed (knots for NMEA, m/s for UBX
gSpeed), course (degrees), kmh (VTG), velN/velE/velD (m/s), ecefX/Y/Z (m), ecefVX/VY/VZ
(m/s), numSV, fixType or quality, status and mode (NMEA).
"""
import json
import sys

from pyubx2 import NMEA_PROTOCOL, UBX_PROTOCOL, VALCKSUM, UBXReader

NMEA_FIELDS = {"lat": "lat", "lon": "lon", "alt": "alt", "spd": "speed", "sog": "speed",
               "cog": "course", "cogt": "course", "cogm": "courseMagnetic", "sogk": "kmh",
               "sogn": "speed", "quality": "quality", "numSV": "numSV", "status": "status",
               "trueTrk": "course", "posMode": "mode"}


def number(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def describe(message):
    identity = message.identity
    out = {"identity": identity}
    if hasattr(message, "talker"):
        out["identity"] = message.talker + message.msgID
        for name, key in NMEA_FIELDS.items():
            if hasattr(message, name):
                value = getattr(message, name)
                out[key] = number(value) if key not in ("status", "mode") else value
        return out
    scaled = {"lat": 1, "lon": 1, "hMSL": 1000, "height": 1000, "velN": 1000, "velE": 1000,
              "velD": 1000, "gSpeed": 1000, "headMot": 1, "fixType": 1, "numSV": 1,
              "gpsFix": 1}
    for name, scale in scaled.items():
        if hasattr(message, name):
            out[name] = getattr(message, name) / scale
    if identity == "NAV-VELNED":
        for name in ("velN", "velE", "velD", "speed", "gSpeed"):
            out[name] = getattr(message, name) / 100
        out["heading"] = message.heading
    if identity == "NAV-HPPOSLLH":
        out.update(lat=message.lat, lon=message.lon, height=message.height / 1000,
                   hMSL=message.hMSL / 1000, invalid=message.invalidLlh)
    for prefix in ("ecef", "ecefV"):
        for axis in "XYZ":
            if hasattr(message, prefix + axis):
                value = getattr(message, prefix + axis) / 100
                for suffix in ("HP", "Hp"):
                    if hasattr(message, prefix + axis + suffix):
                        value += getattr(message, prefix + axis + suffix) / 10000
                out[prefix + axis] = value
    return out


def main(path):
    result = {"errors": 0, "messages": []}
    with open(path, "rb") as stream:
        reader = UBXReader(stream, protfilter=NMEA_PROTOCOL | UBX_PROTOCOL, validate=VALCKSUM,
                           quitonerror=0)
        while True:
            try:
                raw, message = reader.read()
            except Exception:  # pyubx2 raises its own exception types on a bad message
                result["errors"] += 1
                continue
            if raw is None:
                break
            if message is None:
                result["errors"] += 1
                continue
            result["messages"].append(describe(message))
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
