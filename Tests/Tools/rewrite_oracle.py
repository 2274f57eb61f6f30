#!/usr/bin/env python3
"""Checks packets rewritten by mockgps's ReplayRewriter against independent decoders and math.

Usage: rewrite_oracle.py FILE
FILE is JSON: {"shiftNanoseconds": int, "moveTo": [lat, lon] or null, "origin": [lat, lon] or
null, "pairs": [[kind, before_hex, after_hex], ...]} with kind "nmea" or "ubx".
Every "after" must decode with pynmeagps or pyubx2 with a valid checksum. Times: each time,
date, iTOW and week must be the recorded one plus the shift (rounded to the field's last digit,
computed here with datetime and integers), with the recorded number of decimals. Positions: the
moved point must be the point at the geodesic distance and azimuth from moveTo that the recorded
point has from origin (geographiclib), within half the field's last digit; ECEF (converted here
with Heikkinen's closed form, not iteration) within 1 cm, or 1 mm for the high-precision frames.
Prints {"counts": {...}, "problems": [...], "worst": {...}}.
"""
import datetime
import json
import math
import sys

from geographiclib.geodesic import Geodesic
from pynmeagps import VALCKSUM as NMEA_VALCKSUM
from pynmeagps import NMEAReader
from pyubx2 import VALCKSUM, UBXReader

WGS84 = Geodesic.WGS84
A = 6378137.0
F = 1 / 298.257223563
E2 = F * (2 - F)
TIME_FIELD = {"GGA": 1, "RMC": 1, "GLL": 5, "GNS": 1, "ZDA": 1, "GBS": 1, "GST": 1, "GRS": 1}
WEEK_MS = 604800000


def geodetic(x, y, z):
    """Heikkinen (1982) closed-form ECEF to geodetic."""
    b = A * (1 - F)
    ep2 = (A * A - b * b) / (b * b)
    p = math.hypot(x, y)
    ff = 54 * b * b * z * z
    g = p * p + (1 - E2) * z * z - E2 * (A * A - b * b)
    c = E2 * E2 * ff * p * p / (g ** 3)
    s = (1 + c + math.sqrt(c * c + 2 * c)) ** (1 / 3)
    k = s + 1 + 1 / s
    pp = ff / (3 * k * k * g * g)
    q = math.sqrt(1 + 2 * E2 * E2 * pp)
    r0 = -(pp * E2 * p) / (1 + q) + math.sqrt(
        A * A / 2 * (1 + 1 / q) - pp * (1 - E2) * z * z / (q * (1 + q)) - pp * p * p / 2)
    u = math.sqrt((p - E2 * r0) ** 2 + z * z)
    v = math.sqrt((p - E2 * r0) ** 2 + (1 - E2) * z * z)
    z0 = b * b * z / (A * v)
    h = u * (1 - b * b / (A * v))
    return math.degrees(math.atan((z + ep2 * z0) / p)), math.degrees(math.atan2(y, x)), h


def ecef(lat, lon, h):
    phi, lam = math.radians(lat), math.radians(lon)
    n = A / math.sqrt(1 - E2 * math.sin(phi) ** 2)
    return ((n + h) * math.cos(phi) * math.cos(lam), (n + h) * math.cos(phi) * math.sin(lam),
            (n * (1 - E2) + h) * math.sin(phi))


class Oracle:
    def __init__(self, spec):
        self.shift = spec["shiftNanoseconds"]
        self.move_to = spec["moveTo"]
        self.origin = spec["origin"]
        self.counts = {}
        self.problems = []
        self.worst = {"positionDigits": 0.0, "ecefMeters": 0.0, "highPrecisionMeters": 0.0}

    def count(self, name):
        self.counts[name] = self.counts.get(name, 0) + 1

    def problem(self, text):
        if len(self.problems) < 20:
            self.problems.append(text)

    def moved(self, lat, lon):
        if "originChecked" not in self.counts:
            # The first position moved must be the origin: it lands on moveTo.
            self.count("originChecked")
            if abs(lat - self.origin[0]) > 1e-7 or abs(lon - self.origin[1]) > 1e-7:
                self.problem(f"first position {lat},{lon} is not the origin {self.origin}")
        line = WGS84.Inverse(self.origin[0], self.origin[1], lat, lon)
        to = WGS84.Direct(self.move_to[0], self.move_to[1], line["azi1"], line["s12"])
        return to["lat2"], to["lon2"]

    # NMEA

    def nmea(self, before, after):
        text_before, text_after = before.decode().strip(), after.decode().strip()
        if before == after:
            # Left as recorded: only right when there was no time to move (or the sentence is
            # bad). Sentences pynmeagps cannot read are not judged.
            fields = text_before.split("*")[0].split(",")
            kind = fields[0][-3:]
            if self.shift and kind in TIME_FIELD and len(fields) > TIME_FIELD[kind] and \
                    fields[TIME_FIELD[kind]] != "" and valid_checksum(text_before):
                self.problem(f"{text_before}: time not moved")
            self.count("unchanged")
            return
        try:
            old = NMEAReader.parse(text_before, validate=NMEA_VALCKSUM)
            new = NMEAReader.parse(text_after, validate=NMEA_VALCKSUM)
        except Exception as error:  # noqa: BLE001 - any failure is a finding
            self.problem(f"{text_after}: {error}")
            return
        self.count("nmeaDecoded")
        kind = old.msgID
        fields_before = text_before.split("*")[0].split(",")
        fields_after = text_after.split("*")[0].split(",")
        if len(fields_before) != len(fields_after):
            self.problem(f"{text_after}: field count changed")
        if self.shift and kind in TIME_FIELD:
            self.nmea_time(kind, old, new, fields_before, fields_after, text_after)
        if self.move_to and hasattr(old, "lat") and old.lat != "" and old.lon != "" and \
                text_before != text_after and fields_before[1:] != fields_after[1:]:
            self.nmea_position(old, new, fields_before, text_after)

    def nmea_time(self, kind, old, new, fields_before, fields_after, text):
        index = TIME_FIELD[kind]
        raw = fields_before[index]
        if raw == "":
            if fields_after[index] != "":
                self.problem(f"{text}: empty time filled")
            return
        decimals = len(raw.split(".")[1]) if "." in raw else 0
        if "." in fields_after[index] and len(fields_after[index].split(".")[1]) != decimals or \
                ("." in fields_after[index]) != ("." in raw):
            self.problem(f"{text}: time precision changed from {raw}")
        unit = 10 ** (9 - decimals)
        shift = round_half_away(self.shift, unit) * unit
        day = None
        if kind == "RMC" and old.date != "":
            day = old.date
        if kind == "ZDA":
            day = datetime.date(old.year, old.month, old.day)
        seconds = int(raw[0:2]) * 3600 + int(raw[2:4]) * 60 + int(raw[4:6])
        fraction = int(raw.split(".")[1]) * unit if decimals else 0
        base = datetime.datetime.combine(day or datetime.date(2000, 1, 1), datetime.time())
        start = base + datetime.timedelta(seconds=seconds, microseconds=fraction // 1000)
        expected = start + datetime.timedelta(microseconds=shift // 1000)
        if new.time != expected.time():
            self.problem(f"{text}: time {new.time}, expected {expected.time()}")
        self.count("nmeaTimes")
        if day is not None:
            got = new.date if kind == "RMC" else datetime.date(new.year, new.month, new.day)
            if got != expected.date():
                self.problem(f"{text}: date {got}, expected {expected.date()}")
            self.count("nmeaDates")

    def nmea_position(self, old, new, fields_before, text):
        lat, lon = self.moved(old.lat, old.lon)
        raw_lat = next(f for f in fields_before[1:] if f.replace(".", "").isdigit() and
                       "." in f and abs(nmea_degrees(f) - abs(old.lat)) < 1e-9)
        decimals = len(raw_lat.split(".")[1])
        digit = 10 ** -decimals / 60
        error = max(abs(new.lat - lat), abs(new.lon - lon) if abs(abs(new.lon - lon) - 360) > 1 else 0)
        self.worst["positionDigits"] = max(self.worst["positionDigits"], error / digit)
        if error > digit * 0.5 + 1e-12:
            self.problem(f"{text}: {new.lat},{new.lon} expected {lat},{lon}")
        self.count("nmeaPositions")

    # UBX

    def ubx(self, before, after):
        try:
            old = UBXReader.parse(before, validate=VALCKSUM)
            new = UBXReader.parse(after, validate=VALCKSUM)
        except Exception as error:  # noqa: BLE001
            self.problem(f"{after.hex()}: {error}")
            return
        self.count("ubxDecoded")
        name = old.identity
        if self.shift:
            self.ubx_time(name, old, new)
        if self.move_to and before != after:
            self.ubx_position(name, old, new)

    def ubx_time(self, name, old, new):
        if name.startswith("NAV-") and hasattr(old, "iTOW"):
            expected = (old.iTOW + round_half_away(self.shift, 10 ** 6)) % WEEK_MS
            if new.iTOW != expected:
                self.problem(f"{name}: iTOW {new.iTOW}, expected {expected}")
            self.count("ubxTimeOfWeek")
        if name in ("NAV-SOL", "NAV-TIMEGPS"):
            total = lambda m: (m.week * WEEK_MS + m.iTOW) * 10 ** 6 + m.fTOW  # noqa: E731
            if total(new) != total(old) + self.shift:
                self.problem(f"{name}: GPS time {total(new)}, expected {total(old) + self.shift}")
            self.count("ubxWeeks")
        if name in ("NAV-PVT", "NAV-TIMEUTC"):
            def utc(m):
                second = m.second if name == "NAV-PVT" else m.sec
                moment = datetime.datetime(m.year, m.month, m.day, m.hour, m.min, second)
                delta = moment - datetime.datetime(1970, 1, 1)
                return (delta.days * 86400 + delta.seconds) * 10 ** 9 + m.nano
            if utc(new) != utc(old) + self.shift:
                self.problem(f"{name}: UTC {utc(new)}, expected {utc(old) + self.shift}")
            self.count("ubxUTC")
        if name == "RXM-MEASX":
            # A system's time of week is one when it is where that system's time is from GPS's
            # (QZSS on GPS time, BeiDou 14 s behind, GLONASS UTC + 3 h: 3 h less 0 to 64 leap
            # seconds), within a second; it then moves with the shift. Anything else there (an
            # F9P without QZSS writes 1000) stays, as do all of them without towSet.
            def signed(ms):  # the shortest way round the week
                return (ms + WEEK_MS // 2) % WEEK_MS - WEEK_MS // 2
            gps_set = old.towSet != 0 and old.gpsTOW < WEEK_MS
            allowed = {"gpsTOW": (0, 0), "qzssTOW": (0, 0), "bdsTOW": (-14000, -14000),
                       "gloTOW": (10800000 - 64000, 10800000)}
            for field, (low, high) in allowed.items():
                recorded = getattr(old, field)
                apart = signed(recorded - old.gpsTOW)
                is_time = gps_set and low - 1000 <= apart <= high + 1000
                expected = ((recorded + round_half_away(self.shift, 10 ** 6)) % WEEK_MS
                            if is_time else recorded)
                if getattr(new, field) != expected:
                    self.problem(f"{name}: {field} {getattr(new, field)}, expected {expected}")
                self.count("ubxMeasurementTimes" if is_time else "ubxMeasurementNoTimes")
        if name == "RXM-RAWX":
            got = new.week * 604800 + new.rcvTow
            if abs(got - (old.week * 604800 + old.rcvTow + self.shift / 1e9)) > 1e-6:
                self.problem(f"{name}: rcvTow {new.week} {new.rcvTow}")
            self.count("ubxRaw")

    def ubx_position(self, name, old, new):
        if name in ("NAV-PVT", "NAV-POSLLH"):
            lat, lon = self.moved(old.lat, old.lon)
            error = max(abs(new.lat - lat), abs(new.lon - lon)) / 1e-7
            self.worst["positionDigits"] = max(self.worst["positionDigits"], error)
            if error > 0.5 + 1e-6:
                self.problem(f"{name}: {new.lat},{new.lon} expected {lat},{lon}")
            self.count("ubxPositions")
        if name == "NAV-HPPOSLLH":
            # pyubx2 adds the 1e-9° parts into lat and lon.
            lat, lon = self.moved(old.lat, old.lon)
            line = WGS84.Inverse(lat, lon, new.lat, new.lon)
            self.worst["highPrecisionMeters"] = max(self.worst["highPrecisionMeters"], line["s12"])
            if line["s12"] > 0.001:
                self.problem(f"{name}: {line['s12']} m from the expected point")
            self.count("ubxHighPrecisionPositions")
        if name in ("NAV-POSECEF", "NAV-SOL", "NAV-HPPOSECEF"):
            def point(m):  # cm, with the 0.1 mm parts added by pyubx2
                return [getattr(m, "ecef" + a) / 100 for a in "XYZ"]
            lat, lon, h = geodetic(*point(old))
            expected = ecef(*self.moved(lat, lon), h)
            error = math.dist(expected, point(new))
            worst, limit = ("highPrecisionMeters", 0.001) if name == "NAV-HPPOSECEF" else \
                ("ecefMeters", 0.01)
            self.worst[worst] = max(self.worst[worst], error)
            if error > limit:
                self.problem(f"{name}: ECEF {error} m from the expected point")
            self.count("ubxEarthCentered")


def round_half_away(value, unit):
    return (abs(value) + unit // 2) // unit * (1 if value >= 0 else -1)


def valid_checksum(text):
    if "*" not in text or not text.startswith("$"):
        return False
    body, _, digits = text[1:].partition("*")
    value = 0
    for ch in body:
        value ^= ord(ch)
    return digits[:2].upper() == f"{value:02X}"


def nmea_degrees(field):
    whole, minutes = divmod(float(field), 100)
    return whole + minutes / 60


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    oracle = Oracle(spec)
    for kind, before, after in spec["pairs"]:
        before, after = bytes.fromhex(before), bytes.fromhex(after)
        if kind == "nmea":
            oracle.nmea(before, after)
        else:
            oracle.ubx(before, after)
    print(json.dumps({"counts": oracle.counts, "problems": oracle.problems, "worst": oracle.worst}))


if __name__ == "__main__":
    main()
