#!/usr/bin/env python3
"""same_png.py A.png B.png: exit 0 when both 8-bit RGB PNGs have the same
size and pixels (IDAT inflated), 1 otherwise with what differs."""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    at, size, idat = 8, None, b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        tag, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        if tag == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif tag == b"IDAT":
            idat += body
        at += 12 + length
    return size, zlib.decompress(idat)


a, b = pixels(sys.argv[1]), pixels(sys.argv[2])
if a[0] != b[0]:
    sys.exit("sizes differ: %s %s, %s %s" % (sys.argv[1], a[0], sys.argv[2], b[0]))
if a[1] != b[1]:
    sys.exit("pixels differ: %s, %s" % (sys.argv[1], sys.argv[2]))
