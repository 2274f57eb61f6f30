#!/usr/bin/env python3
"""Reference azimuths and elevations of almanac satellites, computed by RTKLIB (pyrtklib).

Parses Tests/Fixtures/almanac/almanac.yuma.week0149.405504.txt itself, propagates a dozen
satellites with RTKLIB's alm2pos (IS-GPS-200 almanac equations), converts UTC to GPS time with
RTKLIB's utc2gpst (leap seconds), and takes azimuth/elevation with satazel from pos2ecef sites.
Prints Swift literals for Tests/SimulationTests/AlmanacOrbitTests.swift.

Usage: python3 Tests/Tools/almanac_reference.py
"""
import math
import pathlib
import re

import pyrtklib as rtk

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "Fixtures/almanac/almanac.yuma.week0149.405504.txt"
PRNS = [1, 2, 3, 5, 7, 8, 10, 13, 16, 21, 26, 30]
SITES = [("greenwich", 51.4769, 0.0, 46.0), ("sydney", -33.8688, 151.2093, 40.0),
         ("mcmurdo", -77.8419, 166.6863, 10.0), ("quito", -0.1807, -78.4678, 2850.0)]
# UTC times within a day of the toa (week 2197, 405504 s: 2022-02-17T16:38:24 GPS = 16:38:06 UTC).
TIMES = [(2022, 2, 17, 4, 0, 0), (2022, 2, 17, 16, 38, 6), (2022, 2, 18, 9, 15, 30)]


def parse_yuma(text):
    entries = {}
    for block in text.split("********")[1:]:
        fields = dict(re.findall(r"^\s*([^:\n]+):\s*(\S+)\s*$", block, re.M))
        if "ID" in fields:
            entries[int(fields["ID"])] = fields
    return entries


def array(values):
    a = rtk.Arr1Ddouble(len(values))
    for i, v in enumerate(values):
        a[i] = v
    return a


def main():
    entries = parse_yuma(FIXTURE.read_text())
    for (y, mo, d, h, mi, s) in TIMES:
        utc = rtk.epoch2time(array([y, mo, d, h, mi, s]))
        gpst = rtk.utc2gpst(utc)
        for prn in PRNS:
            f = entries[prn]
            alm = rtk.alm_t()
            alm.sat = prn
            alm.svh = int(f["Health"])
            alm.e = float(f["Eccentricity"])
            alm.toas = float(f["Time of Applicability(s)"])
            # YUMA gives the week modulo 1024; 149 is week 2197 in 2022.
            alm.week = int(f["week"]) + 2048
            alm.toa = rtk.gpst2time(alm.week, alm.toas)
            alm.i0 = float(f["Orbital Inclination(rad)"])
            alm.OMGd = float(f["Rate of Right Ascen(r/s)"])
            alm.A = float(f["SQRT(A)  (m 1/2)"]) ** 2
            alm.OMG0 = float(f["Right Ascen at Week(rad)"])
            alm.omg = float(f["Argument of Perigee(rad)"])
            alm.M0 = float(f["Mean Anom(rad)"])
            rs = rtk.Arr1Ddouble(3)
            dts = rtk.Arr1Ddouble(1)
            rtk.alm2pos(gpst, alm, rs, dts)
            for name, lat, lon, height in SITES:
                rr = rtk.Arr1Ddouble(3)
                rtk.pos2ecef(array([math.radians(lat), math.radians(lon), height]), rr)
                e = rtk.Arr1Ddouble(3)
                r = math.sqrt(sum((rs[i] - rr[i]) ** 2 for i in range(3)))
                for i in range(3):
                    e[i] = (rs[i] - rr[i]) / r
                azel = rtk.Arr1Ddouble(2)
                rtk.satazel(array([math.radians(lat), math.radians(lon), height]), e, azel)
                az = math.degrees(azel[0]) % 360
                el = math.degrees(azel[1])
                print(f"  .init(\"{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z\", .{name}, {prn}, "
                      f"azimuth: {az:.3f}, elevation: {el:.3f}),")


if __name__ == "__main__":
    main()
