"""Choosing among the values a file gives along paths the linter cannot decide (issue 35): the part
the Python and shell formats share.

A value kept per path is a list of ``(conds, value)`` options; ``conds`` is a tuple of ``(decision,
branch, label)`` — ``decision`` names an ``if``/``case``/conditional expression, ``branch`` which of
its paths, ``label`` says it in words. Code that reads such a value is run once per path of the
decisions it reads (:func:`explore`): each run has the branches taken so far, and :func:`select`
gives the option of those branches or names the next decision to take.
"""

from __future__ import annotations

from linter import limits

MISSING = object()
""":func:`select` found no option for the branches taken: a decision is still to be taken."""

TOO_MANY = ("too many paths", ())
"""The decision a run asks for when it knows its paths are past ``limits.MAX_PATH_VARIANTS`` (it read
a value kept past the cap): :func:`explore` gives up at once."""


def select(options: list, taken: dict):
    """``(value, pending)``: the option of ``options`` whose conditions agree with ``taken`` (decision
    -> branch), or ``(MISSING, (decision, [(branch, label), ...]))`` naming the first decision an
    option that could still apply needs and the branches the options give it."""
    for conds, value in options:
        if all(taken.get(k, -1) == b for k, b, _ in conds):
            return value, None
    for conds, _ in options:
        if all(taken.get(k, b) == b for k, b, _ in conds):
            for k, _, _ in conds:
                if k not in taken:
                    return MISSING, decision_branches(options, k)
    return MISSING, None


def decision_branches(options: list, key) -> tuple:
    """``(key, [(branch, label), ...])``: the branches the conditions of ``options`` give the decision
    ``key`` (an ``elif`` branch's label saying the tests before it fail), each once."""
    branches: list = []
    for conds, _ in options:
        for k, b, label in conds:
            if k == key and all(b != x for x, _ in branches):
                branches.append((b, label))
    return key, _chained(key, branches)


def _chained(key, branches: list) -> list:
    """The branches of an ``if``/``elif`` chain (a decision keyed ``("chain", …)``, as the Python
    format keys them) with each ``elif`` branch's label saying the tests before it fail ("when `A`
    is false and `B` is true"), as far as those branches are among ``branches``; other decisions
    as they are."""
    if not (isinstance(key, tuple) and key and key[0] == "chain"):
        return branches
    out, before = [], []
    for b, label in sorted(branches, key=lambda x: x[0]):
        prefix = " and ".join(before) + " and "
        if before and not label.startswith(("none of ", prefix)):  # (a label said so already stays)
            out.append((b, prefix + label))
        else:
            out.append((b, label))
        before.append(negate(label.removeprefix(prefix) if before else label))
    return out


def negate(label: str) -> str:
    """A condition's label turned into its opposite: "`x` is true" <-> "`x` is false", "`t` succeeds"
    <-> "`t` fails", else "not (label)"."""
    for yes, no in ((" is true", " is false"), (" succeeds", " fails")):
        if label.endswith(yes):
            return label[:-len(yes)] + no
        if label.endswith(no):
            return label[:-len(no)] + yes
    return f"not ({label})"


def explore(run, start, possible=None) -> list | None:
    """Run ``run()`` once per path: ``start(conds)`` begins a run along ``conds`` (the branches taken,
    ``(decision, branch, label)`` each) and returns a function giving, after it, the decision it still
    needs (None when it needed none). ``possible(conds)``, when given, says whether a run can go along
    ``conds``; a path it refuses is not run (two tests of one variable against different texts both
    succeeding).
    ``[(conds, result), ...]`` for the runs that needed nothing more, or None past
    ``limits.MAX_PATH_VARIANTS`` paths."""
    done: list = []
    todo: list = [()]
    while todo:
        conds = todo.pop()
        pending = start(conds)
        result = run()
        need = pending()
        if need is None:
            done.append((conds, result))
            continue
        if need is TOO_MANY:
            return None
        key, branches = need
        more = [conds + ((key, b, label),) for b, label in reversed(branches)]
        if possible is not None:
            more = [c for c in more if possible(c)] or more
        if len(done) + len(todo) + len(more) > limits.MAX_PATH_VARIANTS:
            return None
        todo.extend(more)
    return done


def describe(labels) -> str:
    """A path's conditions in words: "when `args.x` is true and `$MODE` matches `det`"."""
    return "when " + " and ".join(labels)


def flatten(pairs, nested: type, same) -> list | None:
    """The options of ``pairs`` (``(conds, value)``, one per path) with values of type ``nested`` (a
    value per path itself) flattened under their path's conditions; None when every path has the same
    value (``same(a, b)``), which is then ``options[0][1]``. Shared by the Python and shell formats."""
    options: list = []
    for conds, v in pairs:
        if isinstance(v, nested):
            options.extend((tuple(conds) + c, x) for c, x in v.options)
        else:
            options.append((tuple(conds), v))
    first = options[0][1]
    return None if all(same(first, x) for _, x in options[1:]) else options


def separating(conds: list[dict], differ) -> set:
    """The decisions that separate options whose difference matters (``differ(i, j)``): two options
    whose conditions ``conds`` (decision -> branch) differ in one decision only (a decision one of
    them does not meet aside) count for that decision; when no such pair matters, a pair that
    differs in several decisions counts for each of them."""
    single: set = set()
    several: set = set()
    for i in range(len(conds)):
        for j in range(i + 1, len(conds)):
            a, b = conds[i], conds[j]
            apart = {k for k in a if k in b and a[k] != b[k]}
            if not apart or apart <= single or (len(apart) > 1 and (single or apart <= several)):
                continue
            if differ(i, j):
                if len(apart) == 1:
                    single |= apart
                else:
                    several |= apart
    return single or several


def kept_apart(conds: list[dict], differ, tiers, most: int) -> list:
    """The decisions of ``conds`` (each option's decision -> branch) to keep apart when only ``most``
    paths fit: tier by tier (``tiers``, most important first: :data:`linter.sglang.decisive.PRIORITY`;
    ``differ(i, j, tier)`` says whether options ``i`` and ``j`` differ in what ``tier`` finds), the decisions
    :func:`separating` finds, each added in the order the options meet them while the options still
    fall in at most ``most`` groups of the branches of the decisions kept. So a decision of a later
    tier never pushes out one of an earlier: past the cap, 3 × 3 ``case``s on ``--tp`` and an ``if``
    that turns deterministic inference on keep the ``if`` (fresh review rev39 D3). ``[]`` when no
    decision matters."""
    order: dict = {}
    for c in conds:
        for k in c:
            order.setdefault(k, len(order))
    keep: list = []
    groups = 1
    for tier in tiers:
        found = separating(conds, lambda i, j: differ(i, j, tier))
        for k in sorted(found - set(keep), key=order.__getitem__):
            trial = keep + [k]
            n = len({tuple(c.get(d) for d in trial) for c in conds})
            if n <= most and n > groups:
                keep, groups = trial, n
    return keep


def common_subsequence(n: int, m: int, same) -> list[tuple[int, int]]:
    """The index pairs ``(i, j)`` of a longest common subsequence of two sequences of ``n`` and ``m``
    items, ``same(i, j)`` telling whether item ``i`` of the first matches item ``j`` of the second.
    Shared by the Python and shell formats (aligning the values of merged paths)."""
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if same(i, j) else max(below[j], row[j + 1])
    out = []
    i = j = 0
    while i < n and j < m:
        if same(i, j):
            out.append((i, j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def shared_start(a, b) -> int:
    """How many first items (characters) two sequences (strings) share: a binary search comparing
    slices, so the items are compared in C (``O(n log n)`` there, not ``O(n)`` Python steps — merges
    past the cap compare values of hundreds of words many times)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def shared_end(a, b, most: int) -> int:
    """How many last items two sequences share, at most ``most`` (:func:`shared_start`)."""
    lo, hi = 0, min(len(a), len(b), most)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid:len(a) - lo] == b[len(b) - mid:len(b) - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def text_middles(x: str, y: str) -> str:
    """The parts of two texts that differ, between the start and the end they share (from the start
    of the word when the difference begins inside one), joined by a blank: what tells whether two
    paths' values differ in an option that matters."""
    n = min(len(x), len(y))
    p = shared_start(x, y)
    q = shared_end(x, y, n - p)
    if p and not x[p - 1].isspace() and any(p < len(t) and not t[p].isspace() for t in (x, y)):
        p = max(x.rfind(" ", 0, p), y.rfind(" ", 0, p)) + 1
    return x[p:len(x) - q] + " " + y[p:len(y) - q]
