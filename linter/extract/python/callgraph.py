"""The module's functions as a graph of calls by name: its cycles (a mutual recursion, ``a`` calls
``b`` calls ``a``), for reading a recursion's parameters (:meth:`~.frames.FrameLookups.recursive_calls`).
Each function's ``callees`` are the names it calls (:class:`~.scopes.Scope`)."""

from __future__ import annotations


def shortest_cycle(scope, members: list) -> int:
    """The fewest calls by name from the function ``scope`` back to itself through ``members`` (its
    strongly connected component)."""
    by_name = {m.node.name: m for m in members}
    frontier, seen, steps = [scope], {id(scope)}, 0
    while frontier:
        steps += 1
        nxt = []
        for f in frontier:
            for name in sorted(f.callees):
                g = by_name.get(name)
                if g is scope:
                    return steps
                if g is not None and id(g) not in seen:
                    seen.add(id(g))
                    nxt.append(g)
        frontier = nxt
    return len(members) + 1


def call_cycles(functions: list) -> dict:
    """``{id(function scope): [the scopes of its strongly connected component]}`` of the graph of
    ``functions`` (module functions) calling one another by name, for the components of more than
    one function (Tarjan's algorithm, without recursion: linear in the calls)."""
    by_name = {f.node.name: f for f in functions}
    edges = {id(f): [by_name[n] for n in sorted(f.callees) if n in by_name] for f in functions}
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    out: dict = {}
    counter = 0
    for root in functions:
        if id(root) in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[id(node)] = low[id(node)] = counter
                counter += 1
                stack.append(node)
                on_stack.add(id(node))
            nexts = edges[id(node)]
            if i < len(nexts):
                work.append((node, i + 1))
                nxt = nexts[i]
                if id(nxt) not in index:
                    work.append((nxt, 0))
                elif id(nxt) in on_stack:
                    low[id(node)] = min(low[id(node)], index[id(nxt)])
                continue
            if work:  # (back in the caller: its low link takes this one's)
                parent = work[-1][0]
                low[id(parent)] = min(low[id(parent)], low[id(node)])
            if low[id(node)] == index[id(node)]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(id(w))
                    component.append(w)
                    if w is node:
                        break
                if len(component) > 1:
                    for w in component:
                        out[id(w)] = component
    return out
