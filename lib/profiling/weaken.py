#!/usr/bin/env python3
"""Add the weak shmem_ names to an archive compiled with pshmem_rename.h.

usage: weaken.py OBJCOPY AR RENAME_H IN.a OUT.a

Every library source defines pX for each routine X (the forced-include
rename).  For each object of IN.a this adds X as a weak alias of every pX it
defines (same section and offset: no extra jump), and writes OUT.a.  A weak
alias must sit in the object that defines its target, and no preprocessor
trick knows which object that is; the symbol table does, so new routines in
any source get their alias with no edit.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

objcopy, ar, rename_h, src, dst = sys.argv[1:]
alias_of = {}
for line in open(rename_h):
    m = re.match(r'#define (\w+) (p\w+)$', line.strip())
    if m:
        alias_of[m.group(2)] = m.group(1)

with tempfile.TemporaryDirectory() as tmp:
    names = subprocess.run([ar, 't', os.path.abspath(src)], capture_output=True,
                           text=True, check=True).stdout.split()
    with open(src, 'rb') as f:
        thin = f.read(7) == b'!<thin>'
    if thin:
        # meson's uninstalled archives are thin: the members are the objects.
        members = []
        for i, name in enumerate(names):
            members.append('%03d_%s' % (i, os.path.basename(name)))
            shutil.copyfile(os.path.join(os.path.dirname(os.path.abspath(src)), name)
                            if not os.path.isabs(name) else name,
                            os.path.join(tmp, members[-1]))
    else:
        members = names
        if len(members) != len(set(members)):
            sys.exit('weaken.py: duplicate member names in ' + src)
        subprocess.run([ar, 'x', os.path.abspath(src)], cwd=tmp, check=True)
    added = 0
    for obj in members:
        path = os.path.join(tmp, obj)
        table = subprocess.run(['objdump', '-t', path], capture_output=True,
                               text=True, check=True).stdout
        args = []
        for line in table.splitlines():
            # "0000000000000010 g     F .text  000000000000001a pshmem_foo"
            f = line.split()
            if len(f) < 6 or f[1] != 'g' or 'F' not in f[2:-3] or f[-1] not in alias_of:
                continue
            args += ['--add-symbol', '%s=%s:0x%s,weak,function' % (alias_of[f[-1]], f[-3], f[0])]
        if args:
            subprocess.run([objcopy] + args + [path], check=True)
            added += len(args) // 2
    if added == 0:
        sys.exit('weaken.py: no pshmem_ definitions found in ' + src)
    if os.path.exists(dst):
        os.unlink(dst)
    subprocess.run([ar, 'rcs', os.path.abspath(dst)] + members, cwd=tmp, check=True)
