#!/usr/bin/env python3
"""Decodes an RTCM 3 byte stream with pyrtcm, an independent parser, and prints it as JSON.

Usage: decode_rtcm.py FILE
CRCs are validated (VALCKSUM); pyrtcm skips bytes outside frames silently, so the output also
gives the file's size ("bytes") and the bytes of the frames read ("framedBytes"). Prints
{"errors": [...], "messages": [...], "bytes": N, "framedBytes": N} where each message has its identity,
every data field pyrtcm decoded (DFnnn, scaled to their units as pyrtcm scales them) and, for
MSMs, pyrtcm's own parse_msm arrays: "msm" with "satellites" (PRN, DF397, DF398, DF399,
ExtSatInfo) and "cells" (CELLPRN, CELLSIG, DF400-DF408, DF420).
The process gives up after 60 s (SIGALRM), so a hang cannot stall the test that runs it.
"""
import json
import signal
import sys

from pyrtcm import VALCKSUM, RTCMReader
from pyrtcm.rtcmhelpers import parse_msm

signal.alarm(60)


def plain(value):
    if isinstance(value, (int, float, str)) or value is None:
        return value
    return str(value)


def describe(message):
    out = {"identity": message.identity}
    for name, value in vars(message).items():
        if not name.startswith("_"):
            out[name] = plain(value)
    if getattr(message, "ismsm", False):
        meta, satellites, cells = parse_msm(message)
        out["msm"] = {
            "station": meta["station"], "epoch": meta["epoch"],
            "satellites": [{k: plain(v) for k, v in s.items()} for s in satellites],
            "cells": [{k: plain(v) for k, v in c.items()} for c in cells],
        }
    return out


def main():
    errors, messages, framed = [], [], 0
    with open(sys.argv[1], "rb") as stream:
        reader = RTCMReader(stream, validate=VALCKSUM, quitonerror=1,
                            errorhandler=lambda error: errors.append(str(error)))
        for raw, message in reader:
            if message is not None:
                framed += len(raw)
                messages.append(describe(message))
        size = stream.tell()
    print(json.dumps({"errors": errors, "messages": messages, "bytes": size,
                      "framedBytes": framed}))


if __name__ == "__main__":
    main()
