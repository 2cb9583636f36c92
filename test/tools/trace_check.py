#!/usr/bin/env python3
"""Checks for test/tools/trace.sh.

  trace_check.py csv FILE NP MODE [N B]
      MODE ring:  examples/02_ring.c (a long put to the right, a long got
                  from the right, two ints put to PE 0, two barriers)
      MODE plain: trace_ring N B
      MODE mixed: trace_ring N B mixed
      Every (source, target, kind) row must be present exactly once and
      equal the expected ops and bytes; every other cell must be 0.
  trace_check.py png FILE WIDTH HEIGHT
      PNG signature, IHDR size (8-bit RGB), chunk CRCs, IDAT inflating to
      HEIGHT * (1 + 3 * WIDTH) bytes, and not every pixel the same.
"""
import struct
import sys
import zlib

KINDS = ["put", "get", "amo", "signal", "collective"]


def expected(np_, mode, n, b):
    e = {}
    def add(s, d, k, ops, nbytes):
        o, by = e.get((s, d, k), (0, 0))
        e[(s, d, k)] = (o + ops, by + nbytes)
    # Collective calls: ring two barriers; plain a barrier before and after
    # the puts; mixed those, a broadcast, reduce, fcollect, alltoall, team
    # sync and a closing barrier.
    barriers = {"ring": 2, "plain": 2, "mixed": 8}[mode]
    for s in range(np_):
        right, left = (s + 1) % np_, (s - 1) % np_
        for d in range(np_):
            if d != s:
                add(s, d, "collective", barriers, 0)
        if mode == "ring":
            add(s, right, "put", 1, 8)   # shmem_long_p to the right neighbour
            add(s, right, "get", 1, 8)   # shmem_long_g from the right neighbour
            add(s, 0, "put", 1, 8)       # shmem_int_put of two ints to PE 0
        elif mode == "plain":
            add(s, right, "put", n, n * b)
        else:
            add(s, right, "put", 2 * n, 2 * n * b)
            add(s, left, "get", 1, b)
            add(s, 0, "amo", 1, 8)
            add(s, right, "signal", 1, b + 8)
            for d in range(np_):   # reduce, fcollect, alltoall: 8 bytes per peer
                if d != s:
                    add(s, d, "collective", 0, 3 * 8)
            if s == 0:  # the broadcast's root sends 8 bytes to each other PE
                for d in range(1, np_):
                    add(s, d, "collective", 0, 8)
    return e


def check_csv(path, np_, mode, n=0, b=0):
    lines = open(path).read().splitlines()
    if lines[0] != "source_pe,target_pe,kind,ops,bytes":
        sys.exit("bad header: %r" % lines[0])
    rows = {}
    for line in lines[1:]:
        s, d, k, ops, nbytes = line.split(",")
        key = (int(s), int(d), k)
        if key in rows:
            sys.exit("row repeated: %s" % line)
        rows[key] = (int(ops), int(nbytes))
    want = {(s, d, k) for s in range(np_) for d in range(np_) for k in KINDS}
    if set(rows) != want:
        sys.exit("rows: %d present, %d expected; missing %s, extra %s" % (
            len(rows), len(want), sorted(want - set(rows))[:5], sorted(set(rows) - want)[:5]))
    exp = expected(np_, mode, n, b)
    bad = [(key, rows[key], exp.get(key, (0, 0))) for key in sorted(rows)
           if rows[key] != exp.get(key, (0, 0))]
    for key, got, w in bad[:20]:
        print("cell %s: got ops,bytes %s, expected %s" % (key, got, w))
    if bad:
        sys.exit("%d cells differ from the expected matrix" % len(bad))
    print("ok: %s matrix of %d PEs exact (%d rows, %d non-zero)" % (
        mode, np_, len(rows), sum(1 for v in rows.values() if v != (0, 0))))


def check_png(path, width, height):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG signature")
    pos, chunks = 8, []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        tag, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(tag + body) & 0xffffffff != crc:
            sys.exit("bad CRC in chunk %r" % tag)
        chunks.append((tag, body))
        pos += 12 + length
    if chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND":
        sys.exit("chunks out of order: %s" % [c[0] for c in chunks])
    w, h, depth, ctype, comp, filt, lace = struct.unpack(">IIBBBBB", chunks[0][1])
    if (w, h) != (width, height) or (depth, ctype) != (8, 2):
        sys.exit("IHDR %dx%d depth %d type %d, expected %dx%d 8-bit RGB" % (
            w, h, depth, ctype, width, height))
    raw = zlib.decompress(b"".join(body for tag, body in chunks if tag == b"IDAT"))
    stride = 1 + 3 * w
    if len(raw) != h * stride:
        sys.exit("IDAT inflates to %d bytes, expected %d" % (len(raw), h * stride))
    if any(raw[r * stride] != 0 for r in range(h)):
        sys.exit("unexpected row filter")
    pixels = {raw[r * stride + 1 + 3 * x:r * stride + 4 + 3 * x] for r in range(h) for x in range(w)}
    if len(pixels) < 2:
        sys.exit("every pixel is the same colour")
    print("ok: %s is a %dx%d RGB PNG with %d colours" % (path, w, h, len(pixels)))


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[0] == "csv":
        check_csv(a[1], int(a[2]), a[3], *(int(x) for x in a[4:6]))
    elif a[0] == "png":
        check_png(a[1], int(a[2]), int(a[3]))
    else:
        sys.exit(__doc__)
