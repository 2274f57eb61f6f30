"""A small client of mockgps's control socket: one JSON object per line each way.

    with MockGPSControl(link="/dev/ttyMOCKGPS") as gps:
        gps.request("position", lat=51.5, lon=-0.14, alt=20)
        gps.request("fix", mode="none")
        print(gps.request("status"))

Only the standard library: copy this file into a rig as it is.
"""

import json
import os
import socket


class ControlError(Exception):
    """A request mockgps refused: the `error` of its `{"ok":false,...}` reply."""


def runtime_directory():
    """Where mockgps puts the control sockets it names after their links."""
    if os.environ.get("XDG_RUNTIME_DIR", "").startswith("/"):
        return os.path.join(os.environ["XDG_RUNTIME_DIR"], "mockgps")
    if os.geteuid() == 0:
        return "/run/mockgps"
    return "/tmp/mockgps-%d" % os.geteuid()


def escape_path(path):
    """The link path escaped as `systemd-escape --path` does: /dev/ttyMOCKGPS -> dev-ttyMOCKGPS."""
    name = "".join(
        "-" if c == "/" else c if c.isascii() and (c.isalnum() or c in ":_.") else
        "".join("\\x%02x" % b for b in c.encode())
        for c in "/".join(part for part in path.split("/") if part))
    return "\\x2e" + name[1:] if name.startswith(".") else name


def default_socket_path(link):
    """The control socket of a link run without `--control`."""
    return os.path.join(runtime_directory(), escape_path(link) + ".sock")


class MockGPSControl:
    """A connection to a running mockgps: `request` for one reply, `subscribe` for epochs."""

    def __init__(self, path=None, *, link="/dev/ttyMOCKGPS", timeout=5.0):
        self.path = path or default_socket_path(link)
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(timeout)
        self.socket.connect(self.path)
        self.lines = self.socket.makefile("rb")

    def request(self, cmd, **fields):
        """Sends one request and returns its reply; raises ControlError when it is refused."""
        self._send(dict(cmd=cmd, **fields))
        return self._reply()

    def subscribe(self):
        """Yields one dict per epoch (the fix) until the connection is closed."""
        self.request("subscribe")
        self.socket.settimeout(None)
        for line in self.lines:
            yield json.loads(line)

    def close(self):
        self.lines.close()
        self.socket.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _send(self, message):
        self.socket.sendall(json.dumps(message).encode() + b"\n")

    def _reply(self):
        line = self.lines.readline()
        if not line:
            raise ConnectionError("mockgps closed the control connection")
        reply = json.loads(line)
        if not reply.get("ok"):
            raise ControlError(reply.get("error", line.decode().strip()))
        return reply
