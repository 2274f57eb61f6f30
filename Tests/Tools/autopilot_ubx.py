#!/usr/bin/env python3
"""Replays an autopilot's u-blox driver against a serial device and reports each step.

    autopilot_ubx.py --driver px4|ardupilot --chip m8|f9p [--baud N] DEVICE

The device's line speed is set with termios at each baud the driver tries, as the driver
does. Each step is printed with the baud it ran at, the chip's outcome (ack, nak, reply,
silent, garbled) and what a real chip answers there. Then it listens: the messages the
driver asked for must arrive at the rates it set, and a 3D fix (NAV-PVT fixType 3,
gnssFixOK) must come within 2 s. Exit status 0 only when every step was answered as a real
chip answers, the driver ended at the baud a real chip ends at, the rates hold and the fix
follows; 1 otherwise; 2 on a usage error (argparse).
"""

import argparse
import sys
import time

import autopilot_ardupilot as ardupilot
import autopilot_px4 as px4
from autopilot_steps import Step, run
from ubx_port import Port

#: The baud each chip's UART1 comes up at.
FACTORY_BAUD = {"m8": 9600, "f9p": 38400}
LISTEN_SECONDS = 3.0
FIX_SECONDS = 2.0


def px4_sequence(port, chip, chip_baud, results):
    """PX4's search then configuration; returns the rates to check and the baud it ends at."""
    for baud in px4.BAUDS:
        port.set_speed(baud)
        port.flush_input()
        probe_valset, probe_prt = px4.search_steps(baud, chip_baud, chip)
        if run(port, probe_valset, results).outcome == "ack":
            steps, path = px4.valset_steps(), "valset"
            break
        if run(port, probe_prt, results).outcome == "ack":
            steps, path = px4.legacy_steps(baud), "legacy"
            break
    else:
        return None, port.baud
    for step in steps:
        run(port, step, results)
    return px4.RATES[path], port.baud


def ardupilot_detect(port, results):
    """ArduPilot's detection: the blob at each baud, the first UBX frame, then its first poll
    must be answered or the driver has lost the chip and searches on. Returns the baud."""
    for _ in range(2):
        for baud in ardupilot.BAUDS:
            port.set_speed(baud)
            port.flush_input()
            port.write(ardupilot.BLOB)
            seen = port.wait(lambda frame: True, 1.2)
            if seen is None:
                continue
            probe = ardupilot.rate_step("PVT", "", {"port": 1, "pvt_seen": lambda: False,
                                                    "sets": 0})
            probe = Step(f"first poll after a UBX frame at {baud}", probe.frame, "reply",
                         {"reply"}, reply=probe.reply, reply_starts=probe.reply_starts,
                         timeout=1.2, listen_on=False)
            outcome = run(port, probe, results).outcome
            if outcome == "reply":
                return baud
            results.pop()  # a driver that lost the chip re-detects; not a chip error
    return None


def ardupilot_sequence(port, chip, results):
    """ArduPilot's detection then its poll-and-set cycles until nothing needs setting."""
    baud = ardupilot_detect(port, results)
    if baud is None:
        return None, port.baud
    start = len(port.frames)
    state = {"port": 1, "sets": 0, "pass": 0,
             "pvt_seen": lambda: any(f.identity == "NAV-PVT" for f in port.frames[start:])}
    for number in range(3):
        state["pass"], state["sets"] = number, 0
        for step in ardupilot.cycle(chip, state):
            step.timeout = 0.3
            run(port, step, results)
        if state["sets"] == 0:
            break
    else:
        results.append(None)  # the chip never kept what it was told
    return ardupilot.RATES, port.baud


def listen(port, rates):
    """Reads for LISTEN_SECONDS; returns report lines and whether rates and fix are right."""
    start = time.monotonic()
    frames = port.pump(LISTEN_SECONDS)
    ok, lines = True, []
    fix = next((f for f in frames if f.identity == "NAV-PVT" and f.parsed is not None
                and f.parsed.fixType == 3 and f.parsed.gnssFixOk == 1), None)
    if fix is None or fix.at - start > FIX_SECONDS:
        ok = False
        lines.append(f"no 3D fix in NAV-PVT within {FIX_SECONDS} s")
    else:
        lines.append(f"3D fix after {fix.at - start:.2f} s")
    for name, hz in sorted(rates.items()):
        count = sum(1 for f in frames if f.identity == name)
        measured = count / LISTEN_SECONDS
        good = abs(measured - hz) <= 0.2 * hz + 1.0 / LISTEN_SECONDS
        ok = ok and good
        lines.append(f"{name:<13} {measured:5.2f} Hz (set {hz} Hz) {'ok' if good else 'WRONG'}")
    errors = [f for f in frames if f.error]
    for f in errors[:5]:
        lines.append(f"undecodable {f.identity}: {f.error}")
    return ok and not errors, lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--driver", choices=["px4", "ardupilot"], required=True)
    parser.add_argument("--chip", choices=["m8", "f9p"], required=True)
    parser.add_argument("--baud", type=int, help="the chip's baud now (default: factory)")
    parser.add_argument("device")
    args = parser.parse_args()
    chip_baud = args.baud or FACTORY_BAUD[args.chip]
    results = []
    port = Port(args.device, chip_baud)
    try:
        if args.driver == "px4":
            rates, final = px4_sequence(port, args.chip, chip_baud, results)
            wanted = 115200
        else:
            rates, final = ardupilot_sequence(port, args.chip, results)
            wanted = ardupilot.WORKING_BAUD
        ok = True
        print(f"{args.driver} on {args.chip} (chip at {chip_baud} baud)")
        for number, result in enumerate(results, 1):
            if result is None:
                ok = False
                print("    the settings did not hold: still setting after 3 cycles")
                continue
            ok = ok and result.ok
            print(result.line(number))
        if rates is None:
            print("the driver found no u-blox at any baud")
            return 1
        if final != wanted:
            ok = False
            print(f"ended at {final} baud; with a real chip the driver ends at {wanted}")
        heard, lines = listen(port, rates)
        print("\n".join(lines))
        ok = ok and heard
        print("PASS" if ok else "FAIL")
        return 0 if ok else 1
    finally:
        port.close()


if __name__ == "__main__":
    sys.exit(main())
