#!/usr/bin/env python3
"""Decodes the CFG poll replies of a UBX byte stream with pyubx2 and checks each field by
re-encoding it.

Usage: check_ubx_config.py FILE
Every frame is parsed as output of the receiver (GET), with checksums validated. Each parsed
message is then built again by pyubx2 from the fields it decoded; a rebuilt frame of another
length than the received one means pyubx2's layout of the message differs from mockgps's (a
missing or extra field, a wrong repeat count): an error. Bytes that differ at the same length
are bits pyubx2 does not model (reserved bits of bitfields, such as CFG-PRT's mode bit 4): a
note. Messages pyubx2 cannot rebuild from fields (several versions, or a repeat without count:
CFG-NMEA, CFG-RINV) are checked by parsing only. Prints {"errors": [...], "notes": [...],
"messages": [{"identity": ..., "fields": {...}}]} with the decoded fields (bytes as hex).
"""
import io
import json
import sys

from pyubx2 import GET, UBX_PROTOCOL, VALCKSUM, UBXMessage, UBXReader

PARSE_ONLY = {"CFG-NMEA", "CFG-RINV"}


def fields(message):
    out = {}
    for name, value in vars(message).items():
        if name.startswith("_"):
            continue
        out[name] = value.hex() if isinstance(value, bytes) else value
    return out


def main():
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    errors, notes, messages = [], [], []

    def on_error(error):
        errors.append(str(error))

    reader = UBXReader(io.BytesIO(data), protfilter=UBX_PROTOCOL, validate=VALCKSUM,
                       quitonerror=1, errorhandler=on_error, msgmode=GET)
    consumed = 0
    for raw, parsed in reader:
        consumed += len(raw)
        if parsed is None:
            errors.append(f"unparsed bytes {raw[:16].hex()}")
            continue
        messages.append({"identity": parsed.identity, "fields": fields(parsed)})
        if parsed.identity in PARSE_ONLY:
            continue
        decoded = {k: v for k, v in vars(parsed).items() if not k.startswith("_")}
        try:
            rebuilt = UBXMessage(parsed.msg_cls, parsed.msg_id, GET, **decoded).serialize()
        except Exception as error:  # pyubx2 raises several types; each is a finding here
            errors.append(f"{parsed.identity}: cannot rebuild: {error}")
            continue
        if len(rebuilt) != len(raw):
            errors.append(f"{parsed.identity}: pyubx2 has {len(rebuilt) - 8} bytes, "
                          f"received {len(raw) - 8}")
        elif rebuilt != raw:
            notes.append(f"{parsed.identity}: rebuilt {rebuilt.hex()} != received {raw.hex()}")
    if consumed != len(data):
        errors.append(f"{len(data) - consumed} of {len(data)} bytes not in a UBX message")
    json.dump({"errors": errors, "notes": notes, "messages": messages}, sys.stdout, indent=1, default=str)


if __name__ == "__main__":
    main()
