#!/usr/bin/env python3
"""Decodes a UBX byte stream with pyubx2, an independent parser, and prints what it read as JSON.

Usage: decode_ubx.py FILE
Checksums are validated (VALCKSUM) and only UBX is accepted (protfilter UBX): NMEA or stray bytes
count as errors. Prints {"errors": [...], "messages": [...]} where each message has its identity
and, where it carries them, iTOW, lat, lon (degrees), hMSL, height (m), numSV, pDOP, fixType,
velN/velE/velD (m/s), ecefX/Y/Z (m), week, and for NAV-SAT and NAV-SVINFO the satellites with
gnssId/svid, elev, azim, cno and used; NAV-SIG's signals, NAV-ORB's satellites and
NAV-RELPOSNED's vector, accuracies and flags, the correction flags of NAV-PVT and NAV-STATUS
(diffSoln, carrSoln, lastCorrectionAge, diffCorr, carrSolnValid), NAV-SVIN's survey-in (raw
units: cm, 0.1 mm); NAV-POSLLH's position, NAV-VELNED's velocity, and the
status, clock and monitor fields of NAV-STATUS, NAV-CLOCK and the MON messages, and RXM-RTCM's
flags, station and message type.
"""
import io
import json
import sys

from pyubx2 import UBX_PROTOCOL, VALCKSUM, UBXReader

SCALARS = ["iTOW", "numSV", "fixType", "week", "leapS", "year", "month", "day", "hour", "min",
           "second", "numSvs", "numCh", "sec", "gpsFix", "gpsFixOk", "ttff", "msss", "clkB",
           "clkD", "tAcc", "fAcc", "speed", "aStatus", "aPower", "jamInd", "noisePerMS", "agcCnt",
           "jammingState", "simultaneous", "GPSSup", "GlonassSup", "GPSEna", "GlonassEna",
           "GalileoEna", "BeidouEna", "nBlocks", "nPorts", "antStatus_01", "jamInd_01",
           "noisePerMS_01", "msg2_01", "msg2_02", "rxBytes_02", "msgs_02_01", "magI", "cfgSource",
           "crcFailed", "msgUsed", "subType", "refStation", "msgType"]
DOPS = ["gDOP", "pDOP", "tDOP", "vDOP", "hDOP", "nDOP", "eDOP"]


def describe(message):
    out = {"identity": message.identity}
    for name in SCALARS + DOPS:
        if hasattr(message, name):
            out[name] = getattr(message, name)
    if message.identity in ("NAV-PVT",):
        out.update(lat=message.lat, lon=message.lon, hMSL=message.hMSL / 1000,
                   height=message.height / 1000, velN=message.velN / 1000,
                   velE=message.velE / 1000, velD=message.velD / 1000,
                   gSpeed=message.gSpeed / 1000, headMot=message.headMot,
                   hAcc=message.hAcc / 1000, vAcc=message.vAcc / 1000,
                   nano=message.nano)
    if message.identity == "NAV-POSLLH":
        out.update(lat=message.lat, lon=message.lon, hMSL=message.hMSL / 1000,
                   height=message.height / 1000)
    if message.identity == "NAV-HPPOSLLH":
        # pyubx2 adds the high-precision residues: lat/lon in degrees, heights in mm.
        out.update(lat=message.lat, lon=message.lon, hMSL=message.hMSL / 1000,
                   height=message.height / 1000, invalidLlh=message.invalidLlh,
                   hAcc=message.hAcc / 1000, vAcc=message.vAcc / 1000)
    if message.identity == "NAV-VELNED":
        out.update(velN=message.velN / 100, velE=message.velE / 100, velD=message.velD / 100,
                   gSpeed=message.gSpeed / 100, heading=message.heading)
    if message.identity in ("NAV-POSECEF", "NAV-SOL"):
        out.update(ecefX=message.ecefX / 100, ecefY=message.ecefY / 100, ecefZ=message.ecefZ / 100)
    if message.identity in ("NAV-VELECEF", "NAV-SOL"):
        out.update(ecefVX=message.ecefVX / 100, ecefVY=message.ecefVY / 100,
                   ecefVZ=message.ecefVZ / 100)
    if message.identity == "NAV-SAT":
        out["satellites"] = [
            {"gnssId": getattr(message, f"gnssId_{i:02d}"), "svId": getattr(message, f"svId_{i:02d}"),
             "elev": getattr(message, f"elev_{i:02d}"), "azim": getattr(message, f"azim_{i:02d}"),
             "cno": getattr(message, f"cno_{i:02d}"), "used": getattr(message, f"svUsed_{i:02d}")}
            for i in range(1, message.numSvs + 1)]
    if message.identity == "NAV-SVINFO":
        out["satellites"] = [
            {"svid": getattr(message, f"svid_{i:02d}"), "elev": getattr(message, f"elev_{i:02d}"),
             "azim": getattr(message, f"azim_{i:02d}"), "cno": getattr(message, f"cno_{i:02d}"),
             "used": getattr(message, f"svUsed_{i:02d}")}
            for i in range(1, message.numCh + 1)]
    if message.identity == "NAV-SIG":
        out["signals"] = [
            {name: getattr(message, f"{name}_{i:02d}")
             for name in ("gnssId", "svId", "sigId", "freqId", "cno", "qualityInd", "ionoModel",
                          "health", "prUsed", "doUsed")}
            for i in range(1, message.numSigs + 1)]
    if message.identity == "NAV-ORB":
        out["satellites"] = [
            {name: getattr(message, f"{name}_{i:02d}")
             for name in ("gnssId", "svId", "health", "visibility", "ephUsability", "ephSource",
                          "almUsability", "almSource")}
            for i in range(1, message.numSv + 1)]
    if message.identity == "NAV-RELPOSNED":
        out.update({name: getattr(message, name)
                    for name in ("version", "gnssFixOK", "diffSoln", "relPosValid", "carrSoln",
                                 "relPosN", "relPosE", "relPosD", "relPosLength", "relPosHeading",
                                 "accN", "accE", "accD", "accLength", "refStationID",
                                 "relPosHeadingValid", "isMoving", "refPosMiss",
                                 "refObsMiss")})
    if message.identity == "NAV-SVIN":
        out.update({name: getattr(message, name)
                    for name in ("dur", "meanX", "meanY", "meanZ", "meanXHP", "meanYHP",
                                 "meanZHP", "meanAcc", "obs", "valid", "active")})
    if message.identity in ("NAV-PVT", "NAV-STATUS"):
        out.update({name: getattr(message, name)
                    for name in ("diffSoln", "carrSoln", "lastCorrectionAge", "diffCorr",
                                 "carrSolnValid")
                    if hasattr(message, name)})
    return out


def main():
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    errors, messages = [], []

    def on_error(error):
        errors.append(str(error))

    reader = UBXReader(io.BytesIO(data), protfilter=UBX_PROTOCOL, validate=VALCKSUM,
                       quitonerror=1, errorhandler=on_error)
    consumed = 0
    for raw, parsed in reader:
        consumed += len(raw)
        if parsed is None:
            errors.append(f"unparsed bytes {raw[:16].hex()}")
            continue
        messages.append(describe(parsed))
    if consumed != len(data):
        errors.append(f"{len(data) - consumed} of {len(data)} bytes not in a UBX message")
    json.dump({"errors": errors, "messages": messages}, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
