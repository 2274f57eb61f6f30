#!/usr/bin/env python3
"""gpsd 3.22's own drivers against a device: what gpsd and gpsctl send must be accepted as the
real chip accepts it.

    gpsd_drivers.py probe DEVICE [--nak CLASS-ID...]
                                            gpsd -N -D 6 (no -b) for 15 s: it identifies the
                                            u-blox and configures it; the only UBX-ACK-NAKs are
                                            to CFG-MSG of the messages --nak names (hex, 01-06
                                            for NAV-SOL), each of which is NAK'd
    gpsd_drivers.py gpsctl DEVICE SPEED [--modes]
                                            gpsctl -s SPEED, then (with --modes) -b and -n;
                                            after each, gpsctl identifies the chip at SPEED and
                                            the device, read at SPEED, carries what the mode says

    gpsd_drivers.py identify DEVICE NAME    gpsctl's probe (gpsd's drivers' probes: PMTK605 for
                                            the MTK-3301) names the chip NAME

Each check prints its evidence; exit status 0 when all hold, 1 otherwise.
"""

import argparse
import os
import re
import select
import socket
import subprocess
import sys
import tempfile
import time

from ubx_port import Port, split_frames

PROBE_SECONDS = 15


def free_port():
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answered_requests(log):
    """gpsd's UBX requests in its -D 6 log paired, in order, with the chip's ACK or NAK:
    [(request payload hex, "ACK" | "NAK")] for CFG-MSG, and ("class CC id II", "NAK") for
    a NAK of anything else. The chip answers CFG-MSG in the order it receives them."""
    pending, answers = [], []
    for line in log.splitlines():
        written = re.search(r"=> GPS: b5620601([0-9a-f]{4})([0-9a-f]*)$", line)
        if written:
            length = int.from_bytes(bytes.fromhex(written.group(1)), "little")
            pending.append(written.group(2)[: 2 * length])
            continue
        answer = re.search(r"UBX-ACK-(ACK|NAK), class: ([0-9a-f]{2}), id: ([0-9a-f]{2})", line)
        if not answer:
            continue
        kind, cls, msg_id = answer.groups()
        if (cls, msg_id) == ("06", "01"):
            answers.append((pending.pop(0) if pending else "(no request left)", kind))
        elif kind == "NAK":
            answers.append((f"class {cls} id {msg_id}", kind))
    return answers


def probe(device, expected_naks):
    """gpsd without -b probes and configures the chip; true when it identified a u-blox and
    the chip NAK'd exactly the CFG-MSG of the messages in `expected_naks` ("01-06")."""
    with tempfile.TemporaryDirectory() as folder:
        command = ["gpsd", "-N", "-n", "-D", "6", "-S", str(free_port()),
                   "-F", os.path.join(folder, "gpsd.sock"), device]
        try:
            done = subprocess.run(command, capture_output=True, text=True,
                                  timeout=PROBE_SECONDS)
            log = done.stderr
        except subprocess.TimeoutExpired as stopped:
            log = (stopped.stderr or b"").decode(errors="replace")
    identified = "UBX identified" in log
    answers = answered_requests(log)
    naks = [request for request, kind in answers if kind == "NAK"]
    print(f"gpsd identified a u-blox: {identified}; CFG-MSG answered: {len(answers)}; "
          f"UBX-ACK-NAK: {len(naks)}")
    for request in naks[:20]:
        print("  NAK to CFG-MSG " + " ".join(request[i:i + 2] for i in range(0, len(request), 2)))
    wanted = {m.replace("-", "").lower() for m in expected_naks}
    unexpected = [r for r in naks if r[:4] not in wanted]
    missing = sorted(m for m in wanted if not any(r[:4] == m for r in naks))
    for message in missing:
        print(f"  no NAK to CFG-MSG of {message[:2]}-{message[2:]}")
    return identified and bool(answers) and not unexpected and not missing


def gpsctl(device, arguments):
    """Runs gpsctl on the device directly (-f); returns its output."""
    try:
        done = subprocess.run(["gpsctl", "-f", *arguments, device], capture_output=True, text=True,
                              timeout=30)
        return done.stdout + done.stderr
    except subprocess.TimeoutExpired:
        return "gpsctl did not finish in 30 s"


def traffic(device, speed, seconds=2.5):
    """Reads the device at `speed`: counts of valid NMEA sentences and UBX frames."""
    port = Port(device, speed)
    raw = bytearray()
    try:
        # What the chip had queued when it switched (a sentence half sent) is not its new mode.
        port.pump(0.5)
        port.flush_input()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            ready, _, _ = select.select([port.fd], [], [], 0.05)
            if ready:
                try:
                    raw += os.read(port.fd, 65536)
                except OSError:
                    time.sleep(0.01)
    finally:
        port.close()
    sentences = 0
    for match in re.finditer(rb"\$([A-Z0-9,.\-]+)\*([0-9A-F]{2})\r\n", bytes(raw)):
        value = 0
        for byte in match.group(1):
            value ^= byte
        sentences += value == int(match.group(2), 16)
    return sentences, len(split_frames(raw))


def gpsctl_round_trip(device, speed, modes):
    """gpsctl -s SPEED, then -b and -n; each must leave the chip where gpsctl put it."""
    ok = True
    steps = [(["-s", str(speed)], None)]
    if modes:
        steps += [(["-b"], "binary"), (["-n"], "nmea")]
    for arguments, mode in steps:
        said = gpsctl(device, arguments).strip().splitlines()
        # gpsctl names the driver of the first packet it reads: an NMEA sentence before any
        # UBX frame (it opened between an epoch's frames and its sentences) makes it refuse a
        # mode switch without writing anything ("NMEA0183 devices have no mode switch"), as
        # with a real u-blox; the user runs it again. Where in the epoch it opens decides, and
        # each run takes about as long as the one before: a loaded run's six in a row opened at
        # the same phase of the 1 Hz epochs and all read NMEA first. Each retry waits a
        # different fraction of a second first, so that they open at other phases.
        for attempt in range(5):
            if not (mode and said and "have no mode switch" in said[-1]):
                break
            print(f"gpsctl {' '.join(arguments)}: {said[-1]} (it read NMEA first; again)")
            time.sleep(0.23 * (attempt + 1))
            said = gpsctl(device, arguments).strip().splitlines()
        # What gpsctl left, before identifying again (its probe may reconfigure).
        sentences, frames = traffic(device, speed)
        identified = gpsctl(device, []).strip().splitlines()
        where = identified[-1] if identified else "(nothing)"
        at_speed = f"at {speed} baud" in where
        good = at_speed
        if mode == "binary":
            good = good and frames > 0 and sentences == 0
        elif mode == "nmea":
            good = good and sentences > 0
        else:
            good = good and sentences + frames > 0
        ok = ok and good
        print(f"gpsctl {' '.join(arguments)}: {said[-1] if said else ''}")
        print(f"  then: {where}; read at {speed}: {sentences} NMEA, {frames} UBX"
              f" -> {'ok' if good else 'WRONG'}")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    commands = parser.add_subparsers(dest="command", required=True)
    probe_parser = commands.add_parser("probe")
    probe_parser.add_argument("device")
    probe_parser.add_argument("--nak", action="append", default=[], metavar="CLASS-ID")
    round_trip = commands.add_parser("gpsctl")
    round_trip.add_argument("device")
    round_trip.add_argument("speed", type=int)
    round_trip.add_argument("--modes", action="store_true")
    identify = commands.add_parser("identify")
    identify.add_argument("device")
    identify.add_argument("name")
    args = parser.parse_args()
    if args.command == "identify":
        said = gpsctl(args.device, []).strip().splitlines()
        print(said[-1] if said else "(gpsctl said nothing)")
        ok = bool(said) and f"identified as a {args.name}" in said[-1]
    elif args.command == "probe":
        ok = probe(args.device, args.nak)
    else:
        ok = gpsctl_round_trip(args.device, args.speed, args.modes)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
