#!/usr/bin/env python3
"""Size limits of the library's sources: no file in lib/, mpi_backend/,
spaces/ or teams/ (any depth) over 450 lines, no function there over 80.

A function is a brace block at file level whose head ends with ')' (after
any attributes) and holds no '='; its length runs from the line of its
name to its closing brace.  Comments, string and character literals and
preprocessor lines (with their continuations) are blanked first, keeping
line numbers, so braces inside them do not count.

  size_limits.py SOURCE_ROOT [FILE...]   (files: check only these)
"""
import os
import re
import sys

MAX_FILE_LINES = 450
MAX_FUNCTION_LINES = 80
DIRS = ("lib", "mpi_backend", "spaces", "teams")


def blank(text):
    """text with comments, literals and preprocessor lines turned to spaces
    (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":
            # a directive, with its backslash continuations
            while i < n and not (text[i] == "\n" and text[i - 1] != "\\"):
                out.append("\n" if text[i] == "\n" else " ")
                i += 1
            continue
        line_start = False
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c)
            i = j
        else:
            out.append(c)
            if c == "\n":
                line_start = True
            i += 1
    return "".join(out)


def functions(text):
    """(name, first line, last line) of each function defined in text."""
    code = blank(text)
    found = []
    depth = 0
    head_start = 0  # offset where the current file-level declaration began
    open_at = None
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0:
                head = code[head_start:i]
                stripped = re.sub(r"__attribute__\s*\(\(.*?\)\)", "", head, flags=re.S).rstrip()
                if "(" in head and "=" not in head and stripped.endswith(")"):
                    m = re.search(r"([A-Za-z_]\w*)\s*\(", head)
                    name = m.group(1) if m else "?"
                    first = code.count("\n", 0, head_start + head.index(m.group(0) if m else "(")) + 1
                    open_at = (name, first)
                else:
                    open_at = None
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if open_at:
                    found.append((open_at[0], open_at[1], code.count("\n", 0, i) + 1))
                    open_at = None
                head_start = i + 1
            depth = max(depth, 0)
        elif c == ";" and depth == 0:
            head_start = i + 1
    return found


def check(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        text = f.read()
    problems = []
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines > MAX_FILE_LINES:
        problems.append(f"{rel}: {lines} lines, more than {MAX_FILE_LINES}")
    for name, first, last in functions(text):
        length = last - first + 1
        if length > MAX_FUNCTION_LINES:
            problems.append(f"{rel}:{first}: {name} is {length} lines, more than "
                            f"{MAX_FUNCTION_LINES}")
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files = sys.argv[2:]
    if not files:
        for d in DIRS:
            for dirpath, _, names in os.walk(os.path.join(root, d)):
                for nm in sorted(names):
                    if nm.endswith((".c", ".h")):
                        files.append(os.path.relpath(os.path.join(dirpath, nm), root))
    problems = []
    for rel in sorted(files):
        problems += check(root, rel)
    for p in problems:
        print(p)
    print(f"{len(files)} files checked, {len(problems)} over the limits "
          f"({MAX_FILE_LINES} lines a file, {MAX_FUNCTION_LINES} a function)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
