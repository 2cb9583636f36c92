#!/usr/bin/env python3
"""Turn one man-page source (a small markdown subset) into roff.

usage: gen_man.py SOURCE.md OUT_DIR VERSION

Source format:
  line 1:  'NAME(SECTION) - one-line description'
  'aliases: a b c'  (optional, line 2): names that get a '.so' page
  '# HEADING'       a section (.SH)
  '```' ... '```'   a literal block (.nf/.fi)
  '- item'          a bullet; other lines are text (blank line = paragraph)
  `code`, **bold**  inline
Writes OUT_DIR/NAME.SECTION and OUT_DIR/ALIAS.SECTION for each alias.
"""
import os
import re
import sys

src, outdir, version = sys.argv[1:]
lines = open(src).read().splitlines()
m = re.match(r'^(\S+)\((\d)\) - (.*)$', lines[0])
if not m:
    sys.exit('gen_man.py: %s: first line must be "NAME(N) - description"' % src)
name, sect, desc = m.groups()
body = lines[1:]
aliases = []
if body and body[0].startswith('aliases:'):
    aliases = body[0].split()[1:]
    body = body[1:]


def esc(text):
    text = text.replace('\\', '\\e').replace('-', '\\-')
    text = re.sub(r'`([^`]+)`', r'\\fB\1\\fR', text)
    text = re.sub(r'\*\*([^*]+)\*\*', r'\\fB\1\\fR', text)
    if text.startswith('.') or text.startswith("'"):
        text = '\\&' + text
    return text


out = ['.TH %s %s "" "mpishmem %s" "mpishmem"' % (name.upper(), sect, version),
       '.SH NAME', '%s \\- %s' % (esc(name), esc(desc))]
literal = False
for ln in body:
    if ln.startswith('```'):
        out.append('.fi' if literal else '.nf')
        if literal:
            out.append('.PP')
        literal = not literal
    elif literal:
        out.append(esc(ln) if ln.strip() else '')
    elif ln.startswith('# '):
        out.append('.SH ' + ln[2:].upper())
    elif ln.startswith('- '):
        out += ['.IP \\(bu 2', esc(ln[2:])]
    elif not ln.strip():
        out.append('.PP')
    else:
        out.append(esc(ln))
os.makedirs(outdir, exist_ok=True)
with open(os.path.join(outdir, '%s.%s' % (name, sect)), 'w') as f:
    f.write('\n'.join(out) + '\n')
for a in aliases:
    with open(os.path.join(outdir, '%s.%s' % (a, sect)), 'w') as f:
        f.write('.so man%s/%s.%s\n' % (sect, name, sect))
