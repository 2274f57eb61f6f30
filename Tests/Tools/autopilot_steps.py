"""One step of an autopilot's UBX configuration replay: a frame, what the driver waits for, what
a real chip answers; and the runner that sends it and records the outcome.

Frames are built with pyubx2 (`UBXMessage`, `config_set`) from payloads given as data.
"""

import struct
import time
from dataclasses import dataclass, field

from pyubx2 import POLL, SET, UBXMessage, UBXMessageError

#: Outcomes a step can have: ACK-ACK, ACK-NAK, the polled message, nothing.
OUTCOMES = ("ack", "nak", "reply", "silent")


def frame(cls, msg_id, payload=b""):
    """A UBX frame of class/id with `payload`, serialised by pyubx2 (as a command where
    pyubx2 knows one, else as a poll)."""
    try:
        return UBXMessage(cls, msg_id, SET, payload=payload).serialize()
    except UBXMessageError:
        return UBXMessage(cls, msg_id, POLL, payload=payload).serialize()


def cfg_msg_set(cls, msg_id, rate):
    """CFG-MSG in its 3-byte form: `rate` on the port the command arrives on."""
    return frame(0x06, 0x01, bytes((cls, msg_id, rate)))


def cfg_msg_poll(cls, msg_id):
    """CFG-MSG poll of one message's rates on every port."""
    return frame(0x06, 0x01, bytes((cls, msg_id)))


#: struct codes of the configuration database's value sizes.
VALUE_FORMATS = {"L": "<B", "U1": "<B", "E1": "<B", "U2": "<H", "U4": "<I"}


def valset(items, layers=0x01):
    """CFG-VALSET version 0 of (key, type, value) items in `layers` (RAM by default)."""
    payload = bytes((0, layers, 0, 0))
    for key, kind, value in items:
        payload += struct.pack("<I", key) + struct.pack(VALUE_FORMATS[kind], value)
    return frame(0x06, 0x8A, payload)


def valget(keys, layer=0):
    """CFG-VALGET version 0 of `keys` from `layer` (0 RAM)."""
    payload = bytes((0, layer, 0, 0)) + b"".join(struct.pack("<I", key) for key in keys)
    return frame(0x06, 0x8B, payload)


@dataclass
class Step:
    """What a driver sends, what it waits for and what a real chip answers.

    `waits`: "ack", "reply" or "none" (the driver reads on but does not need an answer).
    `expect`: the outcomes a real chip gives. `reply`: the class/id of a poll's answer, and
    `reply_starts` what its payload starts with (the polled class/id of a CFG-MSG answer).
    `then_speed`: the baud the driver's side switches to after this step.
    `follow`: reply frame -> further steps the driver sends because of what it read.
    """

    name: str
    frame: bytes
    waits: str
    expect: set
    reply: tuple = None
    reply_starts: bytes = b""
    timeout: float = 0.25
    then_speed: int = None
    follow: object = None
    #: Whether a silent window is followed by listening on, to report a late answer.
    listen_on: bool = True


@dataclass
class Result:
    """A step as run: its outcome and whether a real chip answers so."""

    step: Step
    outcome: str
    baud: int
    detail: str = ""
    ok: bool = field(init=False)

    def __post_init__(self):
        self.ok = self.outcome in self.step.expect

    def line(self, number):
        """The report line: number, baud, name, outcome, what a real chip answers."""
        verdict = "ok" if self.ok else "MISMATCH"
        expected = "/".join(sorted(self.step.expect))
        text = f"{number:3} {self.baud:>6} {self.step.name:<52} {self.outcome:<7}"
        text += f" chip: {expected:<16} {verdict}"
        return text + (f"  ({self.detail})" if self.detail else "")


#: How long a step that heard nothing in its window listens on, to tell a late answer from none.
LATE_SECONDS = 2.0
#: What a late answer may take beyond the window and the reader's time away.
LATE_MARGIN = 0.05


def late_answer(port, cls, msg_id, step, sent):
    """What came after a silent window, the outcome to record and a detail: the answer's
    delay, or none, and how long the reader was kept from the port in the window.

    A reader kept from the port (waiting for a CPU on a loaded machine) for half the window or
    more did not listen through it: an answer that came within the window plus that time (and
    LATE_MARGIN) is the outcome, as a driver that reads late takes it. An answer later than
    that, or one a reader that listened through the window missed, leaves the step `silent`."""
    away = port.away()
    late, answer = port.answer(cls, msg_id, LATE_SECONDS, step.reply, step.reply_starts)
    delay = time.monotonic() - sent
    heard = f"{late} after {delay:.3f} s" if late != "silent" else "none in 2 s"
    detail = f"late answer: {heard}; reader kept away up to {away * 1000:.0f} ms in the window"
    if away >= step.timeout / 2 and delay <= step.timeout + away + LATE_MARGIN:
        return late, answer, detail
    return "silent", None, detail


def run(port, step, results):
    """Sends `step`, waits as the driver does, records the result (and any follow-up steps')
    in `results`; returns the result."""
    cls, msg_id = step.frame[2], step.frame[3]
    baud = port.baud
    port.pump(0.02)  # late answers to earlier steps (a poll's ACK after its reply) are not ours
    port.write(step.frame)
    sent = time.monotonic()
    port.reset_gap()
    outcome, answer = port.answer(cls, msg_id, step.timeout, step.reply, step.reply_starts)
    detail = ""
    if outcome == "silent" and "silent" not in step.expect and step.listen_on:
        outcome, answer, detail = late_answer(port, cls, msg_id, step, sent)
    if answer is not None and answer.error:
        detail = "; ".join(filter(None, [detail, f"pyubx2: {answer.error}"]))
        outcome = "garbled"
    result = Result(step, outcome, baud, detail)
    results.append(result)
    if step.then_speed:
        port.set_speed(step.then_speed)
        port.flush_input()
    if step.follow and outcome == "reply":
        for extra in step.follow(answer):
            run(port, extra, results)
    return result
