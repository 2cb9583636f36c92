#!/usr/bin/env python3
"""mpishmem-trace: the communication map of MPISHMEM_TRACE as a heat-map PNG.

    mpishmem-trace [--metric bytes|ops] [--kind panels|total|KIND]
                   [--cell PIXELS] [-o OUT.png] TRACE.csv

Reads the CSV that shmem_finalize writes when MPISHMEM_TRACE is set
(header source_pe,target_pe,kind,ops,bytes; docs/tools.md) and draws one
n x n matrix per panel: source PE = row (top to bottom), target PE = column
(left to right).  --kind panels (default) draws put, get, amo, signal,
collective side by side; total draws their sum; a kind name draws that one.
Colour: white for 0, then pale yellow to dark red on a log scale shared by
all panels.  Only the standard library is used (zlib, struct).
"""
import argparse
import math
import struct
import sys
import zlib

KINDS = ["put", "get", "amo", "signal", "collective"]
HEADER = ["source_pe", "target_pe", "kind", "ops", "bytes"]
GAP = 4                      # white columns between panels
ZERO = (255, 255, 255)
RAMP = [(255, 237, 160), (254, 178, 76), (240, 59, 32), (128, 0, 38)]


def fail(msg):
    sys.stderr.write("mpishmem-trace: %s\n" % msg)
    sys.exit(1)


def read_csv(path):
    """{(src, dst, kind): (ops, bytes)} and the PE count."""
    try:
        with open(path, encoding="ascii") as f:
            lines = f.read().splitlines()
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        fail("%s: not a trace file (not ASCII text)" % path)
    if not lines or lines[0].strip().split(",") != HEADER:
        fail("%s:1: not a trace file: the header must be %s" % (path, ",".join(HEADER)))
    cells, n = {}, 0
    for no, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        f = line.strip().split(",")
        if len(f) != 5:
            fail("%s:%d: expected 5 fields (%s), found %d" % (path, no, ",".join(HEADER), len(f)))
        try:
            src, dst, ops, nbytes = int(f[0]), int(f[1]), int(f[3]), int(f[4])
        except ValueError:
            fail("%s:%d: PE numbers, ops and bytes must be integers: '%s'" % (path, no, line))
        if min(src, dst, ops, nbytes) < 0:
            fail("%s:%d: negative value in '%s'" % (path, no, line))
        if f[2] not in KINDS:
            fail("%s:%d: unknown kind '%s' (one of %s)" % (path, no, f[2], ", ".join(KINDS)))
        if (src, dst, f[2]) in cells:
            fail("%s:%d: row for source %d, target %d, %s repeated" % (path, no, src, dst, f[2]))
        cells[(src, dst, f[2])] = (ops, nbytes)
        n = max(n, src + 1, dst + 1)
    if n == 0:
        fail("%s: no rows after the header" % path)
    return cells, n


def matrices(cells, n, metric, kind):
    """[(name, n x n list)] for the panels asked for."""
    idx = 0 if metric == "ops" else 1
    def one(kinds):
        m = [[0] * n for _ in range(n)]
        for (s, d, k), v in cells.items():
            if k in kinds:
                m[s][d] += v[idx]
        return m
    if kind == "panels":
        return [(k, one([k])) for k in KINDS]
    if kind == "total":
        return [("total", one(KINDS))]
    return [(kind, one([kind]))]


def colour(v, vmax):
    if v == 0:
        return ZERO
    t = math.log1p(v) / math.log1p(vmax) if vmax > 0 else 1.0
    x = t * (len(RAMP) - 1)
    i = min(int(x), len(RAMP) - 2)
    f = x - i
    a, b = RAMP[i], RAMP[i + 1]
    return tuple(int(round(a[c] + (b[c] - a[c]) * f)) for c in range(3))


def png(width, height, rows):
    """An 8-bit RGB PNG from rows of bytes (3 per pixel)."""
    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data +
                struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff))
    raw = b"".join(b"\x00" + r for r in rows)   # filter type 0 on every row
    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    ap = argparse.ArgumentParser(prog="mpishmem-trace",
                                 description="Heat map of an MPISHMEM_TRACE file.")
    ap.add_argument("csv", help="the file MPISHMEM_TRACE named")
    ap.add_argument("-o", "--output", help="PNG to write (default: CSV name with .png)")
    ap.add_argument("--metric", choices=["bytes", "ops"], default="bytes",
                    help="colour by bytes (default) or by operation count")
    ap.add_argument("--kind", choices=["panels", "total"] + KINDS, default="panels",
                    help="one panel per kind (default), their total, or one kind")
    ap.add_argument("--cell", type=int, default=0,
                    help="pixels per matrix cell (default: about 256 pixels per panel)")
    a = ap.parse_args()
    cells, n = read_csv(a.csv)
    cell = a.cell if a.cell > 0 else max(1, min(32, 256 // n))
    panels = matrices(cells, n, a.metric, a.kind)
    vmax = max(max(max(r) for r in m) for _, m in panels)
    side = n * cell
    width = len(panels) * side + (len(panels) - 1) * GAP
    if width * side > 1 << 28:
        fail("%d PEs at %d pixels per cell make too large an image; lower --cell" % (n, cell))
    gap = bytes(ZERO) * GAP
    rows = []
    for s in range(n):
        parts = []
        for _, m in panels:
            parts.append(b"".join(bytes(colour(v, vmax)) * cell for v in m[s]))
        row = gap.join(parts)
        rows.extend([row] * cell)
    out = a.output or (a.csv[:-4] if a.csv.endswith(".csv") else a.csv) + ".png"
    try:
        with open(out, "wb") as f:
            f.write(png(width, side, rows))
    except OSError as e:
        fail("cannot write %s: %s" % (out, e.strerror or e))
    print("%s: %d PEs, %s per cell, max %d; panels left to right: %s" %
          (out, n, a.metric, vmax, ", ".join(name for name, _ in panels)))


if __name__ == "__main__":
    main()
