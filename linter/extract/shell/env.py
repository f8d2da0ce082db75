"""Shell variables: the environment a walker carries, and the merge of the environments that
different paths of a script leave.
"""

from __future__ import annotations

import contextvars
import re

from linter import limits
from linter.branches import MISSING, select
from linter.extract.shell.subjects import facts, is_linked, possible
from linter.launch import MStr, Token, same_origins

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
"""A shell variable name."""


class _State:
    """A variable state that is not a value (unknown, unset, never assigned)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNKNOWN_V = _State("UNKNOWN")
"""A variable the file assigns a value that cannot be known."""
UNSET = _State("UNSET")
"""A variable the file unsets (or declares without a value)."""
ABSENT = _State("ABSENT")
"""A variable the file never assigns (its value would come from outside)."""


class _Link:
    """One step of a :class:`Layered` map's history: the names folded into its base at that step."""

    __slots__ = ("parent", "names", "depth")

    def __init__(self, parent: _Link | None, names: frozenset) -> None:
        self.parent = parent
        self.names = names
        self.depth = parent.depth + 1 if parent is not None else 0


class Layered:
    """A dict that copies in time proportional to its recent changes, for the many copies a walk makes
    (a loop, a branch, a call each copy the variables).

    ``base`` is a dict shared by copies and never changed; ``top`` holds this copy's own changes and
    is folded into a new base once it has more than 8 names and more than an eighth of the square root
    of the base's count: a copy then costs at most that many names (a merge compares them in Python),
    and a fold (a copy of the base in C) comes once per that many changes. ``link`` records
    the names of each fold, so :func:`changed` finds the names two copies may differ in without
    comparing every name.
    """

    __slots__ = ("base", "top", "link")

    def __init__(self, base: dict | None = None) -> None:
        self.base = dict(base) if base else {}
        self.top: dict = {}
        self.link = _Link(None, frozenset())

    def get(self, name: str, default=None):
        """The value of ``name``, or ``default``."""
        top = self.top
        if name in top:
            return top[name]
        return self.base.get(name, default)

    def put(self, name: str, value) -> None:
        """Set ``name`` in this copy only (folding the changes into a new base when they grow)."""
        top = self.top
        top[name] = value
        if len(top) > 8 and len(top) * len(top) * 64 > len(self.base):
            base = dict(self.base)
            base.update(top)
            self.link = _Link(self.link, frozenset(top))
            self.base, self.top = base, {}

    def copy(self) -> Layered:
        """A copy sharing the base: costs this copy's own changes."""
        out = Layered.__new__(Layered)
        out.base, out.top, out.link = self.base, dict(self.top), self.link
        return out

    def items(self):
        """Every (name, value), folded (linear in the size)."""
        if not self.top:
            return self.base.items()
        merged = dict(self.base)
        merged.update(self.top)
        return merged.items()


def changed(maps: list[Layered]) -> set | None:
    """The names whose values may differ between ``maps`` (copies of one map): their own changes
    and the folds since their common history; None when they share no history."""
    names: set = set()
    for m in maps:
        names.update(m.top)
    links = [m.link for m in maps]
    while True:
        first = links[0]
        if all(link is first for link in links):
            return names
        deepest = max(link.depth for link in links)
        if deepest == 0:
            return None
        for k, link in enumerate(links):
            if link.depth == deepest:
                names.update(link.names)
                links[k] = link.parent


class Env:
    """name -> MStr (scalar) | list[Token] (array) | UNKNOWN_V | UNSET; ABSENT = never assigned.

    ``vars`` and ``exported`` (name -> bool) are :class:`Layered` maps, so the copies a walk makes
    cost their recent changes, not the number of variables.
    """

    __slots__ = ("vars", "exported", "allexport", "paths", "gone")

    def __init__(self, vars_: dict | None = None, exported: set | None = None, allexport: bool = False) -> None:
        self.vars = Layered(vars_)
        self.exported = Layered(dict.fromkeys(exported, True) if exported else None)
        self.allexport = allexport
        self.paths = bool(vars_) and any(isinstance(v, Paths) for v in vars_.values())
        """Some variable holds a value per path (:class:`Paths`): commands are run once per path."""
        self.gone: frozenset = frozenset()
        """``(decision, branch)`` pairs of the tests of a variable (:mod:`.subjects`) whose branch ended the
        script before here (``[ -n "$DET" ] && exit 1``), the variable not assigned since: every path
        here takes the other branch."""

    def copy(self) -> Env:
        out = Env.__new__(Env)
        out.vars, out.exported, out.allexport = self.vars.copy(), self.exported.copy(), self.allexport
        out.paths, out.gone = self.paths, self.gone
        return out

    def replace(self, other: Env) -> None:
        self.vars, self.exported, self.allexport = other.vars, other.exported, other.allexport
        self.paths, self.gone = other.paths, other.gone

    def get(self, name: str):
        """The value of ``name`` (on the path of the run under way, for a :class:`Paths` value)."""
        return pick(self.vars.get(name, ABSENT))

    def set(self, name: str, value, export: bool = False) -> None:
        self.vars.put(name, value)
        if self.gone:
            self._forget_tests(name)
        if export or self.allexport:
            self.export(name)

    def put(self, name: str, value) -> None:
        """Set ``name`` without exporting it (``unset``)."""
        self.vars.put(name, value)
        if self.gone:
            self._forget_tests(name)

    def _forget_tests(self, name: str) -> None:
        """``name`` is given a new value: what a guard before said of it no longer holds."""
        self.gone = frozenset(g for g in self.gone if g[0][2] != name)

    def is_exported(self, name: str) -> bool:
        """Whether ``name`` is exported (``export``, ``declare -x``, ``set -a`` when it was set)."""
        return self.exported.get(name, False)

    def export(self, name: str) -> None:
        """Mark ``name`` exported."""
        if not self.exported.get(name, False):
            self.exported.put(name, True)

    def unexport(self, name: str) -> None:
        """Mark ``name`` not exported (``export -n``, ``unset``)."""
        if self.exported.get(name, False):
            self.exported.put(name, False)

    def child(self, extra: dict | None = None, inherit: bool = True) -> Env:
        """The environment a child process sees: exported variables; others the file assigned are
        unknown there (the name may have come from the environment, exported)."""
        out: dict = {}
        if inherit:
            exported = self.exported
            for name, value in self.vars.items():
                if value is ABSENT:
                    continue
                if self.allexport or value is UNSET or exported.get(name, False):
                    out[name] = value
                else:
                    out[name] = UNKNOWN_V
        for name, value in (extra or {}).items():
            out[name] = value
        return Env(out, set(out))


def _same(a, b) -> bool:
    if a is b:
        return True
    if isinstance(a, MStr) and isinstance(b, MStr):
        return a.text == b.text and same_origins(a, b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(x.splat == y.splat and _same(x.text, y.text) for x, y in zip(a, b))
    return False


def _same_text(a, b) -> bool:
    if isinstance(a, MStr) and isinstance(b, MStr):
        return a.text == b.text
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(x.splat == y.splat and x.text.text == y.text.text for x, y in zip(a, b))
    return False


def _unlocated(value):
    """The same value with no editable origin (equal text written in several places)."""
    if isinstance(value, MStr):
        return MStr.plain(value.text, value.where)
    return [Token(_unlocated(t.text), t.splat) for t in value]


def small_number(text: str | None) -> int | None:
    """``text`` as a count or index when it is ASCII decimal digits of at most 18 (``shift 2``,
    ``${A[3]}``, ``$((8))``); None otherwise — a Unicode digit (``²``), or a number so long that
    ``int()`` would refuse it or the value would mean nothing (a hostile file's 5,000 nines)."""
    if text and len(text) <= 18 and text.isascii() and text.isdigit():
        return int(text)
    return None


ARGV = "\x00argv"
"""The positional parameters of a call of a function of the file (a list of tokens: ``$1``, ``"$@"``);
absent at the top of a script (its arguments come from outside: unknown)."""

def merge_value(a, b):
    """The value of a variable after two paths that leave ``a`` and ``b`` (as :func:`merge` does it)."""
    if _same(a, b):
        return a
    if _same_text(a, b):
        return _unlocated(a)
    return UNKNOWN_V


class Merged:
    """The merge of environments met one after another (a function's call sites), kept as the last
    of them and what differs from it, so each costs its changes since the one before (not a copy of
    every variable per call). :meth:`env` equals :func:`merge` of them all, in order."""

    __slots__ = ("last", "overrides", "exported", "allexport", "gone")

    def __init__(self) -> None:
        self.last: Env | None = None
        self.overrides: dict = {}  # name -> merged value, where it is not last's value
        self.exported: set = set()  # names exported at some earlier call
        self.allexport = False
        self.gone: frozenset = frozenset()  # the branches gone at every call

    def add(self, env: Env) -> None:
        last = self.last
        self.gone = env.gone if last is None else self.gone & env.gone
        if last is not None:
            names = changed([last.vars, env.vars])
            if names is None:
                names = {n for e in (last, env) for n, _ in e.vars.items()}
            overrides = self.overrides
            last_top, last_base = last.vars.top, last.vars.base
            top, base = env.vars.top, env.vars.base
            for n in names:
                new = top[n] if n in top else base.get(n, ABSENT)
                if n in overrides:
                    old = overrides[n]
                    if old is UNKNOWN_V:
                        continue  # unknown at one call: unknown whatever the others hold
                else:
                    old = last_top[n] if n in last_top else last_base.get(n, ABSENT)
                    if old is new:
                        continue
                value = merge_value(old, new)
                if value is new:
                    overrides.pop(n, None)
                else:
                    overrides[n] = value
            xnames = changed([last.exported, env.exported])
            if xnames is None:
                xnames = {n for n, _ in last.exported.items()}
            self.exported.update(n for n in xnames if last.is_exported(n))
        self.allexport = self.allexport or env.allexport
        self.last = env.copy()

    def env(self) -> Env:
        """The merged environment (a new one)."""
        out = self.last.copy()
        out.allexport, out.gone = self.allexport, self.gone
        for n, value in self.overrides.items():
            out.vars.put(n, value)
        for n in self.exported:
            out.export(n)
        return out


class Paths:
    """A variable's values along the paths of an ``if``/``case`` the linter cannot decide (issue 35):
    ``options`` are ``(conds, value)`` as :mod:`linter.branches` reads them; a value is an MStr, a list
    of tokens, :data:`UNKNOWN_V`, :data:`UNSET` or :data:`ABSENT`, never itself a Paths."""

    __slots__ = ("options",)

    def __init__(self, options: list) -> None:
        self.options = options


_RUN: contextvars.ContextVar[list | None] = contextvars.ContextVar("lint_configs_shell_paths", default=None)
"""``[branches taken, decision still needed]`` of the run under way (None: no run; every
:class:`Paths` value reads as unknown)."""


def rule_out(env: Env, decision, branch: int, two_way: bool = True) -> None:
    """Drop from each value per path of ``env`` the paths that took ``branch`` at ``decision``: that
    branch ended the script (``if [ -n "$DET" ]; then exit 1; fi`` after a value set per ``$DET``); and
    the paths a test of the same variable makes impossible now (:mod:`.subjects`). The branch of a
    ``two_way`` test of a variable is remembered as gone (:attr:`Env.gone`): a later test of the same
    variable is settled. (A test of something else — ``[ -f x ]``, ``[ -z "$1" ]`` — may change its
    verdict without an assignment the walker sees: not remembered.)"""
    linked = two_way and is_linked(decision)
    if linked:
        env.gone = env.gone | {(decision, branch)}
    # what every path going on takes now; only it can newly contradict an option's conditions (the
    # contradictions :func:`.subjects.possible` finds are between two tests)
    known = facts(frozenset({(decision, branch)})) if linked else []
    for name, value in list(env.vars.items()):
        if isinstance(value, Paths):
            kept = [(c, v) for c, v in value.options if not any(d == decision and b == branch for d, b, _ in c)
                    and possible(known + [(d, b) for d, b, _ in c])]
            if kept and len(kept) < len(value.options):
                env.vars.put(name, kept[0][1] if len(kept) == 1 else Paths(kept))


def pick(value):
    """``value`` on the path of the run under way (see :class:`Paths`)."""
    if not isinstance(value, Paths):
        return value
    run = _RUN.get()
    if run is None:
        return common([v for _, v in value.options])
    got, need = select(value.options, run[0])
    if got is MISSING:
        if run[1] is None:
            run[1] = need
        return UNKNOWN_V
    return got


def choose(decision, branches: list) -> int | None:
    """The branch the run under way takes at ``decision`` (a value the script reads but never sets,
    tested where it is expanded: ``${DET:+--enable-deterministic-inference}``), ``branches`` the
    ``[(branch, label), ...]`` it has; None when no run is under way, or when this run has not taken
    it yet (then it is the decision the run asks for next, as an undecided :class:`Paths` is)."""
    run = _RUN.get()
    if run is None:
        return None
    got = run[0].get(decision)
    if got is None and run[1] is None:
        run[1] = (decision, branches)
    return got


def start_run(run: list) -> contextvars.Token:
    """Make ``run`` (``[taken, None]``, or None: every Paths unknown) the run under way; returns the
    token that :func:`end_run` takes."""
    return _RUN.set(run)


def end_run(token: contextvars.Token) -> None:
    _RUN.reset(token)


def _by_path(values: list, conds: list):
    """A :class:`Paths` of ``values`` (one per path, ``conds`` its conditions), nested Paths
    flattened; the value itself when all are the same; :data:`UNKNOWN_V` past the limit."""
    from linter.branches import flatten

    options = flatten(zip(conds, values), Paths, _same)
    if options is None:
        return values[0].options[0][1] if isinstance(values[0], Paths) else values[0]
    # a path no run takes (`[ "$MODE" = det ]` and `[ "$MODE" = fast ]` both succeeding) is dropped
    options = [o for o in options if possible([(k, b) for k, b, _ in o[0]])] or options
    if all(_same(options[0][1], v) for _, v in options[1:]):
        return options[0][1]
    if len(options) > limits.MAX_PATH_VARIANTS:
        return _decisive_only(options)
    return Paths(options)


def ranked_decisions(env: Env) -> list:
    """The decisions whose branches make a value per path of ``env`` differ in an option the rules
    decide by, most important first: by the tier of :data:`linter.sglang.decisive.PRIORITY` that finds
    them (deterministic inference and the backends, the model, the other options), then in the order
    met — what a command whose values per path read together are past ``MAX_PATH_VARIANTS`` paths
    keeps apart (:func:`focused`), as many as fit."""
    from linter.branches import separating
    from linter.sglang.decisive import PRIORITY

    rank: dict = {}
    order: dict = {}
    for _, value in env.vars.items():
        if not (isinstance(value, Paths) and len(value.options) > 1):
            continue
        taken = [{k: b for k, b, _ in c} for c, _ in value.options]
        for c in taken:
            for k in c:
                order.setdefault(k, len(order))
        differ = _differ([v for _, v in value.options])
        for tier, mentions in enumerate(PRIORITY):
            for k in separating(taken, lambda i, j: differ(i, j, mentions)):
                rank[k] = min(rank.get(k, tier), tier)
    return sorted(rank, key=lambda k: (rank[k], order[k]))


def focused(env: Env, keep) -> Env:
    """A copy of ``env`` whose values per path keep apart only the decisions of ``keep`` (a set), the
    values of the paths of the others merged (:func:`_common_words`: the words every path has known)."""
    out = env.copy()
    for name, value in list(env.vars.items()):
        if isinstance(value, Paths) and len(value.options) > 1:
            out.vars.put(name, _grouped(value.options, keep))
    out.paths = any(isinstance(v, Paths) for _, v in out.vars.items())
    return out


def _grouped(options: list, keep):
    """``options`` as a value per path of the decisions of ``keep`` (a set), the values of the paths of
    the others merged (:func:`_common_words`); the one value when no decision of ``keep`` is among them."""
    groups: dict[frozenset, tuple[tuple, list]] = {}
    for c, v in options:
        kept = tuple(x for x in c if x[0] in keep)
        groups.setdefault(frozenset((k, b) for k, b, _ in kept), (kept, []))[1].append(v)
    merged = [(kept, vs[0] if all(_same(vs[0], v) for v in vs[1:]) else _common_words(vs))
              for kept, vs in groups.values()]
    return Paths(merged) if len(merged) > 1 else merged[0][1]


def _differ(values: list):
    """``differ(i, j, mentions)``: whether the text values ``i`` and ``j`` of ``values`` differ in
    (:func:`_differing_text`, computed once a pair) is one ``mentions`` finds."""
    differing: dict = {}
    keys = [_token_keys(v) if isinstance(v, list) else None for v in values]

    def differ(i: int, j: int, mentions) -> bool:
        text = differing.get((i, j))
        if text is None:
            text = differing[(i, j)] = _differing_text(values[i], values[j], keys[i], keys[j])
        return mentions(text)
    return differ


def _decisive_only(options: list):
    """Past ``MAX_PATH_VARIANTS`` paths: a value per path of the decisions whose branches make the
    values differ in an option the rules decide by, the values of the other decisions merged
    (:func:`_grouped`) — as the Python format keeps its decisive decisions (fresh review of issue 35,
    D7: ten undecided ``if``s with ``--enable-deterministic-inference`` added by the sixth kept the
    later, irrelevant ones and lost it). They are kept tier by tier as long as the paths fit
    (:func:`linter.branches.kept_apart` with :data:`linter.sglang.decisive.PRIORITY`): deterministic
    inference and the backends first, then the model, then the parallel sizes — 3 × 3 ``case``s on
    ``--tp`` and an ``if`` adding ``--enable-deterministic-inference --attention-backend fa4`` kept the
    ``case``s and merged the ``if`` away (fresh review rev39 D3). :func:`_common_words` of them all when
    no decision matters (D22: the words every path has stay known, wherever they are, not only those at
    the start and end)."""
    from linter.branches import kept_apart
    from linter.sglang.decisive import PRIORITY

    values = [v for _, v in options]
    taken = [{k: b for k, b, _ in c} for c, _ in options]
    keep = set(kept_apart(taken, _differ(values), PRIORITY, limits.MAX_PATH_VARIANTS))
    return _grouped(options, keep) if keep else _common_words(values)


MAX_ALIGNED_WORDS = 2000
"""Most words of a value :func:`_common_words` aligns (past it: :func:`common`, its start and end)."""


def _common_words(values: list):
    """What every value of ``values`` has, word by word in order — a common subsequence of their
    words, each the same text written in the same place (:func:`_aligned`), kept with its origins —
    with an unknown word wherever some value has other words: the words a merged decision adds in the
    middle of a command line are unknown, the others (``--enable-deterministic-inference`` a kept
    decision added before them, a loop's words after them) stay known. Scalars by their blank-separated
    words, arrays by their elements (``A+=(--flag)`` in ifs: fresh review of issue 35, d2), an unknown
    run of elements standing where they differ. :func:`common` for states, mixed values and values past
    :data:`MAX_ALIGNED_WORDS` words."""
    if all(isinstance(v, list) for v in values) and values:
        if max(len(v) for v in values) > MAX_ALIGNED_WORDS:
            return common(values)
        kept, gaps = _aligned([[(t.splat, t.text.text, _origin(t.text)) for t in v] for v in values])
        first, out = values[0], []
        for k in range(len(kept) + 1):
            if gaps[k]:
                out.append(Token(MStr.unknown(None), splat=True))
            if k < len(kept):
                out.append(first[kept[k]])
        return out
    if not all(isinstance(v, MStr) for v in values):
        return common(values)
    spans = [[(m.start(), m.end()) for m in re.finditer(r"\S+", v.text)] for v in values]
    if max(len(w) for w in spans) > MAX_ALIGNED_WORDS:
        return common(values)
    # a word is matched by its text and where it was written (the same words in two loop bodies are not one)
    kept, gaps = _aligned([[(v.text[a:b], _origin(v[a:b])) for a, b in w] for v, w in zip(values, spans)])
    first = values[0]
    parts: list[MStr] = []
    for k in range(len(kept) + 1):
        if gaps[k]:
            parts.append(MStr.unknown_of_paths(first.where))
        if k < len(kept):
            a, b = spans[0][kept[k]]
            parts.append(first[a:b])
    out: list[MStr] = []
    for part in parts:
        out += [MStr.plain(" "), part] if out else [part]
    return MStr.join(out, first.where) if out else MStr.plain("", first.where)


def _origin(m: MStr) -> tuple:
    """Where the characters of ``m`` were written, to match a word by."""
    return tuple((r[0], id(r[1]), r[2]) for r in m.runs)


def _aligned(words: list[list]) -> tuple[list[int], list[bool]]:
    """(the indexes of the first value's words every value has, in order — :class:`difflib.SequenceMatcher`'s
    matching blocks, each value against what the ones before it share —, for each of the ``len(kept) + 1``
    gaps before a kept word or after the last, whether some value has other words there). ``words`` holds
    each value's words as comparable keys."""
    from difflib import SequenceMatcher

    from linter.branches import shared_end, shared_start

    # the words every value starts (ends) with are kept as they are, and only the middles between
    # them matched: values merged past the cap mostly differ in a few words near their end, and
    # matching hundreds of words costs time growing with their square (fresh review rev39 D3)
    first = words[0]
    pre = min(shared_start(first, w) for w in words[1:]) if len(words) > 1 else len(first)
    post = min(shared_end(first, w, min(len(first), len(w)) - pre) for w in words[1:]) if len(words) > 1 else 0
    kept = list(range(pre, len(first) - post))
    at: list[list[int]] = [kept]  # for each value, where each kept word of the middle is in it
    for v in range(1, len(words)):
        matcher = SequenceMatcher(None, [first[i] for i in kept], words[v][pre:len(words[v]) - post], autojunk=False)
        pairs = [(a + k, pre + b + k) for a, b, n in matcher.get_matching_blocks() for k in range(n)]
        chosen = [i for i, _ in pairs]
        at = [[places[i] for i in chosen] for places in at] + [[j for _, j in pairs]]
        kept = [kept[i] for i in chosen]
    head, tails = list(range(pre)), [range(len(w) - post, len(w)) for w in words]
    at = [head + places + list(tail) for places, tail in zip(at, tails)]
    kept = head + kept + list(tails[0])
    gaps = [any((places[k] if k < len(kept) else len(w)) > (places[k - 1] + 1 if k else 0)
                for places, w in zip(at, words)) for k in range(len(kept) + 1)]
    return kept, gaps


def _token_keys(tokens: list) -> list:
    """An array's words as comparable keys (whether each is spliced, its text)."""
    return [(t.splat, t.text.text) for t in tokens]


def _differing_text(a, b, ka: list | None = None, kb: list | None = None) -> str:
    """The parts of two paths' values that differ, as text: a scalar's middles
    (:func:`linter.branches.text_middles`), an array's words between its shared first and last ones
    (``ka``, ``kb``: their :func:`_token_keys`, when known already); a value against an unknown one is
    all its text."""
    from linter.branches import shared_end, shared_start, text_middles

    if isinstance(a, MStr) and isinstance(b, MStr):
        return text_middles(a.text, b.text)
    if isinstance(a, list) and isinstance(b, list):
        ka = _token_keys(a) if ka is None else ka
        kb = _token_keys(b) if kb is None else kb
        pre = shared_start(ka, kb)
        post = shared_end(ka, kb, min(len(a), len(b)) - pre)
        return " ".join(t.text.text for t in a[pre:len(a) - post] + b[pre:len(b) - post])
    return " ".join(_text_of(v) for v in (a, b))


def _text_of(value) -> str:
    """A value's text (a scalar's, an array's words joined); "" for a state (unknown, unset)."""
    if isinstance(value, MStr):
        return value.text
    if isinstance(value, list):
        return " ".join(t.text.text for t in value)
    return ""


def common(values: list):
    """What every path's value of ``values`` shares, the part that differs unknown: past
    ``MAX_PATH_VARIANTS`` paths (issue 35), an array's words the same on every path at its start and
    end stay known around an unknown run of words; a scalar's characters likewise. UNKNOWN_V when the
    values are not all arrays or all scalars."""
    first = values[0]
    if all(isinstance(v, MStr) for v in values):
        pre = _shared(values, len, lambda v, k: v[k:k + 1], _same)
        post = _shared(values, lambda v: len(v) - pre, lambda v, k: v[len(v) - 1 - k:len(v) - k], _same)
        # where the part that differs starts (ends) between words on every path, it stays a word of
        # its own: a blank keeps the known word before (after) it apart from the unknown
        left = " " if 0 < pre and all(_at_blank(v.text, pre) for v in values) else ""
        right = " " if post and all(_at_blank(v.text, len(v) - post) for v in values) else ""
        return MStr.join([first[:pre], MStr.plain(left), MStr.unknown_of_paths(first.where), MStr.plain(right),
                          first[len(first) - post:]])
    if all(isinstance(v, list) for v in values):
        same_token = lambda a, b: a.splat == b.splat and _same(a.text, b.text)  # noqa: E731
        pre = _shared(values, len, lambda v, k: v[k], same_token)
        post = _shared(values, lambda v: len(v) - pre, lambda v, k: v[len(v) - 1 - k], same_token)
        return first[:pre] + [Token(MStr.unknown(None), splat=True)] + first[len(first) - post:]
    return UNKNOWN_V


def _at_blank(text: str, k: int) -> bool:
    """Position ``k`` of ``text`` is between words: at either end, or next to a blank."""
    return k in (0, len(text)) or text[k - 1].isspace() or text[k].isspace()


def _shared(values: list, size, item, same) -> int:
    """How many items (``item(v, k)`` for k = 0, 1, …, at most ``size(v)`` of each) every value
    shares with the first."""
    n = min(size(v) for v in values)
    k = 0
    while k < n and all(same(item(values[0], k), item(v, k)) for v in values[1:]):
        k += 1
    return k


def merge(envs: list[Env], conds: list | None = None) -> Env:
    """The environment after paths that end in ``envs``: a variable with different values is unknown
    — or, given the ``conds`` of each path (see :class:`Paths`), a value per path. Only the names
    :func:`changed` gives are compared (all of them for unrelated environments)."""
    if len(envs) == 1:
        return envs[0].copy()
    out = envs[0].copy()
    out.paths = any(e.paths for e in envs)
    out.allexport = any(e.allexport for e in envs)
    out.gone = frozenset.intersection(*(e.gone for e in envs))  # gone on every path
    names = changed([e.vars for e in envs])
    if names is None:
        names = {n for e in envs for n, _ in e.vars.items()}
    maps = [e.vars for e in envs]
    for n in names:
        values = [m.top[n] if n in m.top else m.base.get(n, ABSENT) for m in maps]
        first = values[0]
        if all(v is first for v in values):
            continue  # the same object everywhere (the common case: a name changed in one branch only)
        if all(_same(first, v) for v in values[1:]):
            continue  # out has it (or has not, when ABSENT) already
        if all(_same_text(first, v) for v in values[1:]):
            out.vars.put(n, _unlocated(first))
        elif conds is not None:
            got = _by_path(values, conds)
            out.vars.put(n, got)
            out.paths = out.paths or isinstance(got, Paths)
        else:
            out.vars.put(n, UNKNOWN_V)
    xnames = changed([e.exported for e in envs])
    if xnames is None:
        xnames = {n for e in envs for n, _ in e.exported.items()}
    for n in xnames:
        if any(e.is_exported(n) for e in envs):
            out.export(n)
    return out
