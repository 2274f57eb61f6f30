#!/usr/bin/env python3
"""Epoch timing of an NMEA stream: when the first byte of each epoch arrives, and how far apart.

Usage: epoch_timing.py PATH --seconds S --nominal INTERVAL [--label L] [--out FILE.json]

Opens PATH (a tty, PTY or link to one) raw and non-blocking, drops what was waiting in it, and
reads it for S seconds, stamping every read with the monotonic clock as soon as it returns. A
sentence is stamped with the read that delivered its first byte ('$' or '!').

Epochs are grouped by the UTC time field (RMC, GGA, GNS, ZDA, GLL): a sentence whose time differs
from the current epoch's begins the next one. Sentences without a time (GSA, GSV, VTG, ...) that
come between two epochs go to the next one if the widest gap before the next timed sentence lies
before them, else to the previous one, so an epoch begins with the first sentence after the gap
between epochs whatever the order of sentences. The first and the last epoch, which may be partial,
are left out; the interval of an epoch is from its first byte to the next epoch's, and its
deviation is |interval - nominal|. Percentiles interpolate linearly between closest ranks.

Run as root, the reader takes SCHED_FIFO (priority 20 unless --priority says otherwise) and locks
its memory, so its own wake-ups add as little as the machine allows; the summary says which
scheduling it ran under. Python 3 standard library only. Exit status 0 if any sentence was read,
2 otherwise.
"""
import argparse
import ctypes
import json
import os
import select
import sys
import termios
import time
import tty

# Address type -> index of its UTC time field.
TIME_FIELD = {"RMC": 1, "GGA": 1, "GNS": 1, "ZDA": 1, "GLL": 5}


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = (len(ordered) - 1) * p / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def checksum_ok(sentence):
    """True if the sentence ends in '*hh' matching the XOR of the bytes between '$' and '*'."""
    star = sentence.rfind(b"*")
    if star < 1 or len(sentence) - star != 3:
        return False
    value = 0
    for byte in sentence[1:star]:
        value ^= byte
    try:
        return int(sentence[star + 1:], 16) == value
    except ValueError:
        return False


def time_of_day(sentence):
    """Seconds of the day in the sentence's UTC time field, or None (untimed, empty, no fix)."""
    fields = sentence.split(b"*", 1)[0].split(b",")
    kind = fields[0][3:].decode("ascii", "replace")
    index = TIME_FIELD.get(kind)
    if index is None or len(fields) <= index:
        return None
    text = fields[index]
    if len(text) < 6 or not text[:6].isdigit():
        return None
    try:
        return int(text[0:2]) * 3600 + int(text[2:4]) * 60 + float(text[4:])
    except ValueError:
        return None


def take_realtime_priority(priority):
    """SCHED_FIFO and locked memory when allowed; returns a description of the scheduling."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
    except (PermissionError, OSError, AttributeError):
        return "SCHED_OTHER (not allowed SCHED_FIFO)"
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        MCL_CURRENT, MCL_FUTURE = 1, 2
        libc.mlockall(MCL_CURRENT | MCL_FUTURE)
    except OSError:
        pass
    return f"SCHED_FIFO {priority}"


def open_raw(path):
    fd = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    if os.isatty(fd):
        tty.setraw(fd, termios.TCSANOW)
        termios.tcflush(fd, termios.TCIFLUSH)
    return fd


def read_sentences(fd, seconds):
    """Reads for `seconds`; returns [(stamp_ns, sentence bytes)] and the count of other lines."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    sentences, other_lines = [], 0
    pending, pending_stamp = b"", None  # an incomplete line and the stamp of its first byte
    deadline = time.monotonic_ns() + int(seconds * 1e9)
    while True:
        left_ms = (deadline - time.monotonic_ns()) // 1_000_000
        if left_ms <= 0:
            break
        if not poller.poll(min(left_ms, 200)):
            continue
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            continue
        except OSError:  # EIO: the writer went away
            break
        stamp = time.monotonic_ns()
        if not chunk:
            break
        if not pending:
            pending_stamp = stamp
        pending += chunk
        start = 0
        while True:
            end = pending.find(b"\n", start)
            if end < 0:
                break
            line = pending[start:end].rstrip(b"\r")
            first = max(line.find(b"$"), line.find(b"!")) if line[:1] not in (b"$", b"!") else 0
            if first >= 0:
                sentences.append((pending_stamp, line[first:]))
            elif line:
                other_lines += 1
            start = end + 1
            pending_stamp = stamp  # every later line began in this read or a later one
        pending = pending[start:]
    return sentences, other_lines


def group_epochs(sentences):
    """Splits [(stamp, sentence)] into epochs; returns a list of lists of (stamp, sentence)."""
    epochs, current, current_time = [], [], None
    untimed = []  # sentences without a time since the last timed one
    previous_stamp = None
    for stamp, sentence in sentences:
        tod = time_of_day(sentence) if checksum_ok(sentence) else None
        if tod is None:
            untimed.append((stamp, sentence))
            continue
        if current_time is None or tod != current_time:
            # Widest gap in: last timed sentence -> untimed ones -> this one; the epoch begins after it.
            stamps = [previous_stamp] + [s for s, _ in untimed] + [stamp]
            if previous_stamp is None:
                split = 0
            else:
                gaps = [stamps[i + 1] - stamps[i] for i in range(len(stamps) - 1)]
                split = gaps.index(max(gaps))
            current.extend(untimed[:split])
            if current:
                epochs.append(current)
            current, current_time = untimed[split:], tod
        else:
            current.extend(untimed)
        untimed = []
        current.append((stamp, sentence))
        previous_stamp = stamp
    current.extend(untimed)
    if current:
        epochs.append(current)
    return epochs


def summarize(sentences, other_lines, nominal):
    epochs = group_epochs(sentences)
    whole = epochs[1:-1]  # the first and the last may be partial
    starts = [epoch[0][0] for epoch in whole]
    intervals = [(b - a) / 1e9 for a, b in zip(starts, starts[1:])]
    deviations = [abs(x - nominal) for x in intervals]
    return {
        "sentences": len(sentences),
        "bad_checksums": sum(1 for _, s in sentences if not checksum_ok(s)),
        "other_lines": other_lines,
        "epochs": len(epochs),
        "intervals": len(intervals),
        "sentences_per_epoch_median": percentile([len(e) for e in whole], 50) if whole else None,
        "nominal_s": nominal,
        "deviation_s": {
            "median": percentile(deviations, 50),
            "p99": percentile(deviations, 99),
            "max": max(deviations) if deviations else float("nan"),
        },
        "drift_s": (starts[-1] - starts[0]) / 1e9 - nominal * (len(starts) - 1) if starts else None,
        "intervals_s": [round(x, 9) for x in intervals],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--nominal", type=float, required=True, help="nominal epoch interval, s")
    parser.add_argument("--priority", type=int, default=20, help="SCHED_FIFO priority when root")
    parser.add_argument("--label", default="")
    parser.add_argument("--out", help="write the JSON summary here (else to stdout)")
    args = parser.parse_args()
    scheduling = take_realtime_priority(args.priority)
    print(f"epoch_timing: reading {args.path} for {args.seconds:g} s under {scheduling}",
          file=sys.stderr)
    fd = open_raw(args.path)
    try:
        sentences, other_lines = read_sentences(fd, args.seconds)
    finally:
        os.close(fd)
    summary = {"label": args.label, "path": args.path, "scheduling": scheduling,
               "stamp": "first byte of the epoch, monotonic clock after read()"}
    summary.update(summarize(sentences, other_lines, args.nominal))
    text = json.dumps(summary, indent=2)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0 if sentences else 2


if __name__ == "__main__":
    sys.exit(main())
