"""A UBX capture as RTKLIB 2.4.3 b34 (Debian's) can read it: each Galileo RXM-SFRBX of eight
words, as the ZED-F9P sends an I/NAV page pair, gets a ninth word of zeros, which the decoder
does not read. b34's decode_enav skips frames shorter than nine words (`raw->len<44+off`, "E5b
I/NAV"), so it would decode no Galileo ephemeris from an F9P; later RTKLIB versions accept eight.
Everything else is copied byte for byte.
"""
import os


def checksum(body):
    a = b = 0
    for byte in body:
        a = (a + byte) & 0xFF
        b = (b + a) & 0xFF
    return bytes([a, b])


def padded_galileo_pages(data):
    """The capture with every eight-word Galileo RXM-SFRBX given a ninth, zero word."""
    output, index = bytearray(), 0
    while index < len(data):
        if data[index:index + 2] != b"\xb5\x62" or index + 6 > len(data):
            output.append(data[index])
            index += 1
            continue
        length = data[index + 4] | data[index + 5] << 8
        end = index + 8 + length
        frame = data[index:end]
        payload = frame[6:6 + length]
        if (frame[2:4] == b"\x02\x13" and length == 8 + 32 and payload[0] == 2
                and payload[4] == 8):
            payload = payload[:4] + bytes([9]) + payload[5:] + bytes(4)
            body = b"\x02\x13" + len(payload).to_bytes(2, "little") + payload
            frame = b"\xb5\x62" + body + checksum(body)
        output += frame
        index = end
    return bytes(output)


def readable_copy(path, folder):
    """Writes the capture at `path` as RTKLIB b34 reads it into `folder`; returns its path."""
    with open(path, "rb") as file:
        data = file.read()
    copy = os.path.join(folder, os.path.basename(path) + ".rtklib.ubx")
    with open(copy, "wb") as file:
        file.write(padded_galileo_pages(data))
    return copy
