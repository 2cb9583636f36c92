#!/usr/bin/env python3
"""The Debian 13 core set (test/deb13/core.sh) from a configured build:
prints two lines, the ninja targets its tests need, then the test names.

usage: select.py BUILDDIR "NAME ..." "SHAPE ..."

A NAME picks the tests called NAME or NAME-<shape>, or starting with NAME_
for "examples"; of those, the ones in the SHAPEs (np1-shm1, hybrid2x2, ...)
run, or all of them if none is in a SHAPE.  Targets: what the tests depend
on, and the build's files named on their command lines.

SPDX-License-Identifier: BSD-3-Clause
"""
import json
import os
import subprocess
import sys

build, names, shapes = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()


def introspect(what):
    return json.loads(subprocess.check_output(['meson', 'introspect', build, what]))


tests = introspect('--tests')
files = {}
library = []  # the library itself, static and shared (scripts find it)
for t in introspect('--targets'):
    files[t['id']] = t['filename']
    if t['name'] == 'mpishmem':
        library += t['filename']


def shape(name):
    parts = name.split('-')
    return parts[-1] in shapes or '-'.join(parts[-2:]) in shapes


pick = []
for n in names:
    own = [t for t in tests if t['name'] == n or t['name'].startswith(n + '-') or
           (n == 'examples' and t['name'].startswith('examples_'))]
    pick += [t for t in own if shape(t['name'])] or own
out = set(library)
root = os.path.abspath(build)
for t in pick:
    for d in t['depends']:
        out.update(files.get(d, []))
    for a in t['cmd'][1:] + t.get('args', []):
        p = os.path.join(root, a) if not os.path.isabs(a) else a
        if p.startswith(root + '/') and any(p in v for v in files.values()):
            out.add(p)
print(' '.join(sorted(os.path.relpath(f, root) for f in out)))
print(' '.join(t['name'] for t in pick))
