"""Bounded child processes and free ports for the regression rows.

Every process a row starts is started through `Child`, which kills its whole process group
when the row leaves its `with` block, however it leaves it.
"""
import os
import signal
import socket
import subprocess
import time


class Child:
    """A child process in its own process group, killed (group and all) on exit."""

    def __init__(self, argv, env=None, stdout=None, stderr=None, stdin=subprocess.DEVNULL):
        self.argv = argv
        self.process = subprocess.Popen(
            argv, env=env, stdout=stdout, stderr=stderr, stdin=stdin, start_new_session=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.kill()

    def exited(self, within):
        """The exit status once the process has ended within `within` seconds, else None."""
        try:
            return self.process.wait(timeout=max(within, 0))
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        """Ends the process group: SIGTERM, then SIGKILL after half a second."""
        if self.process.poll() is None:
            self._signal(signal.SIGTERM)
            if self.exited(0.5) is None:
                self._signal(signal.SIGKILL)
                self.exited(2)
        # A killed leader may leave children in its group.
        self._signal(signal.SIGKILL)

    def _signal(self, number):
        try:
            os.killpg(self.process.pid, number)
        except (ProcessLookupError, PermissionError):
            pass


def free_port():
    """A TCP port on 127.0.0.1 nobody listens on now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(condition, within, step=0.02):
    """Polls `condition` until it holds or `within` seconds pass; returns its last value."""
    deadline = time.monotonic() + within
    while True:
        value = condition()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(step)
