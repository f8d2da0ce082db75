"""Values along paths: running a statement or a launch once per undecided branch it depends on.

A :class:`~.values.Choice` holds a value per path of an ``if`` (or conditional expression, early
``return``, ``try``, ``match``) whose test the analysis cannot decide. Code that reads one is run once
per path it depends on (:meth:`Paths.along_paths`, with :mod:`linter.branches`): while it runs,
:meth:`Paths.pick` gives the option of the branch taken so far, and the first time it meets a decision
not taken yet it asks for one more run per branch of it. A statement's runs are joined back into
Choices of the names they set; a launch's runs become one launch per path, each with the conditions
that lead there.

The runs are bounded by ``limits.MAX_PATH_VARIANTS``. Past it:

* a statement that sets names leaves each a :class:`~.values.Deferred`: the statement, computed again
  where the value is read, on that reader's path; a join of paths whose values are past the cap
  keeps each path's value as it is (a Choice of Choices); at ``limits.MAX_PATH_NESTING`` deep it is
  made one plain value per path of the decisions whose paths differ in an option the rules decide
  by, the others merged (:meth:`Paths.collapsed`), found by their effect wherever they sit (when a
  merged run notes more of them than fit, each is taken alone to tell those that make the
  difference from those merely beside it);
* a launch keeps apart only the decisions that change what the rules decide (deterministic inference,
  the attention backends, the model, the parallel sizes: :func:`linter.sglang.decisive.decisive_key`;
  tried in that order, :data:`linter.sglang.decisive.PRIORITY`, as many as fit) and merges the others (:meth:`Paths.focused_paths`): what their paths share stays known, what
  differs is unknown (no SGL004: nothing is skipped, only less is known) — the words every path
  writes in the same order too (:func:`~.values.merge_texts`), and a decision whose paths write an
  option at literals of their own is kept apart while the paths fit, so a finding on it is located
  at each literal (rev37 d6);
* anything else is run once with every Choice unknown, as before paths were kept.
"""

from __future__ import annotations

import re

from linter import limits
from linter.branches import MISSING, TOO_MANY, decision_branches, explore, select, separating
from linter.extract.python.values import (
    Choice,
    Deferred,
    Seq,
    Splat,
    Str,
    Unk,
    choose,
    copy_value,
    differing_text,
    merge,
    merge_texts,
    same,
)
from linter.sglang.decisive import PRIORITY, mentions_decisive, mentions_switch, names_option

_WORD = re.compile(r"\S+")

_UNKNOWN_MODE = object()
"""``Paths.taken`` while a run past the limit reads every Choice as unknown."""

_ATTRIBUTED = ("the Choices whose merges were attributed",)
"""The key of ``Paths.seen`` holding the ids of the Choices already read for which decision makes
them differ in what matters (the other keys are decisions, but :data:`_RELOCATED`)."""

_RELOCATED = ("the decisions whose merge lost where words every path writes are",)
"""The key of ``Paths.seen`` holding, in the order met, the decisions whose paths write the same words
at different literals: merged, those words are known but not where (:func:`_plain_options`)."""

_SWITCHED = ("the decisions whose paths differ in deterministic inference or a backend",)
"""The key of ``Paths.seen`` holding the decisions whose merged paths differ in what the first rules
decide by (:func:`~linter.sglang.decisive.mentions_switch`), a subset of those marked True."""

_TIERS = ("the most important tier of what each decision's merged paths differ in",)
"""The key of ``Paths.seen`` holding, for each decision whose merged paths differ in an option the
rules decide by, the first tier of :data:`~linter.sglang.decisive.PRIORITY` that finds it
(deterministic inference, a backend, the model, the rest): past the cap the decisions are kept apart
in that order (:meth:`Paths._focused`)."""

_MARKERS = (_ATTRIBUTED, _RELOCATED, _SWITCHED, _TIERS)

_MAX_PICK_DEPTH = 48
"""Deepest chain of Choices and Deferreds read inside one another in one pick (each level is a few
dozen interpreter frames): past it, the part read is unknown."""


class Paths:
    """A mixin of :class:`~linter.extract.python.analysis.Analysis`: ``taken`` is the branch taken
    at each decision in the run under way (None outside such a run: a Choice is read as itself).
    In a focused run, ``focus`` are the decisions it may take (the others are merged) and ``seen``
    collects the decisions a merge lost something of; ``memo`` is what the run has read already."""

    taken: dict | object | None = None
    pending: tuple | None = None
    focus: frozenset | None = None
    seen: dict | None = None
    memo: dict | None = None
    _pick_depth = 0
    _last_unknown: int | None = None  # the id of the origin of the last unknown piece made
    sketching = False
    """True while the decisions that matter are sought: a launch's words may be read more cheaply
    than in full, as long as what the rules decide it by is read the same."""
    _consulted = False  # the value being read depends on a decision taken in the run under way
    _stable: dict | None = None  # per focused search: values that read no decision taken

    def pick(self, v):
        """``v`` on the path of the run under way: a Choice's option for the branches taken (a
        Deferred computed on that path), or (when the Choice depends on a decision not taken yet) an
        unknown, after asking for that decision. In a focused run a decision out of focus is merged."""
        if not isinstance(v, (Choice, Deferred)):
            return v
        taken = self.taken
        if taken is None:
            return v.merged() if isinstance(v, Deferred) else v
        if taken is _UNKNOWN_MODE:
            return Unk(None)
        if self._pick_depth >= _MAX_PICK_DEPTH:
            return Unk(None)
        self._pick_depth += 1
        try:
            while isinstance(v, (Choice, Deferred)):
                v = self._pick_one(v)
            return v
        finally:
            self._pick_depth -= 1

    def _pick_one(self, v):
        memo = self.memo
        got = memo.get(id(v)) if memo is not None else None
        if got is not None:
            self._consulted = self._consulted or got[2]
            return copy_value(got[1])
        focus = self.focus
        if focus is None and (isinstance(v, Deferred) or v.depth):
            # a value kept past the cap: its paths are past it too; only a focused run reads it
            self.pending = TOO_MANY
            return Unk(None)
        stable = self._stable
        if stable is not None and focus is not None:
            got = stable.get((id(v), focus))
            if got is not None:  # (it read no decision taken: the same in every run of this focus)
                return copy_value(got[1])
        saved, self._consulted = self._consulted, False
        try:
            if isinstance(v, Deferred):
                out = v.compute() if v.owner is self else v.merged()  # (another module's: merged)
            else:
                out = self._pick_choice(v)
        finally:
            consulted = self._consulted
            self._consulted = saved or consulted
        if memo is not None:
            memo[id(v)] = (v, out, consulted)
        if stable is not None and focus is not None and not consulted and self.pending is None:
            stable[(id(v), focus)] = (v, out)
        return copy_value(out)

    def _pick_choice(self, v: Choice):
        taken = self.taken
        if taken and not self._consulted and any(k in taken for c, _ in v.options for k, _, _ in c):
            self._consulted = True
        value, need = select(v.options, taken)
        if value is not MISSING:
            return value
        if self.focus is None:
            if self.pending is None:
                self.pending = need
            return Unk(None)
        return self._focused_choice(v)

    def _focused_choice(self, v: Choice):
        """A Choice in a focused run: the options that agree with the branches taken; a decision in
        focus they still need is taken next (asked for), the others are merged (:meth:`_merged`)."""
        taken = self.taken
        agree = [(c, x) for c, x in v.options if all(taken.get(k, b) == b for k, b, _ in c)]
        if not agree:
            return Unk(None)
        for conds, _ in agree:
            for k, _, _ in conds:
                if k not in taken and k in self.focus:
                    if self.pending is None:
                        self.pending = decision_branches(agree, k)
                    return Unk(None)
        values = [self.pick(x) for _, x in agree]
        if self.pending is not None:
            return Unk(None)
        if all(same(values[0], x) for x in values[1:]):
            return values[0]
        if self.seen is not None:
            self._note_merge(v, agree, values)
        return self._merged(agree, values)

    def _note_merge(self, v: Choice, agree: list, values: list) -> None:
        """Note in ``seen`` each decision whose paths differ here (True when what differs names an
        option the rules decide by: :func:`_decisive_decisions`, once per Choice — its first merge
        has the most paths merged)."""
        taken, seen = self.taken, self.seen
        for conds, _ in agree:
            for k, _, _ in conds:
                if k not in taken:
                    seen.setdefault(k, False)
        attributed = seen.setdefault(_ATTRIBUTED, set())
        if id(v) not in attributed:
            attributed.add(id(v))
            decisive, test = _decisive_decisions(agree, values, taken)
            for k in decisive:
                seen[k] = True
            switched = seen.setdefault(_SWITCHED, set())
            tiers = seen.setdefault(_TIERS, {})
            if decisive:  # (what no decisive option differs in, no narrower test finds)
                switched.update(test(mentions_switch))
                for tier, mentions in enumerate(PRIORITY[:-1]):  # (the last is mentions_decisive)
                    for k in test(mentions):
                        tiers[k] = min(tiers.get(k, tier), tier)

    def _merged(self, agree: list, values: list):
        """``values`` (those of the options ``agree``) as one. Strings become one unknown piece between
        what they share, which remembers the decisions that choose its text and each path's text (for
        telling later whether taking them would make a value known: :meth:`merged_decisions`)."""
        if all(isinstance(x, Str) and x.joinable == values[0].joinable for x in values) and \
                len({x.m.text for x in values}) > 1:
            made = len(self.unlabelled)
            out, middles = merge_texts(values, self._unknown_text)
            if self.seen is not None:
                conds = [{k: b for k, b, _ in c if k not in self.taken} for c, _ in agree]
                tag = (separating(conds, lambda i, j: middles[i] != middles[j]), middles)
                for origin in self.unlabelled[made:]:  # (each unknown piece the merge made)
                    self._merge_tags[id(origin)] = tag
                if _plain_options(out.m) > max(_plain_options(x.m) for x in values):
                    # options every path writes, each at its own literal: the merge lost where they
                    # are; keeping the decision apart finds them there (:meth:`_focused`)
                    relocated = self.seen.setdefault(_RELOCATED, [])
                    relocated.extend(k for k in separating(conds, lambda i, j: True) if k not in relocated)
            return out
        out = values[0]
        for x in values[1:]:
            out = merge(out, x, self._unknown_text)
        if isinstance(out, Seq):  # the items the paths' lists differ in: labelled as the unknown text is
            self.unlabelled.extend(i for i in out.items if isinstance(i, Splat) and i.where is None)
        return out

    def _unknown_text(self, words: bool):
        """An unknown piece of text for a merge of the decisions being merged: one that may be any
        number of words (``words``), or part of one word; its origin (an object of its own) remembers
        those decisions (:meth:`merged_decisions`)."""
        from linter.launch import MStr, UNKNOWN_CHAR, UnknownOrigin

        origin = UnknownOrigin(self.source, 0)  # labelled by the expression that reads it (Evaluator.ev)
        self.unlabelled.append(origin)
        self._keep.append(origin)
        if words:
            self.splat_ids.add(id(origin))
        self._last_unknown = id(origin)
        return MStr(UNKNOWN_CHAR, [origin])

    def merged_decisions(self, texts) -> list:
        """The decisions whose merge made an unknown character of ``texts`` (MStrs) and would make
        the text known: with the text some path has in its place, nothing of it is unknown."""
        from linter.launch import UNKNOWN_CHAR

        out: list = []
        for m in texts:
            for k, o in enumerate(m.origins):
                tag = self._merge_tags.get(id(o))
                if tag is None:
                    continue
                decisions, middles = tag
                rest = m.text[:k] + m.text[k + 1:]
                if UNKNOWN_CHAR in rest or all(UNKNOWN_CHAR in mid for mid in middles):
                    continue  # (something else in it stays unknown whatever the path)
                out.extend(d for d in decisions if d not in out)
        return out

    def deferred_merged(self, d: Deferred):
        """``d``'s value with every path merged (computed once)."""
        if d.merged_value is None:
            d.merged_value = self.merged_run(d.compute)
        return copy_value(d.merged_value)

    def merged_run(self, run):
        """``run()`` with every path merged: what the paths share known, the rest unknown."""
        saved = self._mode()
        self.taken, self.pending, self.focus, self.seen, self.memo = {}, None, frozenset(), None, {}
        try:
            return run()
        finally:
            self._set_mode(saved)

    def decisive_runs(self, run) -> list:
        """``[(conds, result), ...]``: ``run()`` with every decision merged but those whose paths
        differ in an option the rules decide by (``--enable-deterministic-inference``, an attention
        backend …: :func:`_decisive_decisions`), which are kept apart — for a statement whose values
        nest too deep (``limits.MAX_PATH_NESTING``) to be kept per path. One run with every decision
        merged finds them, by what their paths' values differ in, wherever they sit among the others
        (issue 35: a deterministic switch among 25 undecided ``cmd +=`` was merged away when it came
        early); a second takes them. Each result is then a plain value per decision kept (its nesting
        starts again). When more are noted than fit, each is confirmed alone (:meth:`_confirmed`).
        All merged (one run) when none is found or they would be more than
        ``limits.MAX_PATH_VARIANTS`` paths."""
        seen: dict = {}
        runs = self.explore_paths(run, frozenset(), seen)
        keep = frozenset(k for k, decisive in seen.items() if decisive is True and k not in _MARKERS)
        if len(keep) >= limits.MAX_PATH_VARIANTS.bit_length():
            keep = self._confirmed(run, [k for k in seen if k in keep], seen.get(_SWITCHED, set()))
        elif keep & seen.get(_SWITCHED, set()):
            keep = keep & seen[_SWITCHED]
        if keep and len(keep) < limits.MAX_PATH_VARIANTS.bit_length():
            kept = self.explore_paths(run, keep, None)
            if kept is not None and len(kept) > 1:
                return kept
        return runs if runs is not None and len(runs) == 1 else [((), self.merged_run(run))]

    def _confirmed(self, run, candidates: list, switched: set) -> frozenset:
        """Of ``candidates`` (decisions a merged run found near a difference that matters, in the order
        met), those whose own two paths, every other decision merged, give values that differ in an
        option the rules decide by: a merge notes the decisions beside such a difference too (``if
        V21:`` after ``if FA:``, whose merged paths hide the backend), so past the cap the ones that
        make it are told apart by taking each alone (issue 35, rev36 D7b: two deciding ``if``s among
        25). A decision that turns deterministic inference or a backend on or off decides the first
        rules (SGL101-103): those found are kept alone, not among others that only change a
        dp-attention flag or a size, whose paths kept apart here would hide it in the merges of the
        collapses after this one (rev37 d5). So the candidates the merged run saw change such an
        option (``switched``) are tried first, and the others only when none does, and only until
        they are too many to keep (:meth:`decisive_runs` merges them all then), at most twice as many
as may be kept: each trial reads the
        whole value, and trying every candidate made a file of hundreds of undecided ``if``s on
        ``--tp`` cost time growing with the square of their number (rev37 d11). At most
        ``limits.MAX_PATH_TRIALS`` runs."""
        budget = limits.MAX_PATH_TRIALS
        most = limits.MAX_PATH_VARIANTS.bit_length()  # (decisions kept apart: fewer than this)
        out, switches = [], []
        order = [k for k in candidates if k in switched] + [k for k in candidates if k not in switched]
        for n, k in enumerate(order):
            if budget <= 0 or k not in switched and (switches or len(out) >= most or
                                                     n - len(switched) >= 2 * most):
                break
            trial = self.explore_paths(run, frozenset((k,)), None)
            budget -= len(trial) if trial is not None else limits.MAX_PATH_VARIANTS
            if trial is None:
                continue
            pairs = [(a, b) for i, (_, a) in enumerate(trial) for _, b in trial[i + 1:]]
            if any(_differ_decisively(a, b, mentions_switch) for a, b in pairs):
                switches.append(k)
            elif any(_differ_decisively(a, b) for a, b in pairs):
                out.append(k)
        return frozenset(switches or out)

    def collapsed(self, v):
        """``v`` (a value kept per path, nested deep) as a plain value per path of the decisions that
        matter (:meth:`decisive_runs`), the others merged: a Choice that nests no further, or one
        value."""
        if not isinstance(v, (Choice, Deferred)):
            return v
        runs = self.decisive_runs(lambda: self.pick(v))
        if len(runs) == 1:
            return runs[0][1]
        got = choose(runs, limits.MAX_PATH_VARIANTS)
        return got if got is not None else self.merged_run(lambda: self.pick(v))

    def _mode(self) -> tuple:
        return self.taken, self.pending, self.focus, self.seen, self.memo

    def _set_mode(self, mode: tuple) -> None:
        self.taken, self.pending, self.focus, self.seen, self.memo = mode

    def explore_paths(self, run, focus: frozenset | None = None, seen: dict | None = None) -> list | None:
        """``[(conds, result), ...]``: ``run()`` once per path of the decisions it reads (only those
        of ``focus``, when given: the others merged, noted in ``seen``); None past
        ``MAX_PATH_VARIANTS`` paths."""
        saved = self._mode()

        def start(conds: tuple):
            self.taken, self.pending, self.memo = {k: b for k, b, _ in conds}, None, {}
            self.focus, self.seen = focus, seen
            return lambda: self.pending

        try:
            return explore(run, start)
        finally:
            self._set_mode(saved)

    def along_paths(self, run, key=None):
        """``[(conds, result), ...]``: ``run()`` (a function of no arguments) once per path of the
        decisions it reads, ``conds`` the ``(decision, branch, label)`` taken on that path (empty when
        it reads none); at most ``MAX_PATH_VARIANTS`` paths. Past them: with ``key`` (what the rules
        decide a result by, and the texts of its values it does not know), the paths that differ in it
        (:meth:`focused_paths`); else one run with every Choice unknown."""
        runs = self.explore_paths(run)
        if runs is None and key is not None:
            try:
                runs = self.focused_paths(run, *key)
            except RecursionError:
                runs = None
        if runs is None:
            saved = self._mode()
            self.taken, self.pending, self.focus, self.memo = _UNKNOWN_MODE, None, None, None
            try:
                runs = [((), run())]
            finally:
                self._set_mode(saved)
        return runs

    def focused_paths(self, run, key, unknowns) -> list | None:
        """The runs of ``run`` along the decisions that change what the rules decide, the others
        merged. One run with every decision merged notes the decisions whose paths differ. A decision
        whose difference names an option the rules decide by (:func:`_decisive_decisions`), or whose
        merge left unknown a piece of such an option's value that one of its paths knows
        (``unknowns(result)``: the texts of those values; :meth:`merged_decisions`), is tried: kept
        apart when its branches give results of different ``key(result)`` (:func:`_splits`), in the
        order they are met, and tried again after another is kept (a backend set on one branch of
        another decision), while the paths fit ``MAX_PATH_VARIANTS``. At most
        ``limits.MAX_PATH_TRIALS`` runs; None when even the merged run is past the cap."""
        saved, self._stable, self.sketching = self._stable, {}, True
        try:
            runs = self._focused(run, key, unknowns)
        finally:
            self._stable, self.sketching = saved, False
        if runs is None:
            return None
        focus = frozenset(k for conds, _ in runs for k, _, _ in conds)
        return self.explore_paths(run, focus, None)  # the paths kept, read in full

    def _focused(self, run, key, unknowns) -> list | None:
        seen: dict = {}
        focus: frozenset = frozenset()
        runs = self.explore_paths(run, focus, seen)
        if runs is None:
            return None
        budget = limits.MAX_PATH_TRIALS - len(runs)
        rejected: dict = {}  # decision -> the decisions kept apart when it did not split its paths
        while budget > 0:
            wanted = [k for k, decisive in seen.items() if decisive is True]
            for _, result in runs:
                wanted += [k for k in self.merged_decisions(unknowns(result)) if k not in wanted]
            wanted = [k for k in wanted if k not in focus and rejected.get(k) != focus]
            # deterministic inference and the backends first, then the model, then the rest (the
            # parallel sizes): 3 × 3 undecided --tp paths met first filled the cap, and the one path
            # turning deterministic inference on was merged away (fresh review rev39 D3)
            wanted.sort(key=lambda k: seen.get(_TIERS, {}).get(k, len(PRIORITY)))
            added = False
            for k in wanted:
                if budget <= 0 or 2 * len(runs) > limits.MAX_PATH_VARIANTS:
                    break  # (one more decision would not fit)
                trial = self.explore_paths(run, focus | {k}, seen)
                budget -= len(trial) if trial is not None else limits.MAX_PATH_VARIANTS
                if trial is not None and _splits(trial, k, key):
                    focus, runs, added = focus | {k}, trial, True
                else:
                    rejected[k] = focus
            if not added:
                break
        for k in seen.get(_RELOCATED, ()):
            # a decision whose paths write the same words at different literals, kept apart while it
            # fits: each path's findings on those words are located at its literal (issue 35, miles
            # run_deepseek_v32.py: --sglang-tp-size in both branches of an if, past the cap)
            if budget <= 0 or 2 * len(runs) > limits.MAX_PATH_VARIANTS:
                break
            if k in focus:
                continue
            trial = self.explore_paths(run, focus | {k}, None)
            budget -= len(trial) if trial is not None else limits.MAX_PATH_VARIANTS
            if trial is not None:
                focus, runs = focus | {k}, trial
        return runs


def _plain_options(m) -> int:
    """How many words of ``m`` (an MStr) are server-argument options (:func:`names_option`) with no
    origin (neither a literal's nor an unknown piece's): written, but not where."""
    plain = [False] * len(m.text)
    at = 0
    for n, src, _, atom in m.runs:
        if src is None and atom is None:
            plain[at:at + n] = [True] * n
        at += n
    return sum(1 for w in _WORD.finditer(m.text) if all(plain[w.start():w.end()]) and names_option(w.group()))


def _decisive_decisions(agree: list, values: list, taken: dict) -> tuple:
    """``(decisions, test)``: the decisions (not taken) whose branches make ``values`` (those of the
    options ``agree``) differ in an option the rules decide by (:func:`mentions_decisive`;
    :func:`linter.branches.separating`), and ``test(mentions)`` giving those of a narrower test
    (:func:`mentions_switch`, a tier of :data:`~linter.sglang.decisive.PRIORITY`), each pair's
    difference computed once."""
    conds = [{k: b for k, b, _ in c if k not in taken} for c, _ in agree]
    texts: dict = {}

    def differ(i: int, j: int, mentions) -> bool:
        if (i, j) not in texts:
            texts[(i, j)] = None if same(values[i], values[j]) else differing_text(values[i], values[j])
        return texts[(i, j)] is not None and mentions(texts[(i, j)])

    def test(mentions) -> set:
        return separating(conds, lambda i, j: differ(i, j, mentions))
    return test(mentions_decisive), test


def _differ_decisively(a, b, mentions=mentions_decisive) -> bool:
    """Two runs' results (values, or the frames a statement leaves: each name it changed compared)
    differ in an option the rules decide by (``mentions``, as :func:`_decisive_decisions`)."""
    if hasattr(a, "changed") and hasattr(b, "changed"):  # frames
        for name in sorted(a.changed | b.changed):
            for x, y in ((a.vars, b.vars), (a.overrides, b.overrides)):
                if mentions(differing_text(x.get(name), y.get(name))):
                    return True
        return False
    return mentions(differing_text(a, b))


def _splits(runs: list, k, key) -> bool:
    """Two paths that take different branches of ``k``, and the same branch of every other decision
    both take (a decision only one of them meets, nested under another, does not count), give
    results of different ``key``."""
    paths = []
    for conds, result in runs:
        taken = {d: b for d, b, _ in conds}
        if k in taken:
            paths.append((taken, key(result)))
    for i, (a, ka) in enumerate(paths):
        for b, kb in paths[i + 1:]:
            if a[k] != b[k] and ka != kb and all(b.get(d, x) == x for d, x in a.items() if d != k):
                return True
    return False
