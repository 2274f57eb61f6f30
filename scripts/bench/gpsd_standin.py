#!/usr/bin/env python3
"""Takes gpsd's place under `gpsfake -m`, so that a timing reader can read gpsfake's PTY.

gpsfake runs `<this> PATHFILE gpsd -b -N -S PORT -F SOCKET ...`, waits for SOCKET, then sends
"+/dev/pts/N" to add its PTY. This answers like gpsd's control socket, writes the PTY path to
PATHFILE, and then idles until gpsfake ends it.
"""
import os
import signal
import socket
import sys
import time


def main():
    path_file, argv = sys.argv[1], sys.argv[2:]
    control = argv[argv.index("-F") + 1]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if os.path.exists(control):
        os.unlink(control)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(control)
    server.listen(4)
    try:
        while True:
            conn, _ = server.accept()
            data = conn.recv(512).decode("ascii", "replace")
            if data.startswith("+"):
                device = data[1:].split("\r")[0].split("\n")[0].strip("\x00")
                with open(path_file + ".tmp", "w") as f:
                    f.write(device)
                os.rename(path_file + ".tmp", path_file)
            conn.sendall(b"OK\n")
            conn.close()
            time.sleep(0.01)
    finally:
        os.unlink(control)


if __name__ == "__main__":
    main()
