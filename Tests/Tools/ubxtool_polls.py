#!/usr/bin/env python3
"""Runs gpsd's real ubxtool against a u-blox device, one request at a time, and checks each
answer twice: in ubxtool's own decoding, and independently by sending the same request bytes
and decoding the chip's answer with pyubx2.

    ubxtool_polls.py --chip m8|f9p [--baud N] DEVICE [REQUEST...]

REQUEST names a row of REQUESTS (default: every row for the chip). Prints one line per
request and, last, a JSON object {request: "ok" | what went wrong}. Exit status 0 when every
request was answered as the chip answers.

What ubxtool sends was read from gpsd 3.22's /usr/bin/ubxtool and gps/ubx.py: `-p NAME` is a
poll of the message with an empty payload (CFG-INF: one poll per protocol, UBX then NMEA;
CFG-PRT: empty, the current port); `-p SAVE` a CFG-CFG save; `-p COLDBOOT` a CFG-RST hardware
reset clearing everything, which no acknowledgement answers (the power-up banner shows it took
effect); `-g ITEM,0` a CFG-VALGET of the RAM layer; `-z ITEM,VAL` a CFG-VALSET to RAM, BBR and
flash; `-x ITEM` a CFG-VALDEL from BBR and flash.
"""

import argparse
import json
import os
import re
import select
import struct
import subprocess
import sys
import time

from autopilot_steps import frame, valget, valset
from ubx_port import Port, split_frames

FACTORY_BAUD = {"m8": 9600, "f9p": 38400}
PROTOCOL = {"m8": "18", "f9p": "27.31"}
DYNMODEL, GPS_ENA = 0x20110021, 0x1031001F
#: What `ubxtool -p SAVE` sends (gps/ubx.py send_cfg_cfg): no clear mask, save and load masks
#: 0x0f1f, device mask BBR, flash, EEPROM and SPI flash.
SAVE_PAYLOAD = bytes((0, 0, 0, 0, 0x1F, 0x0F, 0, 0, 0x1F, 0x0F, 0, 0, 0x17))
#: How long a chip may take to send its power-up banner after a reset.
BANNER_SECONDS = 5.0


def valdel(keys):
    """CFG-VALDEL version 0 of `keys` from BBR and flash, as ubxtool's -x sends it."""
    return frame(0x06, 0x8C, bytes((0, 0x06, 0, 0)) + b"".join(struct.pack("<I", k) for k in keys))


def poll(name, cls, msg_id, chips=("m8", "f9p"), payload=b"", answer="reply"):
    """A `-p NAME` row: ubxtool's poll and the reply message it must print (or, with
    answer="nak", the UBX-ACK-NAK naming the poll: a message the chip does not know)."""
    return {"name": name, "chips": chips, "args": ["-p", name], "answer": answer,
            "block": f"UBX-{name}", "request": frame(cls, msg_id, payload), "reply": (cls, msg_id)}


def item(name, args, request, answer, block, reply=None):
    """A configuration database row (F9P only): VALGET, VALSET or VALDEL."""
    return {"name": name, "chips": ("f9p",), "args": args, "answer": answer, "block": block,
            "request": request, "reply": reply}


REQUESTS = [
    poll("NAV-PVT", 0x01, 0x07), poll("NAV-SAT", 0x01, 0x35), poll("NAV-STATUS", 0x01, 0x03),
    poll("NAV-SOL", 0x01, 0x06, chips=("m8",)), poll("NAV-DOP", 0x01, 0x04),
    poll("NAV-TIMEGPS", 0x01, 0x20), poll("MON-HW", 0x0A, 0x09), poll("MON-GNSS", 0x0A, 0x28),
    poll("MON-RF", 0x0A, 0x38, chips=("f9p",)), poll("MON-COMMS", 0x0A, 0x36, chips=("f9p",)),
    poll("MON-VER", 0x0A, 0x04), poll("CFG-GNSS", 0x06, 0x3E), poll("CFG-NAV5", 0x06, 0x24),
    poll("CFG-TP5", 0x06, 0x31), poll("CFG-SBAS", 0x06, 0x16), poll("CFG-NMEA", 0x06, 0x17),
    poll("CFG-INF", 0x06, 0x02, payload=b"\x00"), poll("CFG-ANT", 0x06, 0x13),
    poll("CFG-PMS", 0x06, 0x86, chips=("m8",)),
    # The ZED-F9P has no power save modes: its interface description (HPG 1.32) lists no
    # UBX-CFG-PMS among the legacy CFG messages it still takes, so it NAKs the poll.
    poll("CFG-PMS", 0x06, 0x86, chips=("f9p",), answer="nak"), poll("CFG-RATE", 0x06, 0x08),
    poll("CFG-PRT", 0x06, 0x00),
    item("VALGET CFG-NAVSPG-DYNMODEL", ["-g", "CFG-NAVSPG-DYNMODEL,0"], valget([DYNMODEL]),
         "reply", "UBX-CFG-VALGET", (0x06, 0x8B)),
    item("VALGET CFG-SIGNAL-GPS_ENA", ["-g", "CFG-SIGNAL-GPS_ENA,0"], valget([GPS_ENA]),
         "reply", "UBX-CFG-VALGET", (0x06, 0x8B)),
    item("VALSET CFG-NAVSPG-DYNMODEL", ["-z", "CFG-NAVSPG-DYNMODEL,4"],
         valset([(DYNMODEL, "E1", 4)], layers=0x07), "ack", "VALSET"),
    item("VALSET CFG-SIGNAL-GPS_ENA", ["-z", "CFG-SIGNAL-GPS_ENA,1"],
         valset([(GPS_ENA, "L", 1)], layers=0x07), "ack", "VALSET"),
    item("VALDEL CFG-NAVSPG-DYNMODEL", ["-x", "CFG-NAVSPG-DYNMODEL"], valdel([DYNMODEL]),
         "ack", "VALDEL"),
    # -p SAVE: CFG-CFG saving (and loading) every section to BBR, flash and EEPROM.
    {"name": "SAVE", "chips": ("m8", "f9p"), "args": ["-p", "SAVE"], "answer": "ack",
     "block": "CFG-CFG", "request": frame(0x06, 0x09, SAVE_PAYLOAD), "reply": None},
    # -p COLDBOOT: CFG-RST clearing everything, hardware reset. Never acknowledged; the chip
    # powers up again (its banner) and starts cold. Last: it resets the configuration.
    {"name": "COLDBOOT", "chips": ("m8", "f9p"), "args": ["-p", "COLDBOOT"],
     "answer": "restart", "block": "CFG-RST",
     "request": frame(0x06, 0x04, b"\xff\xff\x00\x00"), "reply": None},
]


def blocks(output):
    """ubxtool's output cut into (header, body) blocks: `UBX-NAV-PVT:` and its lines."""
    found = []
    for line in output.splitlines():
        if re.match(r"^UBX-[A-Z0-9-]+:", line):
            found.append([line.rstrip(":"), ""])
        elif found and line.startswith(" "):
            found[-1][1] += line + "\n"
    return found


def via_ubxtool(row, device, baud, chip):
    """Runs ubxtool for the row; returns None when its output shows the answer, else why not."""
    command = ["ubxtool", "-f", device, "-s", str(baud), "-P", PROTOCOL[chip], "-w", "1.5",
               *row["args"]]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        return "ubxtool did not finish in 20 s"
    except FileNotFoundError:
        return "ubxtool is not installed (gpsd-clients)"
    parsed = blocks(done.stdout)
    pattern = re.compile(rf"Class x{row['request'][2]:02x} \(\w+\) ID x{row['request'][3]:02x} ")

    def names_request(body):
        return pattern.search(body) is not None

    naked = any(h == "UBX-ACK-NAK" and names_request(body) for h, body in parsed)
    acked = any(h == "UBX-ACK-ACK" and names_request(body) for h, body in parsed)
    if row["answer"] == "restart":
        return "ubxtool shows an acknowledgement" if naked or acked else None
    if row["answer"] == "nak":
        return None if naked else f"no ACK-NAK to {row['block']} in ubxtool's output"
    if naked:
        return "ubxtool shows ACK-NAK"
    if row["answer"] == "reply":
        if not any(h == row["block"] for h, _ in parsed):
            return f"no {row['block']} in ubxtool's output ({done.stderr.strip()[:200]})"
    elif not acked:
        return f"no ACK-ACK to {row['block']} in ubxtool's output"
    return None


def restarted(port, request):
    """Sends a reset; None when no acknowledgement comes and the chip's power-up banner (a TXT
    sentence naming u-blox) follows within BANNER_SECONDS, else what went wrong."""
    port.flush_input()
    port.write(request)
    raw = bytearray()
    deadline = time.monotonic() + BANNER_SECONDS
    while time.monotonic() < deadline and not re.search(rb"TXT,[^\r]*u-blox", raw):
        ready, _, _ = select.select([port.fd], [], [], 0.05)
        if ready:
            try:
                raw.extend(os.read(port.fd, 65536))
            except (BlockingIOError, InterruptedError, OSError):
                time.sleep(0.01)
    answers = [f for f in split_frames(bytearray(raw)) if f.cls == 0x05
               and f.payload[:2] == bytes(request[2:4])]
    if answers:
        return f"the chip acknowledged the reset ({answers[0].identity})"
    if not re.search(rb"TXT,[^\r]*u-blox", raw):
        return f"no power-up banner within {BANNER_SECONDS} s"
    return None


def via_pyubx2(row, port):
    """Sends the row's request bytes; returns None when pyubx2 decodes the right answer."""
    if row["answer"] == "restart":
        return restarted(port, row["request"])
    port.pump(0.05)
    port.write(row["request"])
    outcome, answer = port.answer(row["request"][2], row["request"][3], 1.5, row["reply"])
    if answer is not None and answer.error:
        return f"pyubx2 cannot decode the {answer.identity} answer: {answer.error}"
    if outcome != row["answer"]:
        return f"pyubx2 saw {outcome}, expected {row['answer']}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--chip", choices=["m8", "f9p"], required=True)
    parser.add_argument("--baud", type=int)
    parser.add_argument("device")
    parser.add_argument("requests", nargs="*")
    args = parser.parse_args()
    baud = args.baud or FACTORY_BAUD[args.chip]
    rows = [r for r in REQUESTS if args.chip in r["chips"]]
    unknown = set(args.requests) - {r["name"] for r in rows}
    if unknown:
        print(f"unknown request(s) for {args.chip}: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 64
    if args.requests:
        rows = [r for r in rows if r["name"] in args.requests]
    verdicts = {}
    for row in rows:
        problem = via_ubxtool(row, args.device, baud, args.chip)
        port = Port(args.device, baud)
        try:
            independent = via_pyubx2(row, port)
        finally:
            port.close()
        verdicts[row["name"]] = "; ".join(p for p in (problem, independent) if p) or "ok"
        print(f"{row['name']:<28} {verdicts[row['name']]}")
    print(json.dumps(verdicts))
    return 0 if all(v == "ok" for v in verdicts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
