#!/usr/bin/env python3
"""Checks that docs/ reads as a reference and hangs together.

Fails on: a tracker number ("issue 19", "#19", "task 12") or a date
(2026-11-27) in docs/*.md or README.md, a page over MAX_LINES lines, a
docs page that no chain of links from docs/index.md reaches, and a
relative link to a file or heading that does not exist.  Usage:
docs_check.py [SOURCE_ROOT] (default: $MESON_SOURCE_ROOT, else two
directories up from this file).
"""
import os
import re
import sys

MAX_LINES = 600
INDEX = 'docs/index.md'

# History belongs in CHANGELOG.md and git, not in the reference.
FORBIDDEN = [
    (re.compile(r'\b(?:issues?|tasks?|tickets?|sessions?)\s+#?\d+', re.I), 'tracker number'),
    (re.compile(r'(?<![\w/#&])#\d+\b'), 'tracker number'),
    (re.compile(r'\b(?:19|20)\d\d-\d\d-\d\d\b'), 'date'),
]
LINK = re.compile(r'(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)|!\[[^\]]*\]\(([^)\s]+)\)')
FENCE = re.compile(r'^\s*(```|~~~)')


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    inside = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield n, line


def slug(heading):
    """GitHub's anchor for a heading."""
    s = heading.strip().lower()
    s = re.sub(r'`|\*\*?|__', '', s)
    s = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', s)
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def anchors(text):
    seen = {}
    out = set()
    for _, line in prose_lines(text):
        m = re.match(r'#{1,6}\s+(.*?)\s*#*\s*$', line)
        if not m:
            continue
        base = slug(m.group(1))
        k = seen.get(base, 0)
        out.add(base if k == 0 else '%s-%d' % (base, k))
        seen[base] = k + 1
    return out


def main():
    root = (sys.argv[1] if len(sys.argv) > 1 else
            os.environ.get('MESON_SOURCE_ROOT') or
            os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    root = os.path.abspath(root)
    docs = os.path.join(root, 'docs')
    pages = sorted(os.path.join('docs', f) for f in os.listdir(docs) if f.endswith('.md'))
    checked = pages + ['README.md']
    problems = []
    texts = {}
    for rel in checked:
        with open(os.path.join(root, rel), encoding='utf-8') as f:
            texts[rel] = f.read()

    links = {}   # page -> set of pages it links to
    for rel in checked:
        text = texts[rel]
        nlines = text.count('\n')
        if rel.startswith('docs/') and nlines > MAX_LINES:
            problems.append('%s: %d lines, more than %d: split it by topic'
                            % (rel, nlines, MAX_LINES))
        for n, line in enumerate(text.splitlines(), 1):
            for pat, what in FORBIDDEN:
                m = pat.search(line)
                if m:
                    problems.append('%s:%d: %s "%s": history goes to CHANGELOG.md'
                                    % (rel, n, what, m.group(0)))
        links[rel] = set()
        for n, line in prose_lines(text):
            for m in LINK.finditer(line):
                target = m.group(1) or m.group(2)
                if re.match(r'[a-z][a-z0-9+.-]*:', target, re.I):
                    continue          # http:, mailto:, ...
                path, _, frag = target.partition('#')
                if path:
                    dest = os.path.normpath(os.path.join(os.path.dirname(rel), path))
                else:
                    dest = rel
                if not os.path.exists(os.path.join(root, dest)):
                    problems.append('%s:%d: link to missing file %s' % (rel, n, target))
                    continue
                if dest.endswith('.md'):
                    links[rel].add(dest)
                    if frag and dest in texts and frag not in anchors(texts[dest]):
                        problems.append('%s:%d: link to missing heading %s'
                                        % (rel, n, target))

    if INDEX not in texts:
        problems.append('%s: missing (the index every docs page is reached from)' % INDEX)
    else:
        reached, todo = {INDEX}, [INDEX]
        while todo:
            for dest in links.get(todo.pop(), ()):
                if dest not in reached:
                    reached.add(dest)
                    todo.append(dest)
        for rel in pages:
            if rel not in reached:
                problems.append('%s: not reachable by links from %s' % (rel, INDEX))
        if 'README.md' in texts and INDEX not in links['README.md']:
            problems.append('README.md: does not link %s' % INDEX)

    for p in problems:
        print(p)
    print('docs_check: %d pages, %d problems' % (len(checked), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
