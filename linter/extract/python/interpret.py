"""Statement execution: straight-line code, and the paths of compound statements joined.

:class:`Interpreter` (a part of :class:`~linter.extract.python.analysis.Analysis`) runs a block of
statements on a :class:`~linter.extract.python.frames.Frame`: ``if``/``match`` branches are run on
forks and joined, loops until the join settles, ``try`` bodies with a handler that may start after
any statement. Simple statements are :class:`~linter.extract.python.statements.Statements`'.
"""

from __future__ import annotations

import ast

from linter.extract.python.frames import Frame
from linter.extract.python.syntax import (
    FORS,
    FUNCTIONS,
    LOOPS,
    SIMPLE,
    TRIES,
    WITHS,
    binds_in,
    ends,
    irrefutable,
    pattern_captures,
    swallows,
    target_names,
    test_names,
)
from linter import limits
from linter.extract.python.names import MUTATORS
from linter.extract.python.paths import _UNKNOWN_MODE
from linter.extract.python.values import (
    NOTFOUND,
    Choice,
    ClassV,
    Const,
    Deferred,
    FuncV,
    Instance,
    Ref,
    Seq,
    Str,
    Unk,
    choose,
    copy_value,
    join_values,
    nesting,
)
from linter.source import Span


class Interpreter:
    """Control flow over frames. A mixin: it shares the analysis' loop memo and frames."""

    def run_block(self, stmts, frame: Frame, stop: int | None) -> bool:
        for st in stmts:
            if stop is not None and self.contains(st, stop):
                self.enter(st, frame, stop)
                return True
            self.exec_stmt(st, frame)
            if stop is not None and self.block_ends((st,)):
                frame.unreachable = True  # (``die("…")`` before it: the code at ``stop`` never runs)
        return False

    def enders(self) -> frozenset:
        """The calls of this module that never return besides ``sys.exit()`` and the like
        (:func:`.enders.ending_calls`), found once."""
        memo = self._params_memo
        got = memo.get("enders")
        if got is None:
            from linter.extract.python.enders import ending_calls

            got = memo["enders"] = ending_calls(self.module)
        return got

    def block_ends(self, block) -> bool:
        """The block (a list of statements of this module, or a tuple of one) never reaches what
        follows it (:func:`~.syntax.ends`, with this module's :meth:`enders`), remembered per block."""
        memo = self._params_memo.setdefault("ends", {})
        key = id(block[0]) if isinstance(block, tuple) else id(block)
        got = memo.get((key, type(block)))
        if got is None:
            got = memo[(key, type(block))] = ends(block, self.enders())
        return got

    def in_block(self, block: list, offset: int) -> bool:
        """The statements of ``block`` hold the character at ``offset``."""
        return bool(block) and self.offsets(block[0])[0] <= offset < self.offsets(block[-1])[1]

    def enter(self, st, frame: Frame, stop: int) -> None:
        """Run ``st`` up to the code at ``stop`` (which it contains), on the path that leads there."""
        if isinstance(st, SIMPLE):
            return
        if isinstance(st, ast.If):
            self._enter_if(st, frame, stop)
            return
        if isinstance(st, LOOPS):
            if not (self.in_block(st.body, stop) or self.in_block(st.orelse, stop)):
                return  # in the header: before the loop
            if isinstance(st, ast.While) and self.in_block(st.body, stop) and self.decide(st.test, frame) is False:
                frame.unreachable = True  # ``while False:``, as the file decides it: the body never runs
                return
            start = self.loop_start(st, frame)
            if start is None:
                self.forget(st, frame)
            else:
                frame.absorb(start)
            if self.in_block(st.body, stop):
                self._loop_target(st, frame)
                self.header_effects(st, frame)
                self.run_block(st.body, frame, stop)
            else:
                self.run_block(st.orelse, frame, stop)
            return
        if isinstance(st, TRIES):
            body = st.body
            if self.in_block(body, stop):
                self.run_block(body, frame, stop)
                return
            for handler in st.handlers:
                if self.contains(handler, stop):
                    caught = self.partial_states(body, frame, self.header(st))[0]
                    frame.absorb(self.caught_state(st, handler, frame, caught))
                    self._handler_name(handler, frame)
                    self.run_block(handler.body, frame, stop)
                    return
            if self.in_block(st.orelse, stop):
                self.run_block(body, frame, None)
                self.run_block(st.orelse, frame, stop)
                return
            if self.in_block(st.finalbody, stop):
                self.exec_try(st, frame, with_finally=False)
                self.run_block(st.finalbody, frame, stop)
            return
        if isinstance(st, WITHS):
            if not self.in_block(st.body, stop):
                return
            self.header_effects(st, frame)
            self._with_names(st, frame)
            self.run_block(st.body, frame, stop)
            return
        if isinstance(st, ast.Match):
            self.header_effects(st, frame)
            live = self.live_cases(st, frame)
            for case in st.cases:
                if self.in_block(case.body, stop):
                    if not any(c is case for c in live):
                        frame.unreachable = True  # a case the file decides against (issue 35)
                        return
                    self._pattern_names(case.pattern, frame)
                    self.run_block(case.body, frame, stop)
            return
        # FunctionDef / ClassDef: a call in a decorator or a default value; nothing to do.

    def _enter_if(self, st: ast.If, frame: Frame, stop: int) -> None:
        """Run ``st`` up to ``stop`` in its body or its ``else``; a branch the file decides against
        (``if not TRUE_ON_POLICY:`` with ``TRUE_ON_POLICY = True``, issue 35) leaves ``frame``
        :attr:`~.frames.Frame.unreachable`."""
        if self.contains(st.test, stop):
            return
        self.header_effects(st, frame)
        in_body = self.in_block(st.body, stop)
        if not in_body and not self.in_block(st.orelse, stop):
            return
        decided = self.decide(st.test, frame)
        if decided is not None and decided != in_body:
            frame.unreachable = True
            return
        self.run_block(st.body if in_body else st.orelse, frame, stop)

    def live_cases(self, st: ast.Match, frame: Frame) -> list:
        """The cases of ``st`` that may run: up to the first one the file decides matches (its
        subject a known constant or string, the pattern a literal, ``_`` or ``|`` of literals), without
        those it decides do not."""
        out = []
        for case in st.cases:
            got = self._case_decided(case, st.subject, frame)
            if got is False:
                continue
            out.append(case)
            if got:
                break
        return out

    def _case_decided(self, case, subject, frame: Frame) -> bool | None:
        """Whether ``case`` matches, when the file decides it (a guard is never decided true)."""
        if irrefutable(case):
            return True
        got = _pattern_matches(case.pattern, lambda: self.ev(subject, frame))
        return None if got is True and case.guard is not None else got

    def _handler_name(self, handler, frame: Frame) -> None:
        if handler.name is not None:
            s, e = self.offsets(handler)
            start = self.offsets(handler.type)[1] if handler.type is not None else s
            a, b = self.positions.as_name(start, self.offsets(handler.body[0])[0] if handler.body else e)
            frame.bind(handler.name, Unk(Span(self.source, a, b)))

    def _with_names(self, st, frame: Frame) -> None:
        for item in st.items:
            if item.optional_vars is not None:
                for name in target_names(item.optional_vars):
                    frame.bind(name, Unk(self.span(item.optional_vars)))

    def _loop_target(self, st, frame: Frame) -> None:
        if isinstance(st, FORS):
            for name in target_names(st.target):
                frame.bind(name, Unk(self.span(st.target)))

    def _pattern_names(self, pattern, frame: Frame) -> None:
        for name in pattern_captures(pattern):
            frame.bind(name, Unk(self.span(pattern)))

    def forget(self, node, frame: Frame) -> None:
        """Every name bound or mutated inside ``node`` becomes unknown (imports there still count)."""
        self.forget_stmts([node], frame)

    def forget_stmts(self, stmts, frame: Frame) -> None:
        info = binds_in(stmts)
        for name in info.bound | info.mutated:
            frame.bind(name, Unk(None))
        for imp in info.imports:
            self.exec_small(imp, frame)

    def header_effects(self, node, frame: Frame, skip=None) -> None:
        """Names that calls in ``node``'s own expressions change in place (``x.pop()``) or bind
        (``:=``) become unknown; ``skip`` is a call whose effect is modelled exactly."""
        for call, name in self.index.effects.get(id(node), ()):
            if call is not skip:
                frame.rebind_mutated(name, Unk(self.span(call)))

    def header(self, st) -> Span:
        """The first line of a compound statement (where the unknown tail it may add is reported)."""
        s, e = self.offsets(st)
        nl = self.source.text.find("\n", s, e)
        end = e if nl < 0 else nl
        while end > s and self.source.text[end - 1] in " \t\r:":
            end -= 1
        return Span(self.source, s, end)

    def exec_stmt(self, st, frame: Frame) -> None:
        self.budget.step("running the Python module")
        if isinstance(st, SIMPLE):
            self.exec_along_paths(st, frame)
        elif isinstance(st, FUNCTIONS):
            frame.bind(st.name, FuncV(st, self))
        elif isinstance(st, ast.ClassDef):
            frame.bind(st.name, ClassV(self.index.scope_of_node[id(st)]))
        elif isinstance(st, ast.If):
            self._exec_if(st, frame)
        elif isinstance(st, ast.For) and self._unroll(st, frame):
            pass
        elif isinstance(st, LOOPS):
            start = self.loop_start(st, frame)
            if start is None:
                self.forget(st, frame)
                return
            if st.orelse:
                done = start.copy()
                self.run_block(st.orelse, done, None)
                start = self.join_frames([start, done], self.header(st))
            frame.absorb(start)
        elif isinstance(st, TRIES):
            self.exec_try(st, frame)
        elif isinstance(st, WITHS):
            self.header_effects(st, frame)
            self._with_names(st, frame)
            body = st.body
            if self._may_swallow(st):  # contextlib.suppress, pytest.raises …: the body may stop anywhere
                frame.absorb(self.partial_states(body, frame, self.header(st))[0])
            else:
                self.run_block(body, frame, None)
        elif isinstance(st, ast.Match):
            self.header_effects(st, frame)
            outs = []
            subject = self.truth(st.subject, True).rsplit(" is ", 1)[0]
            live = self.live_cases(st, frame)
            for k, case in enumerate(st.cases):
                if not any(c is case for c in live):
                    continue
                branch = frame.fork()
                self._pattern_names(case.pattern, branch)
                self.run_block(case.body, branch, None)
                if not self.block_ends(case.body):
                    s, e = self.offsets(case.pattern)
                    branch.cond = ((id(st), k, f"{subject} matches `{self.source.text[s:e]}`"),)
                    outs.append(branch)
            if not (live and (irrefutable(live[-1]) or len(live) < len(st.cases) and
                              self._case_decided(live[-1], st.subject, frame))):
                other = frame.fork()
                other.cond = ((id(st), len(st.cases), f"no case of {subject} matches"),)
                outs.append(other)
            if outs:
                frame.absorb(self.join_frames(outs, self.header(st)))
        else:
            self.forget(st, frame)

    def _exec_if(self, st: ast.If, frame: Frame) -> None:
        """``if``/``elif``/``else``: the branch the file decides, else each branch that reaches the next
        statement, joined (:meth:`_if_paths`)."""
        self.header_effects(st, frame)
        decided = self.decide(st.test, frame)
        if decided is not None:  # the file decides it (``if TRUE_ON_POLICY:``): one branch, no paths
            taken = st.body if decided else st.orelse
            self.run_block(taken, frame, None)
            if self.block_ends(taken):
                frame.unreachable = True  # it returns: the code after it never runs
            return
        outs = self._if_paths(st, frame)
        if outs:
            frame.absorb(self.join_frames(outs, self.header(st)))
        if len(outs) == 1 and outs[0].cond and not self.is_elif(st):
            # the other branch ended (``if DET: sys.exit(…)``): a later test of DET is decided (rev38 e4c)
            (decision, branch, _), = outs[0].cond
            frame.settle(decision, branch, test_names(st.test), self.offsets(st)[1])

    def exec_along_paths(self, st, frame: Frame) -> None:
        """Run a simple statement once per path of the Choices it reads (:meth:`Paths.along_paths`);
        the names it sets differently on different paths become Choices.

        It is first run in place, its changes kept in a journal (a copy of the frame per statement
        would cost the frame's size every time): only when it read a value per path are they undone
        and the statement run on copies, once per path."""
        if frame.owned is None:
            frame.owned = set()  # lists and dicts are copied before a change: the journal can undo it
        saved, outer = self._mode(), frame.journal
        self.taken, self.pending, self.focus, self.memo = {}, None, None, {}
        frame.journal = journal = {}
        try:
            self.exec_small(st, frame)
            need = self.pending
        finally:
            self._set_mode(saved)
            frame.journal = outer
            if outer is not None:
                for key, old in journal.items():
                    outer.setdefault(key, old)
        if need is None:
            return
        frame.undo(journal)

        def run() -> Frame:
            fork = frame.fork()
            self.exec_small(st, fork)
            return fork

        runs = self.explore_paths(run)
        if runs is None and self._loop_nesting == 0:
            if self.defer(st, frame):
                return  # past the cap: what it sets is computed where it is read
            runs = self.decisive_runs(run)  # (nested too deep: its paths merged but those that matter)
        if runs is None:
            runs = self.along_paths(run)
        if len(runs) == 1:
            frame.absorb(runs[0][1])
            return
        for conds, f in runs:
            f.cond = conds
        frame.absorb(self.join_frames([f for _, f in runs], None))

    def defer(self, st, frame: Frame) -> bool:
        """Bind each name the simple statement ``st`` sets to a :class:`~.values.Deferred`: ``st`` run
        again, on a copy of ``frame`` as it is now, wherever that value is read (on the reader's path,
        so a launch reading it keeps the paths that matter: :mod:`.paths`). False when the values it
        reads nest deeper than ``limits.MAX_PATH_NESTING`` (it is then run once with them unknown)."""
        depth = max((nesting(frame.raw_lookup(n.id)) for n in ast.walk(st) if isinstance(n, ast.Name)), default=0)
        if depth >= limits.MAX_PATH_NESTING:
            return False
        probe = frame.fork()  # which names it sets
        saved = self._mode()
        self.taken, self.pending, self.focus, self.memo = _UNKNOWN_MODE, None, None, None
        try:
            self.exec_small(st, probe)
        finally:
            self._set_mode(saved)
        snap = frame.snapshot()
        key = ("stmt", id(st), id(snap))

        def after() -> Frame:
            memo = self.memo
            got = memo.get(key) if memo is not None else None
            if got is None:
                got = snap.fork()
                self.exec_small(st, got)
                if memo is not None:
                    memo[key] = got
            return got

        def value(name: str, in_vars: bool):
            f = after()
            return copy_value((f.vars if in_vars else f.overrides).get(name, Unk(None)))

        for name in probe.changed:
            # (the table the statement wrote it in: a function's globals and ``self.x`` are overrides)
            in_vars = not (name in probe.overrides and probe.overrides[name] is not frame.overrides.get(name))
            d = Deferred(lambda n=name, v=in_vars: value(n, v), self, depth)
            frame._write(frame.vars if in_vars else frame.overrides, name, d)
            frame.changed.add(name)
        return True

    def _unroll(self, st: ast.For, frame: Frame) -> bool:
        """Run a ``for`` over a known list of at most ``MAX_PATH_VARIANTS`` known items (``for flag in
        ["--a", "--b"]: cmd.append(flag)``) once per item, in order; False (nothing run) for any other
        loop, or one that may stop early (``break``, ``continue``, ``return``, an ``else``)."""
        if st.orelse or any(isinstance(n, (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom))
                            for n in ast.walk(st)):
            return False
        items = self.ev(st.iter, frame)
        if not isinstance(items, Seq) or len(items.items) > limits.MAX_PATH_VARIANTS or \
                not all(isinstance(i, (Str, Const)) or isinstance(i, Seq) and
                        all(isinstance(x, (Str, Const)) for x in i.items) for i in items.items):
            return False
        self.header_effects(st, frame)
        for item in items.items:
            self.assign(st.target, item, frame)
            self.run_block(st.body, frame, None)
        return True

    def _if_paths(self, st, frame: Frame, decision=None, k: int = 0, before: tuple = ()) -> list[Frame]:
        """The frames after each branch of ``if``/``elif``/``else`` that reaches the next statement,
        each with the condition that leads there (``frame.cond``: ``((decision, branch, label),)``)."""
        flip = False
        if decision is None and not self.is_elif(st):  # if/else: the decision its test makes
            decision, flip = self.decision(st.test)
        elif decision is None:
            decision = ("chain", id(st))
        yes, no = (k + 1, k) if flip else (k, k + 1)
        outs = []
        branch = frame.fork()
        self.run_block(st.body, branch, None)
        if not self.block_ends(st.body):
            # an ``elif`` says the tests before it failed, also those whose branch returned
            label = " and ".join([self.truth(t, False) for t in before] + [self.truth(st.test, True)])
            branch.cond = ((decision, yes, label),)
            outs.append(branch)
        orelse = st.orelse
        tests = before + (st.test,)
        if not orelse:
            other = frame.fork()
            other.cond = ((decision, no, self._none_true(tests)),)
            outs.append(other)
        elif self.is_elif(st):
            other = frame.fork()
            self.header_effects(orelse[0], other)
            for f in self._if_paths(orelse[0], other, decision, k + 1, tests):
                f.changed |= other.changed
                outs.append(f)
        else:
            other = frame.fork()
            self.run_block(orelse, other, None)
            if not self.block_ends(orelse):
                other.cond = ((decision, no, self._none_true(tests)),)
                outs.append(other)
        return outs

    def _none_true(self, tests: tuple) -> str:
        if len(tests) == 1:
            return self.truth(tests[0], False)
        return "none of " + ", ".join(self.truth(t, True).rsplit(" is ", 1)[0] for t in tests) + " is true"

    def is_elif(self, st: ast.If) -> bool:
        """The ``else`` of ``st`` is an ``elif`` (``ast`` writes both as an ``If`` alone in ``orelse``)."""
        orelse = st.orelse
        return len(orelse) == 1 and isinstance(orelse[0], ast.If) and \
            self.source.text.startswith("elif", self.offsets(orelse[0])[0])

    _LOOP_ROUNDS = 4
    _LOOP_NESTING = 3  # loops simulated inside one another (each inner one runs once per outer round)

    def loop_start(self, st, frame: Frame) -> Frame | None:
        """The frame at the start of any round of a ``for``/``while`` loop (and after it, before its
        ``else``): the join of the frames after 0, 1, 2 … rounds, or None when that does not settle
        (or the loop is nested too deep to simulate: its names are then forgotten)."""
        is_for = isinstance(st, FORS)
        if is_for:
            self.header_effects(st, frame)  # the iterable is evaluated once, before the loop
        memo = self._loop_memo.setdefault(id(st), [])
        for entry, result in memo:
            if entry.same_as(frame):
                return None if result is None else result.copy()
        if self._loop_nesting >= self._LOOP_NESTING:
            return None
        entry = frame.snapshot()
        self._loop_nesting += 1
        try:
            result = self._loop_fixpoint(st, is_for, frame)
        finally:
            self._loop_nesting -= 1
        if len(memo) < 4:
            memo.append((entry, result))
        return None if result is None else result.copy()

    def _loop_fixpoint(self, st, is_for: bool, frame: Frame) -> Frame | None:
        where = self.header(st)
        cur = frame.fork()
        body = st.body
        for _ in range(self._LOOP_ROUNDS):
            step = cur.copy()
            self._loop_target(st, step)
            if not is_for:
                self.header_effects(st, step)  # the test runs before every round
            self.run_block(body, step, None)
            new = self.join_frames([cur, step], where)
            if new.same_as(cur, step.changed):
                if not is_for:
                    self.header_effects(st, cur)  # and once more to end the loop
                return cur
            cur = new
        return None

    def partial_states(self, stmts, frame: Frame, where: Span | None) -> tuple[Frame, Frame]:
        """(the join of the frames before and after each statement of ``stmts`` run from ``frame`` —
        where an exception may leave the block —, the frame at its end)."""
        caught = frame.fork()
        cur = frame.fork()
        total: set[str] = set()
        for st in stmts:
            cur.changed = set()
            self.exec_stmt(st, cur)
            total |= cur.changed
            # only what this statement changed can differ from what the join holds already
            snap = cur.snapshot()
            caught = self.join_frames([caught, snap], where, names=snap.changed)
        cur.changed = total
        return caught, cur

    def exec_try(self, st, frame: Frame, with_finally: bool = True) -> None:
        """``try``: the body completing (then its ``else``) and each handler are paths of their own
        (issue 35: ``try: import fa3_kernels; cmd += [fa3] except ImportError: …`` is two launches),
        each with its condition (:meth:`try_labels`); a handler starts from any point of the body
        where what it catches may be raised (:meth:`caught_state`)."""
        where = self.header(st)
        body = st.body
        caught, cur = self.partial_states(body, frame, where)
        decision = ("try", id(st))
        completes, raises = self.try_labels(st)
        outs = []
        if not self.block_ends(st.body):
            if st.orelse:
                self.run_block(st.orelse, cur, None)
            if not st.orelse or not self.block_ends(st.orelse):
                cur.cond = ((decision, 0, completes),)
                outs.append(cur)
        for k, handler in enumerate(st.handlers):
            branch = self.caught_state(st, handler, frame, caught)
            self._handler_name(handler, branch)
            self.run_block(handler.body, branch, None)
            if not self.block_ends(handler.body):
                branch.cond = ((decision, k + 1, raises[k]),)
                outs.append(branch)
        if not outs:  # no path reaches the next statement; what follows is not run
            outs = [caught]
        # (a name an import binds on one path and sets to None on another is the module: the import
        # is the path that matters, as before paths were kept)
        after = self.join_frames(outs, where, refs_join=True)
        if with_finally and st.finalbody:
            self.run_block(st.finalbody, after, None)
        frame.absorb(after)

    def caught_state(self, st, handler, frame: Frame, caught: Frame) -> Frame:
        """The frame a handler of ``st`` starts from: for a handler of import errors only, the join
        of the frames before each statement of the body that imports or calls something (``cmd +=
        [...]`` raises no ImportError); else ``caught``, the join of the frames before and after
        every statement of the body."""
        if not _catches_import_errors(handler):
            return caught.copy()
        points = [st2 for st2 in st.body if _may_import(st2)]
        if not points:
            return caught.copy()
        states = []
        cur = frame.fork()
        for st2 in st.body:
            if any(st2 is p for p in points):
                states.append(cur.snapshot())
            if st2 is points[-1]:
                break
            self.exec_stmt(st2, cur)
        return self.join_frames(states, self.header(st)) if len(states) > 1 else states[0].copy()

    def try_labels(self, st) -> tuple[str, list[str]]:
        """(the condition of ``st``'s body completing, that of each handler running), in words: "`import
        x` succeeds" / "`import x` raises ImportError" when the body starts with an import, else
        "the `try` body at line N completes" / "… raises ValueError" (a bare ``except``: "raises")."""
        first = st.body[0] if st.body else None
        if isinstance(first, (ast.Import, ast.ImportFrom)):
            s, e = self.offsets(first)
            text = " ".join(self.source.text[s:e].split())
            subject = f"`{text[:57] + '...' if len(text) > 60 else text}`"
            completes = f"{subject} succeeds"
        else:
            subject = f"the `try` body at line {self.span(st).line}"
            completes = f"{subject} completes"
        raises = []
        for handler in st.handlers:
            if handler.type is None:
                raises.append(f"{subject} raises")
                continue
            s, e = self.offsets(handler.type)
            kind = " ".join(self.source.text[s:e].split())
            raises.append(f"{subject} raises {kind if isinstance(handler.type, (ast.Name, ast.Attribute)) else f'`{kind}`'}")
        return completes, raises

    def _may_swallow(self, st) -> bool:
        return any(swallows(item.context_expr) for item in st.items)

    def join_frames(self, frames: list[Frame], where: Span | None, names: set[str] | None = None,
                    refs_join: bool = False) -> Frame:
        """One frame that stands for all of ``frames`` (forks of one frame run along different paths).
        Only the names they changed since (or ``names``, when only those may need a join) are looked at.
        ``refs_join``: a name that is a module (or an object of one) on some path is joined, not kept
        per path (:func:`~.values.join_values` keeps the module)."""
        frames = [f for f in frames if not f.unreachable] or frames[:1]  # a path that returned is not joined
        first = frames[0]
        out = first.copy()
        if len(frames) == 1:
            return out
        memo: dict = {}
        out.settled = _common_settled(frames)
        changed: set[str] = set()
        for f in frames:  # they are forks of one frame: no other name differs between them
            changed |= f.changed
        out.changed = changed
        paths = all(f.cond for f in frames)  # the paths of one decision: a value per path is kept
        for table in ("vars", "overrides"):
            tables = [getattr(f, table) for f in frames]
            result = getattr(out, table)
            for name in sorted(changed if names is None else names):
                vals = [t.get(name, NOTFOUND) for t in tables]
                v = vals[0]
                if all(x is v for x in vals):
                    continue
                vals = [f.raw_lookup(name) if x is NOTFOUND else x for f, x in zip(frames, vals)]
                acc = None
                if paths and not any(x is NOTFOUND or refs_join and isinstance(x, (Ref, Instance)) for x in vals):
                    acc = choose([(f.cond, x) for f, x in zip(frames, vals)], limits.MAX_PATH_VARIANTS)
                    depth = max(nesting(x) for x in vals)
                    if acc is None and self._loop_nesting == 0:
                        # past the cap: each path's value kept as it is (itself a value per path); nested
                        # too deep, one plain value per path of the decisions that matter, the rest merged
                        acc = Choice([(f.cond, x) for f, x in zip(frames, vals)], depth)
                        if depth >= limits.MAX_PATH_NESTING:
                            acc = self.collapsed(acc)
                if acc is None:
                    acc = vals[0]
                    for x in vals[1:]:
                        acc = join_values(acc, x, where, memo)
                if acc is NOTFOUND:
                    result.pop(name, None)
                else:
                    result[name] = acc
        return out


def _common_settled(frames: list[Frame]) -> dict:
    """The decisions every one of ``frames`` took alike (:meth:`~.frames.Frame.settle`)."""
    settled = frames[0].settled
    for f in frames[1:]:
        if f.settled is not settled:
            settled = {k: v for k, v in settled.items() if f.settled.get(k) is v}
    return settled


_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError"}


def _catches_import_errors(handler) -> bool:
    """The ``except`` clause names only ImportError/ModuleNotFoundError (alone or in a tuple)."""
    t = handler.type
    names = t.elts if isinstance(t, ast.Tuple) else [t] if t is not None else []
    return bool(names) and all(isinstance(n, ast.Name) and n.id in _IMPORT_ERRORS for n in names)


def _may_import(st) -> bool:
    """A statement that may raise ImportError: an import, or one that calls something other than a
    method that changes a list or dict in place (``cmd.append(x)``)."""
    for node in ast.walk(st):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return True
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS):
            return True
    return False


def _pattern_matches(pattern, subject) -> bool | None:
    """Whether a literal ``case`` pattern (``"det"``, ``1``, ``None``, ``"a" | "b"``) matches the
    value ``subject()`` gives, when it is a known constant or string; None when not decided."""
    if isinstance(pattern, ast.MatchOr):
        got = [_pattern_matches(p, subject) for p in pattern.patterns]
        return True if True in got else None if None in got else False
    if isinstance(pattern, (ast.MatchValue, ast.MatchSingleton)):
        want = pattern.value.value if isinstance(pattern, ast.MatchValue) and \
            isinstance(pattern.value, ast.Constant) else pattern.value if isinstance(pattern, ast.MatchSingleton) \
            else _NO_LITERAL
        if want is _NO_LITERAL or isinstance(want, bytes):
            return None
        v = subject()
        have = v.value if isinstance(v, Const) else v.m.text if isinstance(v, Str) and v.m.known else _NO_LITERAL
        if have is _NO_LITERAL:
            return None
        if isinstance(pattern, ast.MatchSingleton):
            return have is want
        return type(have) is type(want) and have == want or (
            isinstance(have, (int, float)) and isinstance(want, (int, float)) and not isinstance(have, bool)
            and not isinstance(want, bool) and have == want)
    return None


_NO_LITERAL = object()
