"""ArduPilot's u-blox detection and configuration, as data: what `AP_GPS` and `AP_GPS_UBLOX`
send, in order, what they read back and what a real chip answers.

Read from ArduPilot/ardupilot `libraries/AP_GPS/AP_GPS_UBLOX.cpp` (the 4.5-era version with
`GPS_MOVING_BASELINE`, `config_M10`, `config_L5_ovrd_*` and `STEP_L5`, through the code index:
the whole repository is larger than the snapshot limit), `AP_GPS_UBLOX.h` (the STEP_ order and
the RATE_ values) and `AP_GPS.cpp` (the detection bauds and the u-blox initialisation blob).
Defaults: GPS_AUTO_CONFIG 1, GPS_NAVFILTER 8 (airborne < 4 g), GPS_MIN_ELEV -100 (keep),
GPS_SBAS_MODE 2 (keep), GPS_GNSS_MODE 0 (keep), GPS_RATE_MS 200, no raw logging, role normal.
Written independently from that reading: no ArduPilot code. The newest ArduPilot adds a
VALGET/VALSET driver (`AP_GPS_UBLOX_CFGv2.cpp`, commit 44d6cb6a in the index) that runs only for
protocol 40+ receivers or with the ForceUBXConfigV2 option; an F9P (protocol 27) is configured by
default by the sequence replayed here.

Detection: at 9600, 115200, 4800, 19200, 38400, 57600, 230400, 460800 in turn (1.2 s each)
it sends the blob "CFG-MSG NAV-SOL 1" + "$PUBX,41,1,0023,0001,230400,0*1E" and takes the first
UBX frame as a u-blox. The PUBX,41 moves the chip to 230400, UBX out only, so the driver that
saw a frame at the old baud loses the chip (its polls go unanswered, it re-detects) and settles
at 230400. Configuration is a poll of each setting, one step every 300 ms; a poll whose answer
differs from the wanted value is followed by a set, and the cycle repeats until every poll
agrees. Then rates are checked every 2 s.
"""

import struct

from autopilot_steps import Step, cfg_msg_poll, cfg_msg_set, frame, valget

BAUDS = [9600, 115200, 4800, 19200, 38400, 57600, 230400, 460800]
#: The baud PUBX,41 in the blob asks for; a real chip ends there.
WORKING_BAUD = 230400
BLOB = frame(0x06, 0x01, bytes((0x01, 0x06, 0x01))) + b"$PUBX,41,1,0023,0001,230400,0*1E\r\n"
NAVFILTER = 8
RATE_MS = 200

#: (class, id, name, wanted rate on the driver's port) in STEP_ order; rate None: depends on
#: whether NAV-PVT arrives (then 0, else 1).
RATE_STEPS = {
    "PVT": (0x01, 0x07, "NAV-PVT", 1),
    "SOL": (0x01, 0x06, "NAV-SOL", None),
    "STATUS": (0x01, 0x03, "NAV-STATUS", None),
    "POSLLH": (0x01, 0x02, "NAV-POSLLH", None),
    "VELNED": (0x01, 0x12, "NAV-VELNED", None),
    "TIMEGPS": (0x01, 0x20, "NAV-TIMEGPS", 5),
    "DOP": (0x01, 0x04, "NAV-DOP", 1),
    "MON_HW": (0x0A, 0x09, "MON-HW", 5),
    "MON_HW2": (0x0A, 0x0B, "MON-HW2", 5),
}
ORDER = ["PVT", "NAV_RATE", "SOL", "PORT", "STATUS", "POSLLH", "VELNED", "TIMEGPS",
         "POLL_SVINFO", "POLL_NAV", "POLL_GNSS", "DOP", "MON_HW", "MON_HW2", "VERSION", "TMODE"]

#: Rates (Hz) once configured; the messages at 0 must not arrive.
RATES = {"NAV-PVT": 5, "NAV-TIMEGPS": 1, "NAV-DOP": 5, "MON-HW": 1, "MON-HW2": 1,
         "NAV-SOL": 0, "NAV-STATUS": 0, "NAV-POSLLH": 0, "NAV-VELNED": 0}


def rate_step(key, chip, state):
    """A CFG-MSG poll of one message, and the 3-byte CFG-MSG set when its UART1 rate differs."""
    cls, msg_id, name, wanted = RATE_STEPS[key]
    # F9 firmware dropped NAV-SOL; ArduPilot then drops it (it has NAV-PVT).
    expect = {"reply", "nak"} if chip == "f9p" and name == "NAV-SOL" else {"reply"}

    def follow(answer):
        rate = answer.payload[2 + state["port"]] if len(answer.payload) >= 8 else None
        target = wanted if wanted is not None else (0 if state["pvt_seen"]() else 1)
        if rate == target:
            return []
        state["sets"] += 1
        return [Step(f"CFG-MSG {name} {target} (was {rate})", cfg_msg_set(cls, msg_id, target),
                     "ack", {"ack"})]

    return Step(f"CFG-MSG poll {name}", cfg_msg_poll(cls, msg_id), "reply", expect,
                reply=(0x06, 0x01), reply_starts=bytes((cls, msg_id)), follow=follow)


def nav5_follow(state):
    """CFG-NAV5 sent back with mask bit 0 and the dynamic model when it is not airborne 4 g."""

    def follow(answer):
        payload = bytearray(answer.payload)
        if len(payload) != 36 or payload[2] == NAVFILTER:
            return []
        state["sets"] += 1
        payload[0:2] = struct.pack("<H", 0x0001)
        payload[2] = NAVFILTER
        return [Step(f"CFG-NAV5 dynModel {NAVFILTER} (was {answer.payload[2]})",
                     frame(0x06, 0x24, bytes(payload)), "ack", {"ack"})]

    return follow


def rate_follow(state):
    """CFG-RATE 200 ms when the measurement period differs."""

    def follow(answer):
        measure = struct.unpack("<H", answer.payload[:2])[0] if len(answer.payload) >= 6 else None
        if measure == RATE_MS:
            return []
        state["sets"] += 1
        return [Step(f"CFG-RATE {RATE_MS} ms (was {measure})",
                     frame(0x06, 0x08, struct.pack("<HHH", RATE_MS, 1, 0)), "ack", {"ack"})]

    return follow


def port_follow(state):
    """The driver's port is the one CFG-PRT's answer names."""

    def follow(answer):
        if answer.payload:
            state["port"] = answer.payload[0]
        return []

    return follow


def cycle(chip, state):
    """One pass of ArduPilot's configuration steps."""
    steps = []
    for key in ORDER:
        if key in RATE_STEPS:
            steps.append(rate_step(key, chip, state))
        elif key == "NAV_RATE":
            steps.append(Step("CFG-RATE poll", frame(0x06, 0x08), "reply", {"reply"},
                              reply=(0x06, 0x08), follow=rate_follow(state)))
        elif key == "PORT":
            steps.append(Step("CFG-PRT poll (current port)", frame(0x06, 0x00), "reply",
                              {"reply"}, reply=(0x06, 0x00), follow=port_follow(state)))
        elif key == "POLL_SVINFO" and state["pass"] == 0:
            # Only until the generation is known; F9 firmware has no NAV-SVINFO.
            expect = {"silent", "nak"} if chip == "f9p" else {"reply"}
            steps.append(Step("NAV-SVINFO poll", frame(0x01, 0x30), "reply", expect,
                              reply=(0x01, 0x30)))
        elif key == "POLL_NAV":
            steps.append(Step("CFG-NAV5 poll", frame(0x06, 0x24), "reply", {"reply"},
                              reply=(0x06, 0x24), follow=nav5_follow(state)))
        elif key == "POLL_GNSS":
            steps.append(Step("CFG-GNSS poll", frame(0x06, 0x3E), "reply", {"reply"},
                              reply=(0x06, 0x3E)))
        elif key == "VERSION" and state["pass"] == 0:
            steps.append(Step("MON-VER poll", frame(0x0A, 0x04), "reply", {"reply"},
                              reply=(0x0A, 0x04)))
        elif key == "TMODE" and chip == "f9p":
            steps.append(Step("CFG-VALGET TMODE-MODE (RAM)", valget([0x20030001]), "reply",
                              {"reply"}, reply=(0x06, 0x8B)))
    return steps
