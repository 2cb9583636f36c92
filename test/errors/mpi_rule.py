#!/usr/bin/env python3
"""The one MPI error rule (docs/checks.md, "MPI errors"), checked on the sources.

Every MPI call of the library either is wrapped in MPISHMEM_MPI (a failure
stops the job with "mpishmem: <routine>: <call> failed: <MPI's string>") or
uses its return value where it stands (if (... != MPI_SUCCESS), rc = ...),
or carries a comment "unchecked: <why>" on its line.  This script lists
every call made as a bare statement, whose return value nobody looks at.
The few calls that cannot fail in a way we could report are exempt:
MPI_Abort, MPI_Error_string, MPI_Initialized, MPI_Finalized, MPI_Wtime.

usage: mpi_rule.py SOURCE_ROOT
"""
import pathlib
import re
import sys

EXEMPT = {'MPI_Abort', 'MPI_Error_string', 'MPI_Initialized', 'MPI_Finalized', 'MPI_Wtime'}
CALL = re.compile(r'^\s*(?:\(void\)\s*)?((?:P)?MPIX?_[A-Za-z_]+)\(')
MACRO_CALL = re.compile(r'#\s*define\s+\w+(?:\([^)]*\))?\s+((?:P)?MPIX?_[A-Za-z_]+)\(')


def statement_start(prev):
    return (prev == '' or prev.startswith('#') or prev == 'else' or
            prev.endswith((';', '{', '}', ':', ')', '*/')))


def main():
    root = pathlib.Path(sys.argv[1])
    bad = []
    for layer in ('lib', 'mpi_backend', 'spaces', 'teams'):
        for p in sorted((root / layer).rglob('*')):
            if p.suffix not in ('.c', '.h') or p.name == 'error.c':
                continue
            prev = ''
            for n, line in enumerate(p.read_text().split('\n'), 1):
                m = CALL.match(line) or MACRO_CALL.search(line)
                if (m and m.group(1) not in EXEMPT and 'unchecked:' not in line and
                        (MACRO_CALL.search(line) or statement_start(prev))):
                    bad.append('%s:%d: %s' % (p.relative_to(root), n, line.strip()))
                t = line.strip()
                if t and not t.startswith('//'):
                    prev = t
    if bad:
        print('MPI calls whose return value is ignored (wrap them in MPISHMEM_MPI, or say '
              '"unchecked: <why>" on the line):')
        print('\n'.join(bad))
        return 1
    print('ok: every MPI call of the library is checked or handled')
    return 0


sys.exit(main())
