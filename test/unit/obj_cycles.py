#!/usr/bin/env python3
# No cycle of calls between the library's object files.
#
# From `nm` over the archive: object A uses object B when a symbol undefined
# in A (a call, or a variable it reads) is defined in B.  A cycle in that
# graph means two files that can only be understood together; each one is
# printed with the symbol behind every step, and the test fails.
#   obj_cycles.py ARCHIVE [NM]
import subprocess
import sys


def members(archive, nm):
    out = subprocess.run([nm, '-P', '-A', archive], check=True, capture_output=True,
                         text=True).stdout
    defined, used = {}, {}
    for line in out.splitlines():
        head, _, rest = line.rpartition(': ')
        fields = rest.split()
        if not head or len(fields) < 2:
            continue
        obj = head[head.rfind('[') + 1:].rstrip(']') if head.endswith(']') else head
        name, kind = fields[0], fields[1]
        if kind in ('U', 'w', 'v'):
            used.setdefault(obj, set()).add(name)
        elif kind not in ('N', 'n', 'a') and not name.startswith('.'):
            # Local symbols (lower case) cannot satisfy another object.
            if kind.isupper() or kind in ('u', 'i'):
                defined.setdefault(name, obj)
        used.setdefault(obj, set())
    return defined, used


def graph(defined, used):
    edges = {}
    for obj, names in used.items():
        for name in sorted(names):
            to = defined.get(name)
            if to is not None and to != obj:
                edges.setdefault(obj, {}).setdefault(to, name)
    return edges


def components(nodes, edges):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, comps, counter = {}, {}, set(), [], [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    return comps


def one_cycle(comp, edges):
    """A closed path through the component, from its first object."""
    inside = set(comp)
    start = comp[0]
    # Breadth-first from start back to start, inside the component.
    prev, frontier = {start: None}, [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(edges.get(v, {})):
                if w not in inside:
                    continue
                if w == start:
                    path = [v]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    path.reverse()
                    return path + [start]
                if w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return [start]


def short(obj):
    return obj.split('_', 1)[1] if obj[:3].isdigit() else obj


def main():
    archive = sys.argv[1]
    nm = sys.argv[2] if len(sys.argv) > 2 else 'nm'
    defined, used = members(archive, nm)
    edges = graph(defined, used)
    comps = components(sorted(used), edges)
    for comp in comps:
        path = one_cycle(comp, edges)
        steps = ' -> '.join('%s (%s)' % (short(a), edges[a][b]) for a, b in zip(path, path[1:]))
        print('FAIL: a cycle of calls between objects: %s -> %s' % (steps, short(path[-1])))
        if len(comp) > len(path) - 1:
            print('      the same knot holds: %s' % ', '.join(short(o) for o in comp))
    if comps:
        return 1
    print('ok: no cycle of calls among the %d objects of %s' % (len(used), archive))
    return 0


if __name__ == '__main__':
    sys.exit(main())
