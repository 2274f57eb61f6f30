"""PX4's u-blox configuration sequence, as data: what `GPSDriverUBX::configure` sends, in order,
what it waits for, and what a real chip answers.

Read from PX4/PX4-GPSDrivers `src/ubx.cpp` and `src/ubx.h` at commit
7c353a162edffe41ec1695e2b5e64817f66f3d1f (2026-04-23), with PX4's defaults: automatic baud
(`baudrate == 0`), output mode GPS only, no CFG-CFG wipe, dynamic model 7 (airborne < 2 g,
GPS_UBX_DYNMODEL), no GNSS system selection (GPS_1_GNSS = 0), no satellite info, interface
protocols 0 (I2C off), mode Normal. Written independently from that reading: no PX4 code.

Baud search (UART): at 38400, 57600, 9600, 115200, 230400, 460800, 921600 in turn it sets the
speed, flushes, sends a CFG-VALSET of UART1's framing and protocols and waits 2 s for its ACK
(protocol 27+); failing that, a CFG-PRT for UART1 and USB at the tried baud, waiting 250 ms. The
first ACK ends the search. Then it switches the chip to its working baud without waiting for an
ACK, follows at its side, polls MON-VER, and configures.
"""

import struct

from autopilot_steps import Step, cfg_msg_set, frame, valset

#: Candidate bauds in PX4's order.
BAUDS = [38400, 57600, 9600, 115200, 230400, 460800, 921600]
#: 8 data bits, no parity, 1 stop bit (CFG-PRT mode 0x08D0).
MODE_8N1 = 0x000008D0
PROTO_UBX, PROTO_RTCM3 = 0x01, 0x20
DYNAMIC_MODEL = 7
#: NAV-PVT, NAV-DOP, NAV-STATUS and MON-HW (M8) or MON-RF (F9) at every 200 ms solution.
MEASUREMENT_MS = 200


def cfg_prt_uart_and_usb(baud):
    """CFG-PRT with two 20-byte blocks, UART1 and USB: UBX+RTCM3 in, UBX out, at `baud`."""
    block = b""
    for port in (1, 3):
        block += struct.pack(
            "<BBHIIHHHH", port, 0, 0, MODE_8N1, baud, PROTO_UBX | PROTO_RTCM3, PROTO_UBX, 0, 0)
    return frame(0x06, 0x00, block)


def probe_valset():
    """The protocol-27 probe: UART1 8N1, UBX only in and out (RAM layer)."""
    return valset([
        (0x20520002, "U1", 1),  # CFG-UART1-STOPBITS: 1
        (0x20520003, "U1", 0),  # CFG-UART1-DATABITS: 8
        (0x20520004, "U1", 0),  # CFG-UART1-PARITY: none
        (0x10730001, "L", 1),  # CFG-UART1INPROT-UBX
        (0x10730002, "L", 0),  # CFG-UART1INPROT-NMEA
        (0x10740001, "L", 1),  # CFG-UART1OUTPROT-UBX
        (0x10740002, "L", 0),  # CFG-UART1OUTPROT-NMEA
    ])


def search_steps(baud, chip_baud, chip):
    """The two probes PX4 sends at `baud`, each with what the chip at `chip_baud` answers."""
    here = baud == chip_baud
    valset_answer = ({"ack"} if chip == "f9p" else {"nak", "silent"}) if here else {"silent"}
    prt_answer = {"ack"} if here else {"silent"}
    return [
        Step(f"CFG-VALSET UART1 UBX-only probe at {baud}", probe_valset(), "ack",
             valset_answer, timeout=2.0),
        Step(f"CFG-PRT UART1+USB probe at {baud}", cfg_prt_uart_and_usb(baud), "ack",
             prt_answer),
    ]


def legacy_steps(tried_baud):
    """After a CFG-PRT probe was ACK'd (protocol < 27, the M8): to 38400, MON-VER, 115200, then
    `configureDevicePreV27`."""
    nav5 = struct.pack("<HBB", 0x0005, DYNAMIC_MODEL, 2) + bytes(32)
    return [
        Step("CFG-PRT baud 38400 (no ACK awaited)", cfg_prt_uart_and_usb(38400), "none",
             {"ack", "nak", "silent"}, then_speed=38400),
        Step("MON-VER poll", frame(0x0A, 0x04), "reply", {"reply"}, reply=(0x0A, 0x04)),
        Step("CFG-PRT baud 115200 (no ACK awaited)", cfg_prt_uart_and_usb(115200), "none",
             {"ack", "nak", "silent"}, then_speed=115200),
        Step("CFG-RATE 200 ms, navRate 1, UTC",
             frame(0x06, 0x08, struct.pack("<HHH", MEASUREMENT_MS, 1, 0)), "ack", {"ack"}),
        Step("CFG-NAV5 dynModel 7, fixMode 3D only", frame(0x06, 0x24, nav5), "ack", {"ack"}),
        Step("CFG-MSG NAV-PVT 1", cfg_msg_set(0x01, 0x07, 1), "ack", {"ack"}),
        Step("CFG-MSG NAV-STATUS 1", cfg_msg_set(0x01, 0x03, 1), "ack", {"ack"}),
        Step("CFG-MSG NAV-DOP 1", cfg_msg_set(0x01, 0x04, 1), "ack", {"ack"}),
        Step("CFG-MSG NAV-SVINFO 0", cfg_msg_set(0x01, 0x30, 0), "ack", {"ack"}),
        Step("CFG-MSG MON-HW 1", cfg_msg_set(0x0A, 0x09, 1), "ack", {"ack"}),
    ]


def uart1_and_usb(key, value):
    """One MSGOUT key for UART1 (+1) and USB (+3) from its I2C key, as PX4's cfgValsetPort."""
    return [(key + 1, "U1", value), (key + 3, "U1", value)]


def valset_steps():
    """After the VALSET probe was ACK'd (protocol 27+, the F9P): to 115200, MON-VER, then
    `configureDevice`."""
    messages = []
    for key, value in [
        (0x20910006, 1),  # NAV-PVT
        (0x20910033, 1),  # NAV-HPPOSLLH
        (0x2091008D, 0),  # NAV-RELPOSNED
        (0x20910038, 1),  # NAV-DOP
        (0x20910015, 0),  # NAV-SAT (no satellite info)
        (0x2091001A, 1),  # NAV-STATUS
        (0x20910359, 1),  # MON-RF
        (0x20910268, 1),  # RXM-RTCM (F9P)
    ]:
        messages += uart1_and_usb(key, value)
    either = {"ack", "nak"}
    return [
        Step("CFG-VALSET UART1 baud 115200 (no ACK awaited)",
             valset([(0x40520001, "U4", 115200)]), "none", {"ack", "nak", "silent"},
             then_speed=115200),
        Step("MON-VER poll", frame(0x0A, 0x04), "reply", {"reply"}, reply=(0x0A, 0x04)),
        Step("CFG-VALSET UART1/USB protocols", valset([
            (0x10730004, "L", 1), (0x10770001, "L", 1), (0x10770004, "L", 1),
            (0x10770002, "L", 0), (0x10780001, "L", 1), (0x10780002, "L", 0),
        ]), "ack", {"ack"}),
        Step("CFG-VALSET navigation, odometer, rate 200 ms", valset([
            (0x20110011, "E1", 3), (0x2011001C, "E1", 3), (0x20110021, "E1", DYNAMIC_MODEL),
            (0x10220001, "L", 0), (0x10220002, "L", 0), (0x10220003, "L", 0),
            (0x10220004, "L", 0), (0x30210001, "U2", MEASUREMENT_MS), (0x30210002, "U2", 1),
            (0x20210003, "E1", 0),
        ]), "ack", {"ack"}),
        Step("CFG-VALSET NAVHPG-DGNSSMODE RTK fixed", valset([(0x20140011, "E1", 3)]), "none",
             {"ack"}),
        Step("CFG-VALSET ITFM-ENABLE", valset([(0x1041000D, "L", 1)]), "none", {"ack"}),
        # Newer firmware only: PX4 carries on after a NAK.
        Step("CFG-VALSET SEC-JAMDET_SENSITIVITY_HI 0", valset([(0x10F60051, "L", 0)]), "none",
             either),
        Step("CFG-VALSET message rates UART1+USB", valset(messages), "ack", {"ack"}),
        Step("CFG-VALSET I2C protocols off", valset([
            (0x10710001, "L", 0), (0x10710002, "L", 0), (0x10710004, "L", 0),
            (0x10720001, "L", 0), (0x10720002, "L", 0), (0x10720004, "L", 0),
        ]), "ack", {"ack"}),
    ]


#: Messages and the rate (Hz) each must arrive at once configured, by path.
RATES = {
    "legacy": {"NAV-PVT": 5, "NAV-STATUS": 5, "NAV-DOP": 5, "MON-HW": 5},
    "valset": {"NAV-PVT": 5, "NAV-HPPOSLLH": 5, "NAV-DOP": 5, "NAV-STATUS": 5, "MON-RF": 5},
}
