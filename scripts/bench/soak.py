#!/usr/bin/env python3
"""The soak of scripts/soak: many receivers in one process for a while, then three checks.

Usage: soak.py --binary MOCKGPS --minutes M --out DIR [--devices 100] [--time-scale 60]

Starts one `mockgps run --config` with DEVICES devices at 1 Hz of simulated time and the given
time scale (60 epochs a second each), every device read by many.c's reader (one descriptor per
device, one process). Every 10 s it samples mockgps's resident memory (VmRSS) and open
descriptors (/proc/PID/fd). At the end it sends SIGTERM and checks, printing one line for each
device that fails:
- every epoch is accounted for exactly once: in each device's summary, sent + without a client
  + dropped for unread data + skipped late + cut short = the epochs due, with no tolerance;
- the epochs due are the span's: a scaled device's first epoch is the first whole wire second
  after it was made (mockgps is launched just after a whole second and has made every device
  before the next, so that second is known to the nanosecond), and its last is before it
  stopped, between the SIGTERM and mockgps's exit (it stops its devices one after another).
  So the due count lies between the grid instants from the first epoch to the SIGTERM and
  those to the exit, less at most LAG_SECONDS of epochs that the scheduler thread had not yet
  reached when the device stopped (the largest shortfall is printed);
- at most a quarter of the epochs are late or cut short (the share is printed);
- the resident memory is flat: every sample of the last third within 5 % (and 1 MB) of the
  first sample after the warm-up (a third of the run, at most 60 s);
- no descriptor leaks: the count is the same in every sample after the warm-up.
Exits 0, or 1. Python 3 standard library only.
"""
import argparse
import math
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from many import status, wait_for_lines  # noqa: E402

LATE_SHARE_LIMIT = 0.25
# How far behind the wall clock a device's scheduler may be when it stops: epochs due before
# the SIGTERM that it had not reached are in no count, not even the due one. Under load the
# one scheduler thread runs a few to a few tens of milliseconds late.
LAG_SECONDS = 0.1
# How far into a wire second mockgps is launched: it must make every device before the next.
LAUNCH_OFFSET_SECONDS = 0.02
LAUNCH_ATTEMPTS = 3
SUMMARY = re.compile(
    r"mockgps: (\S+): sent (\d+) epochs to \d+ client connections, (\d+) without a client; "
    r"(\d+) dropped for unread data, (\d+) late, (\d+) cut short, of (\d+) due")


def fail(reason):
    print(f"soak: FAIL: {reason}")
    sys.exit(1)


def grid_epochs(origin, until, epochs_per_second):
    """Epochs on the wire grid from `origin` (a whole second, the first) through `until`."""
    return max(0, math.floor((until - origin) * epochs_per_second + 1e-9) + 1)


def launch(binary, config, errors_path, devices):
    """Starts mockgps just after a whole wire second and waits until it has made and started
    every device; returns the process and that second (every device's origin), or fails."""
    for _ in range(LAUNCH_ATTEMPTS):
        now = time.time()
        time.sleep(math.floor(now) + 1 + LAUNCH_OFFSET_SECONDS - now)
        launched = time.time()
        process = subprocess.Popen([binary, "run", "--config", config], stdout=subprocess.PIPE,
                                   stderr=open(errors_path, "w"), text=True)
        if not wait_for_lines(process, devices, 120):
            process.kill()
            process.wait()
            fail(f"mockgps did not start its {devices} devices (see {errors_path})")
        started = time.time()
        if math.floor(started) == math.floor(launched):
            return process, math.floor(launched) + 1
        print(f"soak: starting {devices} devices took {started - launched:.2f} s, past a whole "
              f"second: their first epochs are not on one second; launching again")
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    fail(f"mockgps did not start {devices} devices within one second in {LAUNCH_ATTEMPTS} tries")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument("--devices", type=int, default=100)
    parser.add_argument("--time-scale", type=float, default=60)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    reader_binary = os.path.join(args.out, "many")
    subprocess.run(["cc", "-O2", "-o", reader_binary, os.path.join(HERE, "many.c")], check=True)
    links = [os.path.join(args.out, f"gps{i}") for i in range(args.devices)]
    config = os.path.join(args.out, "soak.json")
    with open(config, "w") as f:
        f.write('{"devices": [\n' + ",\n".join(
            f'  {{"link": "{link}", "position": [{40 + i * 0.01:.2f}, {i * 0.01:.2f}], '
            f'"time-scale": {args.time_scale:g}, "baud": 115200}}'
            for i, link in enumerate(links)) + "\n]}\n")
    errors_path = os.path.join(args.out, "mockgps.err")
    process, origin = launch(args.binary, config, errors_path, args.devices)
    seconds = args.minutes * 60
    try:
        started = time.monotonic()
        reader = subprocess.Popen(
            [reader_binary, "read", str(seconds), str(args.time_scale), "0"] + links,
            stdout=subprocess.DEVNULL)
        samples = []  # (seconds since start, VmRSS kB, descriptors)
        while time.monotonic() - started < seconds:
            time.sleep(min(10, max(0, seconds - (time.monotonic() - started))))
            if process.poll() is not None:
                fail(f"mockgps exited early with {process.returncode} (see {errors_path})")
            samples.append((time.monotonic() - started, int(status(process.pid)["VmRSS"]),
                            len(os.listdir(f"/proc/{process.pid}/fd"))))
        terminated = time.time()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        exited = time.time()
        reader.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    with open(errors_path) as f:
        summaries = {m.group(1): [int(g) for g in m.groups()[1:]]
                     for m in SUMMARY.finditer(f.read())}
    if process.returncode != 0:
        fail(f"mockgps exited with {process.returncode} (see {errors_path})")
    if len(summaries) != args.devices:
        fail(f"{len(summaries)} device summaries for {args.devices} devices (see {errors_path})")
    rate = args.time_scale  # epochs a wire second: 1 Hz of simulated time, scaled
    at_signal = grid_epochs(origin, terminated, rate)
    at_exit = grid_epochs(origin, exited, rate)
    lag_epochs = math.ceil(LAG_SECONDS * rate)
    failures = []
    late_total = sent_total = shortfall = 0
    for link, (sent, without, overrun, late, cut, due) in summaries.items():
        counted = sent + without + overrun + late + cut
        late_total += late + cut
        sent_total += sent
        shortfall = max(shortfall, at_signal - due)
        parts = (f"{sent} sent, {without} without a client, {overrun} dropped, {late} late, "
                 f"{cut} cut short")
        if counted != due:
            failures.append(f"{link}: {counted} epochs accounted ({parts}) for {due} due")
        elif not at_signal - lag_epochs <= due <= at_exit:
            failures.append(
                f"{link}: {due} epochs due, but the grid from its first epoch at "
                f"{time.strftime('%H:%M:%S', time.gmtime(origin))} has {at_signal} by the "
                f"SIGTERM and {at_exit} by the exit ({at_signal - lag_epochs} allowing "
                f"{LAG_SECONDS:g} s of lag)")
        elif late + cut > LATE_SHARE_LIMIT * max(counted, 1):
            failures.append(f"{link}: {late} epochs late and {cut} cut short of {counted}")
    warmup = min(60, seconds / 3)
    steady = [s for s in samples if s[0] >= warmup]
    if len(steady) < 2:
        failures.append(f"too few samples after the {warmup:.0f} s warm-up; run longer")
    else:
        base_time, base_rss, base_fds = steady[0]
        leak = next((s for s in steady if s[2] != base_fds), None)
        if leak:
            failures.append(f"descriptors went from {base_fds} at {base_time:.0f} s to {leak[2]} "
                            f"at {leak[0]:.0f} s")
        last_third = [s for s in steady if s[0] >= seconds * 2 / 3] or steady[-1:]
        growth = next((s for s in last_third if s[1] > base_rss * 1.05 + 1024), None)
        if growth:
            failures.append(f"RSS grew from {base_rss / 1024:.1f} MB at {base_time:.0f} s to "
                            f"{growth[1] / 1024:.1f} MB at {growth[0]:.0f} s")
    for failure in failures:
        print(f"soak: FAIL: {failure}")
    if failures:
        sys.exit(1)
    share = 100 * late_total / max(1, late_total + sent_total)
    print(f"soak: ok: {args.devices} devices for {terminated - origin:.1f} s at time scale "
          f"{args.time_scale:g}: every epoch accounted, {at_signal} due by the SIGTERM and up to "
          f"{at_exit} by the exit ({exited - terminated:.2f} s later), largest shortfall "
          f"{max(shortfall, 0)}; {sent_total} sent, {late_total} ({share:.1f} %) late or cut "
          f"short; RSS {base_rss / 1024:.1f} -> {samples[-1][1] / 1024:.1f} MB, {base_fds} "
          f"descriptors throughout")


if __name__ == "__main__":
    main()
