#!/usr/bin/env python3
"""The floor of the cadence benchmark: the least a writer can do to deliver epochs on time.

Usage: floor_writer.py RATE LOG LINK [STATS.json]

Takes the first whole epoch (RMC to the next RMC) of LOG, a capture of mockgps's sentences, opens
a pseudo-terminal and links LINK to its slave. Then, for each epoch, it prepares the epoch's bytes
(the time field set to the deadline's, checksums recomputed), sleeps with
clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME) until the deadline (a whole multiple of 1/RATE of
the real-time clock), and writes the whole epoch with one write() to the master. Nothing else
happens between the wake-up and the write, so the deviation a reader measures on LINK is what the
machine and the reader add. Run as root, it takes SCHED_FIFO priority 10, as mockgps's threads do.
Python 3 standard library only; ends on SIGTERM, and then writes to STATS.json, if given, how
late after its deadline each write returned (the writer's share of the floor).
"""
import ctypes
import json
import os
import signal
import sys
import time
import tty

CLOCK_REALTIME = 0
TIMER_ABSTIME = 1
TIME_FIELD = {b"RMC": 1, b"GGA": 1, b"GNS": 1, b"ZDA": 1, b"GLL": 5}


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


def one_epoch(log):
    with open(log, "rb") as f:
        lines = [l.rstrip(b"\r\n") for l in f if l.startswith(b"$")]
    first = next(i for i, l in enumerate(lines) if l[3:6] == b"RMC")
    last = next(i for i in range(first + 1, len(lines)) if lines[i][3:6] == b"RMC")
    return [l.split(b"*", 1)[0] for l in lines[first:last]]  # without checksums


def render(epoch, seconds_of_day):
    """The epoch's bytes with its time fields at `seconds_of_day` (UTC)."""
    hours, rest = divmod(seconds_of_day, 3600)
    minutes, seconds = divmod(rest, 60)
    stamp = b"%02d%02d%05.2f" % (hours, minutes, seconds)
    out = []
    for body in epoch:
        fields = body.split(b",")
        index = TIME_FIELD.get(fields[0][3:])
        if index is not None and len(fields) > index and fields[index]:
            fields[index] = stamp
        body = b",".join(fields)
        checksum = 0
        for byte in body[1:]:
            checksum ^= byte
        out.append(body + b"*%02X\r\n" % checksum)
    return b"".join(out)


def main():
    rate, log, link = float(sys.argv[1]), sys.argv[2], sys.argv[3]
    stats_path = sys.argv[4] if len(sys.argv) > 4 else None
    lateness = []  # ns from each deadline to the return of its write
    epoch = one_epoch(log)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.clock_nanosleep.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.POINTER(Timespec),
                                     ctypes.POINTER(Timespec)]
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        libc.mlockall(3)  # MCL_CURRENT | MCL_FUTURE
    except OSError:
        pass  # not root: the ordinary scheduler
    master, slave = os.openpty()
    tty.setraw(slave)  # keep the slave open, so the master never sees EIO between readers
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.ttyname(slave), link)
    def finish(*_):
        if stats_path and lateness:
            ordered = sorted(lateness)
            with open(stats_path, "w") as f:
                json.dump({"writes": len(ordered), "late_after_deadline_ns": ordered}, f)
        os._exit(0)

    signal.signal(signal.SIGTERM, finish)
    period_ns = round(1e9 / rate)
    deadline = (time.time_ns() // period_ns + 2) * period_ns
    request = Timespec()
    while True:
        data = render(epoch, (deadline // 1_000_000 % 86_400_000) / 1000)
        request.tv_sec, request.tv_nsec = divmod(deadline, 1_000_000_000)
        while libc.clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, ctypes.byref(request), None):
            pass  # EINTR: sleep again until the same deadline
        os.write(master, data)
        now = time.time_ns()
        lateness.append(now - deadline)
        deadline += period_ns
        if deadline <= now:  # fell behind (a stop of the machine): skip to the next deadline
            deadline = (now // period_ns + 1) * period_ns


if __name__ == "__main__":
    main()
