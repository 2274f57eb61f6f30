#!/usr/bin/env python3
"""Runs nmeasim's simulator at RATE Hz on a pseudo-terminal and writes the slave path to PATHFILE.

Usage: nmeasim_pty.py RATE PATHFILE
"""
import os
import signal
import sys
import tty

from nmeasim.simulator import Simulator


class MasterWriter:
    """The file-like output nmeasim writes to: the PTY master."""

    def __init__(self, fd):
        self.fd = fd

    def write(self, text):
        os.write(self.fd, text.encode("ascii"))

    def flush(self):
        pass


def main():
    rate, path_file = float(sys.argv[1]), sys.argv[2]
    master, slave = os.openpty()
    tty.setraw(slave)  # keep the slave open, as gpsfake does, so the master never sees EIO
    with open(path_file + ".tmp", "w") as f:
        f.write(os.ttyname(slave))
    os.rename(path_file + ".tmp", path_file)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    sim = Simulator()
    sim.interval = 1.0 / rate
    sim.serve(output=MasterWriter(master), blocking=True)


if __name__ == "__main__":
    main()
