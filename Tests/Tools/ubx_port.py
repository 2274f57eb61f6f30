"""A serial port as an autopilot's GPS driver holds it: raw 8N1 at a baud it sets with termios,
UBX frames written, and every UBX frame read back parsed by pyubx2.

Shared by the host-software replays in Tests/Tools (autopilot_ubx.py). It frames UBX itself
(sync, length, Fletcher checksum) so that a frame pyubx2 cannot decode is still seen and
reported, not silently skipped.
"""

import os
import select
import termios
import time

from pyubx2 import UBXReader

#: termios speed constants by baud.
SPEEDS = {
    4800: termios.B4800, 9600: termios.B9600, 19200: termios.B19200, 38400: termios.B38400,
    57600: termios.B57600, 115200: termios.B115200, 230400: termios.B230400,
    460800: termios.B460800, 921600: termios.B921600,
}


#: Reads a deadline's look may take of what is ready, so that an answer behind a backlog is
#: still reached, and a port that never stops being ready still ends the look.
FINAL_READS = 16


def runqueue_wait():
    """Seconds the calling thread has waited for a CPU while runnable (the second field of
    its schedstat), or 0 where the kernel does not count it."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def checksum(body):
    """The UBX Fletcher-8 checksum of class, id, length and payload."""
    a = b = 0
    for byte in body:
        a = (a + byte) & 0xFF
        b = (b + a) & 0xFF
    return bytes((a, b))


class Frame:
    """One UBX frame read from the port: when, class, id, payload and pyubx2's decoding."""

    def __init__(self, at, raw):
        self.at = at
        self.raw = raw
        self.cls, self.id = raw[2], raw[3]
        self.payload = raw[6:-2]
        try:
            self.parsed = UBXReader.parse(raw)
            self.error = None
        except Exception as error:  # pyubx2 raises several types; all mean "not decodable"
            self.parsed = None
            self.error = str(error)

    @property
    def identity(self):
        """pyubx2's name of the message (`NAV-PVT`), or the hex class and id."""
        if self.parsed is not None:
            return self.parsed.identity
        return f"{self.cls:02X}-{self.id:02X}"


def split_frames(buffer):
    """Cuts complete, checksummed UBX frames out of `buffer` (a bytearray, consumed); drops
    the bytes between them."""
    found = []
    while True:
        start = buffer.find(b"\xb5\x62")
        if start < 0:
            del buffer[:-1]
            return found
        del buffer[:start]
        if len(buffer) < 6:
            return found
        length = buffer[4] | buffer[5] << 8
        if len(buffer) < 8 + length:
            return found
        raw = bytes(buffer[: 8 + length])
        if checksum(raw[2:-2]) == raw[-2:]:
            found.append(Frame(time.monotonic(), raw))
            del buffer[: 8 + length]
        else:
            del buffer[:2]


class Port:
    """The device opened raw, non-blocking, at a baud set with termios."""

    def __init__(self, path, baud):
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        self.buffer = bytearray()
        self.frames = []
        #: The longest time between two looks at the port since `reset_gap` (or a sleep past
        #: its timeout), in seconds; `away()` adds the kernel's count.
        self.longest_gap = 0.0
        self.last_look = time.monotonic()
        self.waited_from = runqueue_wait()
        self.set_speed(baud)

    def close(self):
        os.close(self.fd)

    def set_speed(self, baud):
        """Raw 8N1 at `baud`, as `cfsetspeed` + `tcsetattr(TCSADRAIN)` in a driver."""
        attrs = termios.tcgetattr(self.fd)
        attrs[0] = 0  # iflag: no translation, no flow control
        attrs[1] = 0  # oflag: raw output
        attrs[2] = termios.CS8 | termios.CREAD | termios.CLOCAL
        attrs[3] = 0  # lflag: non-canonical, no echo
        attrs[4] = attrs[5] = SPEEDS[baud]
        attrs[6][termios.VMIN] = 0
        attrs[6][termios.VTIME] = 0
        termios.tcsetattr(self.fd, termios.TCSADRAIN, attrs)
        self.baud = baud

    def flush_input(self):
        """Drops what was read but not yet framed and what waits in the tty."""
        termios.tcflush(self.fd, termios.TCIFLUSH)
        self.pump(0.02)
        self.buffer.clear()

    def write(self, data):
        """Writes all of `data`, waiting while the tty's output queue is full."""
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd, view)
                view = view[written:]
            except BlockingIOError:
                select.select([], [self.fd], [], 0.1)

    def pump(self, seconds):
        """Reads for up to `seconds`; returns the frames that arrived meanwhile.

        At the deadline it takes what is ready even when it was not scheduled until then (up
        to `FINAL_READS` reads), instead of leaving a chip's answer unread."""
        deadline = time.monotonic() + seconds
        new = []
        final_reads = 0
        while final_reads < FINAL_READS:
            before = time.monotonic()
            remaining = deadline - before
            if remaining <= 0:
                final_reads += 1
            timeout = max(0.0, min(remaining, 0.05))
            ready, _, _ = select.select([self.fd], [], [], timeout)
            self.last_look, away = time.monotonic(), before - self.last_look
            if not ready:  # a sleep that overran its timeout: the reader waited for a CPU
                away = max(away, self.last_look - before - timeout)
            self.longest_gap = max(self.longest_gap, away)
            if not ready:
                if remaining <= 0:
                    break
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                chunk = b""  # EIO while the master is away
            if not chunk:  # hung up: nothing will come until it is back
                if remaining <= 0:
                    break
                time.sleep(min(0.01, remaining))
                continue
            self.buffer.extend(chunk)
            new.extend(self._frame())
        self.frames.extend(new)
        return new

    def _frame(self):
        """The complete frames now in the buffer."""
        return split_frames(self.buffer)

    def reset_gap(self):
        """Starts measuring how long the reader is kept from the port: `away()`."""
        self.longest_gap = 0.0
        self.last_look = time.monotonic()
        self.waited_from = runqueue_wait()

    def away(self):
        """The longest the reader was kept from the port since `reset_gap`, in seconds: the
        longest time between two looks, or the time its thread waited for a CPU (the
        kernel's count, which includes a wait inside a `select` that came back ready)."""
        return max(self.longest_gap, runqueue_wait() - self.waited_from)

    def wait(self, predicate, seconds):
        """The first frame arriving within `seconds` that satisfies `predicate`, or None."""
        deadline = time.monotonic() + seconds
        while True:
            for frame in self.pump(min(0.05, max(0.0, deadline - time.monotonic()))):
                if predicate(frame):
                    return frame
            if time.monotonic() >= deadline:
                return None

    def answer(self, cls, msg_id, seconds, reply=None, reply_starts=b""):
        """Waits for the chip's answer to (cls, msg_id): `ack`, `nak`, `reply` (a frame of
        class/id `reply` whose payload starts with `reply_starts`; when one is awaited, an
        ACK-ACK is not the answer) or `silent`; returns the outcome and the frame."""

        def matches(frame):
            if frame.cls == 0x05 and frame.payload[:2] == bytes((cls, msg_id)):
                # A poll's answer is the message; its ACK-ACK (after it, or an earlier poll's
                # of the same class and id, late) is not. A NAK refuses the poll.
                return reply is None or frame.id == 0x00
            return (reply is not None and (frame.cls, frame.id) == reply
                    and frame.payload.startswith(reply_starts))

        frame = self.wait(matches, seconds)
        if frame is None:
            return "silent", None
        if frame.cls == 0x05:
            return ("ack" if frame.id == 0x01 else "nak"), frame
        return "reply", frame
