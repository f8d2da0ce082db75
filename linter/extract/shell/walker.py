"""The walker: a parse tree visited in execution order with a variable environment — lists, pipelines,
``if``/``case`` branches merged, loops, functions analysed with their callers' variables, assignments
and declarations. Simple commands are :class:`~linter.extract.shell.commands.Commands`'.

A variable the branches of an ``if``/``case`` set differently keeps a value per branch
(:class:`~.env.Paths`, issue 35): a simple command that reads one runs once per path, so a launch
built from it is one launch per path with the conditions that lead there ("`[ -n "$DET" ]`
succeeds"), at most ``limits.MAX_PATH_VARIANTS`` (past it the decisions that change what the rules
decide are kept apart, deterministic inference first, as many as fit: :meth:`Walker._focused_runs`). ``&&``/``||``
and loops merge as before: what differs is unknown.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable

from linter import limits, records
from linter.branches import explore
from linter.extract.shell.commands import Commands
from linter.extract.shell.conditions import case_branch, case_items, case_label, decide, no_case_label
from linter.extract.shell.document import Doc, named_kids
from linter.extract.shell.env import (ABSENT, ARGV, NAME, UNKNOWN_V, UNSET, Env, Merged, end_run, focused, merge,
                                     ranked_decisions, rule_out, small_number, start_run)
from linter.extract.shell.expand import Expander, scalar
from linter.extract.shell.loopstate import carries_state, distinct_words
from linter.extract.shell.printed import printed
from linter.extract.shell.subjects import extends, settled, test_key
from linter.launch import GpuDecl, Launch, MStr, Problem, Token
from linter.records import dataclass, field
from linter.source import SourceFile, Span

_GLOB = re.compile(r"[*?\[{]")
"""Characters that may make a ``for`` word several (a file pattern, a brace expansion)."""

MAX_LOOP_DEPTH = 6
"""Loops followed inside one another."""


@dataclass
class Fn:
    """A shell function: its body, where it was defined, and the environments it is called with."""

    name: str
    body: object
    doc: Doc
    def_env: Env
    assigned: set[str]
    calls: int = 0
    merged: Merged = field(default_factory=Merged)
    """The environments of its calls, merged as they come."""
    each: list = field(default_factory=list)
    """``(conditions, environment, span)`` of each call (the conditions in words of the branches it is
    in; the call's span, or None), while there are at most ``limits.MAX_PATH_VARIANTS``; emptied past it."""
    launch_span: Span | None = None
    image: MStr | None = None
    order: int = 0
    """Its place in :attr:`Shared.fn_order`."""
    one_statement: bool = True
    """Its body is one statement (what it prints needs no walk of the rest)."""
    done: bool = False
    exits: bool | None = None
    """Its body always ends the script (:meth:`Walker._exits`), once asked."""


@dataclass
class Shared:
    """What the walkers of one file (and of the ``bash -c`` strings in it) find together."""

    source: SourceFile
    launches: list[Launch] = field(default_factory=list)
    decls: list[GpuDecl] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    functions: dict[str, Fn] = field(default_factory=dict)
    fn_order: list[Fn] = field(default_factory=list)
    called: list[int] = field(default_factory=list)
    """A heap of the places in ``fn_order`` of functions that have calls (some may be done)."""
    decl_keys: set = field(default_factory=set)
    call_log: list = field(default_factory=list)
    """The functions whose calls were recorded, in order (:meth:`take_back_calls`)."""
    printers: int = 0
    """Functions defined whose body is more than one statement (see :meth:`Walker._may_print_paths`)."""

    def add_call(self, fn: Fn, env: Env, conds: tuple = (), at: Span | None = None) -> None:
        """Record that ``fn`` is called with ``env`` (a copy is kept) in the branches whose conditions
        (in words) are ``conds``, at the span ``at``."""
        fn.calls += 1
        fn.merged.add(env)
        self.call_log.append(fn)
        if fn.calls <= limits.MAX_PATH_VARIANTS:
            fn.each.append((conds, env.copy(), at))
        else:
            fn.each.clear()
        if fn.calls == 1:
            heapq.heappush(self.called, fn.order)

    def take_back_calls(self, mark: int) -> None:
        """Forget the calls recorded since ``len(call_log)`` was ``mark``: a run along paths cut short
        (it met a decision still to take) records them again on each path. A function whose calls
        are all still listed has its merge made again from them."""
        for fn in reversed(self.call_log[mark:]):
            fn.calls -= 1
            if fn.each and len(fn.each) > fn.calls:
                fn.each.pop()
            if len(fn.each) == fn.calls:
                fn.merged = Merged()
                for _, env, _ in fn.each:
                    fn.merged.add(env)
        del self.call_log[mark:]

    def add_decl(self, decl: GpuDecl) -> None:
        key = (decl.name, decl.span.key() if decl.span is not None else None, decl.how)
        if key not in self.decl_keys:
            self.decl_keys.add(key)
            self.decls.append(decl)


class Walker(Commands):
    """Walks one parse tree in execution order with a variable environment."""

    def __init__(self, shared: Shared, doc: Doc, scope: str = "script", launch_span: Span | None = None,
                 image: MStr | None = None, depth: int = 0) -> None:
        self.shared = shared
        self.doc = doc
        self.scope = scope
        self.launch_span = launch_span
        self.image = image
        self.depth = depth
        self.silent = 0
        self.capture = 0
        """Inside a function's body walked for what it prints (:func:`.printed.capture`)."""
        self.elsewhere = 0
        """Inside a command whose output goes to a file or another stream (``echo … >&2``)."""
        self.loop_depth = 0
        self.per_word = 1
        """Runs of the code being walked: the product of the word counts of the ``for`` loops walked
        once per word around it (:meth:`_each`), at most ``limits.MAX_PATH_VARIANTS``."""
        self.merged_loops = 0
        """Loops around the code being walked whose passes are merged (:meth:`_loop_passes`)."""
        self.conds: list[str] = []
        self.run_labels: tuple[str, ...] = ()
        """The conditions of the path a command is being run along (:meth:`_along_paths`)."""
        """The conditions, in words, of the undecided branches the code being walked is in (what a
        function's call there is recorded with)."""
        self.expand = Expander(doc)
        self.expand.substitution = lambda node, env: printed(self.expand, self.shared.functions, node, env,
                                                              self._before_print)
        self.budget = limits.budget()

    def visit(self, node, env: Env) -> None:
        if self.loop_depth or self.depth:
            # Code walked again — a loop body (twice a level), a `bash -c` string at each run — is what
            # can grow past the file's size: it spends the file's steps, a command or an assignment
            # (words expanded) twenty. Code walked once is bounded by MAX_SHELL_CHARS.
            self.budget.step("walking the shell script", _WEIGHT.get(node.type, 1))
        handler = _HANDLERS.get(node.type)
        if handler is not None:
            if node.type in _SIMPLE and (env.paths or self._may_print_paths(node) or self._may_choose(node)):
                self._along_paths(handler, node, env)
            else:
                handler(self, node, env)
            return
        for child in node.named_children:
            self.visit(child, env)

    def _may_print_paths(self, node) -> bool:
        """A command that reads the output of a function whose body does more than print (it may set
        a local variable per path): run along paths (:meth:`_along_paths`; once when none is read)."""
        return self.shared.printers > 0 and b"$(" in self.doc.data[node.start_byte:node.end_byte]

    def _may_choose(self, node) -> bool:
        """A command that expands ``${NAME:+WORD}`` / ``${NAME+WORD}``: when the script does not give
        ``NAME``, the word is there on some paths only (:func:`.expand._alternative_path`)."""
        return _ALTERNATIVE.search(self.doc.data, node.start_byte, node.end_byte) is not None

    def _before_print(self, statements: list, env: Env, capture: bool = False) -> Env:
        """The variables after ``statements`` (a function's body before the command that prints),
        walked silently on a copy of ``env``: a local set in a branch holds a value per path. With
        ``capture``, what its ``echo``/``printf`` commands print is collected (:data:`.printed.OUTPUT`)."""
        inner = env.copy()
        self.silent += 1
        self.capture, outer = (1 if capture else 0), self.capture
        try:
            for st in statements:
                self.visit(st, inner)
        finally:
            self.silent -= 1
            self.capture = outer
        return inner

    def _seq(self, node, env: Env) -> None:
        for child in named_kids(node):
            self.visit(child, env)

    def _skip(self, node, env: Env) -> None:
        pass

    def _redirected(self, node, env: Env) -> None:
        away = self.capture and any(_stdout_away(self.doc.node_text(c)) for c in node.named_children
                                    if c.type == "file_redirect")
        self.elsewhere += away
        try:
            for child in node.named_children:
                if child.type not in ("file_redirect", "heredoc_redirect", "herestring_redirect", "heredoc_body"):
                    self.visit(child, env)
        finally:
            self.elsewhere -= away

    def _copy_scope(self, node, env: Env) -> None:
        inner = env.copy()
        for child in node.named_children:
            self.visit(child, inner)

    def _pipeline(self, node, env: Env) -> None:
        for child in node.named_children:
            self.visit(child, env.copy())

    def _list(self, node, env: Env) -> None:
        # a && b, a || b: b runs only on some paths.
        kids = node.named_children
        if not kids:
            return
        ops = [c.type for c in node.children if not c.is_named]
        if len(kids) == 2 and ops in (["&&"], ["||"]) and _is_test(kids[0], self.doc):
            self._and_or(kids[0], kids[1], ops[0] == "&&", env)
            return
        self.visit(kids[0], env)
        for child in kids[1:]:
            branch = env.copy()
            self.visit(child, branch)
            env.replace(merge([env, branch]))

    def _and_or(self, test, then, on_success: bool, env: Env) -> None:
        """``test && then`` (``on_success``) or ``test || then``: ``then`` runs on the paths where
        ``test`` succeeds (fails), as in ``if test; then then; fi`` — one decision with its condition
        (``[ -n "$DET" ] && EXTRA=--enable-deterministic-inference``); a test the script decides
        (:func:`.conditions.decide`) runs ``then`` or not."""
        self.visit(test, env)
        decision, flip = self._decision([test])
        decided = self._decide([test], decision, flip, env)
        if decided is not None:
            if decided is on_success:
                self.visit(then, env)
            return
        truth = self._truth([test], on_success)
        taken = env.copy()
        self._under(truth, then, taken)
        first, second = (0 ^ flip, 1 ^ flip) if on_success else (1 ^ flip, 0 ^ flip)
        if self._ends(then):  # ``[ -n "$DET" ] && exit 1``: only the other path goes on
            rule_out(env, decision, first)
            return
        conds = [((decision, first, truth),), ((decision, second, self._truth([test], not on_success)),)]
        env.replace(merge([taken, env], conds))

    def _decision(self, cond) -> tuple[tuple, bool]:
        """``(key, flipped)`` of the two-way decision of the test ``cond`` (its command nodes): tests of
        one variable share a key (:func:`.subjects.test_key`; ``flipped``: the test succeeding is the
        key's branch 1), others are keyed by their text (tests written alike are one decision)."""
        got = test_key(self.doc, cond)
        if got is not None:
            return got
        return (id(self.doc), " ".join(self._truth(cond, True).split())), False

    def _decide(self, cond, decision, flip: bool, env: Env) -> bool | None:
        """Whether the test ``cond`` of the two-way ``decision`` succeeds, when the script decides it
        (:func:`.conditions.decide`) or a guard before it ended the script on one of its branches
        (:func:`.subjects.settled`); None when both paths go on."""
        decided = decide(self.expand, cond, env)
        if decided is None and env.gone:
            branch = settled(env.gone, decision)
            if branch is not None:
                return branch == int(flip)
        return decided

    def _along_paths(self, handler, node, env: Env) -> None:
        """Run a simple command once per path of the variables it reads that hold a value per path
        (:class:`~.env.Paths`); its launches get the conditions of their path, and what it assigns
        differently on different paths becomes a value per path. Past ``MAX_PATH_VARIANTS`` paths
        along the decisions that matter most (:meth:`_focused_runs`); when even one path per
        ``${X:+…}`` is past it, once with those variables unknown."""
        shared = self.shared

        def start(conds: tuple):
            run = [{k: b for k, b, _ in conds}, None]
            token = start_run(run)
            marks = (len(shared.launches), len(shared.problems), len(shared.call_log))
            outer = self.run_labels
            self.run_labels = outer + tuple(label for _, _, label in conds)  # (a function call made here)

            def done():
                end_run(token)
                self.run_labels = outer
                k, p, c = marks
                if run[1] is not None:  # a run cut short: what it found is found again on each path
                    del shared.launches[k:], shared.problems[p:]
                    shared.take_back_calls(c)
                elif conds:
                    labels = tuple(label for _, _, label in conds)
                    shared.launches[k:] = [records.replace(x, path=labels) for x in shared.launches[k:]]
                return run[1]
            return done

        given = [env]

        def run() -> Env:
            e = given[0].copy()
            handler(self, node, e)
            return e

        def forget() -> None:  # what the runs of an exploration given up found
            del shared.launches[k0:], shared.problems[p0:]
            shared.take_back_calls(c0)

        k0, p0, c0 = len(shared.launches), len(shared.problems), len(shared.call_log)
        runs = explore(run, start, extends)
        if runs is None:
            # past the limit together (a value per path of 11 modes, and a ``${DET:+…}``; 3 × 3 --tp
            # paths in one variable and a deterministic switch in another: rev39 D3): again with the
            # values keeping apart only the decisions that change what the rules decide, the most
            # important first, as many as fit
            forget()
            runs = self._focused_runs(env, given, lambda: explore(run, start, extends), forget)
        if runs is None:  # past the limit: once, with every value per path unknown
            forget()
            token = start_run(None)
            try:
                runs = [((), run())]
            finally:
                end_run(token)
        if len(runs) == 1:
            env.replace(runs[0][1])
        else:
            env.replace(merge([e for _, e in runs], [c for c, _ in runs]))

    @staticmethod
    def _focused_runs(env: Env, given: list, again, forget) -> list | None:
        """The runs (``again()``, reading ``given[0]``) of a command whose values per path of ``env``
        are past ``MAX_PATH_VARIANTS`` paths together: with every decision merged, then keeping apart
        one more of :func:`~.env.ranked_decisions` (deterministic inference and the backends, then the
        model, then the parallel sizes) at a time while the paths fit, at most
        ``limits.MAX_PATH_TRIALS`` runs in all. The last runs kept (what they found stays found); None
        when even every decision merged is past the cap (a ``${X:+…}`` of many variables)."""
        keep: set = set()
        given[0] = focused(env, keep)
        runs = again()
        if runs is None:
            return None
        budget = limits.MAX_PATH_TRIALS - len(runs)
        current = True  # the runs of ``keep`` are the last made (their launches are those recorded)
        for k in ranked_decisions(env):
            if budget <= 0:
                break
            forget()
            given[0] = focused(env, keep | {k})
            got = again()
            budget -= len(got) if got is not None else limits.MAX_PATH_VARIANTS
            current = got is not None and len(got) > len(runs)
            if current:
                keep, runs = keep | {k}, got
        if not current:
            forget()
            given[0] = focused(env, keep)
            runs = again()
        return runs

    def _truth(self, nodes, holds: bool) -> str:
        """A condition (its command nodes) succeeding or not, in words: "`[ -n "$DET" ]` succeeds"."""
        if not nodes:
            return "the condition " + ("succeeds" if holds else "fails")
        text = " ".join(self.doc.text[self.doc.c(nodes[0].start_byte):self.doc.c(nodes[-1].end_byte)].split())
        text = text.rstrip(";").rstrip()
        if len(text) > 60:
            text = text[:57] + "..."
        return f"`{text}` {'succeeds' if holds else 'fails'}"

    def _if(self, node, env: Env) -> None:
        cond, body, clauses, decided = self._if_head(node, env)
        decision, flip = (id(self.doc), node.start_byte), False
        two_way = bool(cond) and not any(c.type == "elif_clause" for c in clauses)
        if two_way:
            # conditions written alike, or testing one variable alike, are one decision: each path
            # takes the same branch of both
            decision, flip = self._decision(cond)
            if decided is None:
                decided = self._decide(cond, decision, flip, env)
        if decided is not None:
            self._if_decided(decided, body, clauses, env)
            return
        outcomes = []
        conds = [((decision, 0 ^ flip, self._truth(cond, True)),)]
        taken = env.copy()
        self._under(conds[0][0][2], body, taken)
        outcomes.append(taken)
        ended = [self._ends(body)]
        rest = env
        has_else = False
        tests = [cond]
        for clause in clauses:
            if clause.type == "elif_clause":
                rest = rest.copy()
                ccond, cbody, _ = _split_if(clause)
                for c in ccond:
                    self.visit(c, rest)
                decided = decide(self.expand, ccond, rest)
                if decided is False:
                    continue  # never taken: no path
                branch = rest.copy()
                # taken when the tests before it fail (and its own succeeds, unless decided)
                label = self._none(tests) if decided else \
                    " and ".join([self._truth(t, False) for t in tests] + [self._truth(ccond, True)])
                self._under(label, cbody, branch)
                outcomes.append(branch)
                ended.append(self._ends(cbody))
                conds.append(((decision, len(conds), label),))
                if decided:  # the last branch: what follows never runs
                    has_else = True
                    break
                tests.append(ccond)
            else:
                has_else = True
                branch = rest.copy()
                self._under(self._none(tests), clause.named_children, branch)
                outcomes.append(branch)
                ended.append(self._ends(clause.named_children))
                conds.append(((decision, len(conds) ^ flip, self._none(tests)),))
        if not has_else:
            outcomes.append(rest)
            conds.append(((decision, len(conds) ^ flip, self._none(tests)),))
            ended.append(False)
        gone = [c[0][1] for c, e in zip(conds, ended) if e] if not all(ended) else []
        if gone:  # a branch that ends the script (``exit 1``): no path goes on from it
            outcomes = [o for o, e in zip(outcomes, ended) if not e]
            conds = [c for c, e in zip(conds, ended) if not e]
        env.replace(merge(outcomes, conds))
        for branch in gone:  # nor from that branch of the same test written before (nor after: two_way)
            rule_out(env, decision, branch, two_way)

    def _ends(self, nodes) -> bool:
        """The statements ``nodes`` (a branch) end the script at their own top level (in a ``{ …; }``
        group too): ``exit``, ``exec COMMAND`` (the shell is replaced: ``exec false``), and in a
        function's body ``return``. A guard that refuses a combination (``if [ -n "$DET" ]; then echo
        "needs fa3"; exit 1; fi``) leaves no path after it that has it (fresh review of issue 35, d8b)."""
        for node in (nodes if isinstance(nodes, list) else [nodes]):
            if node.type == "redirected_statement" and node.named_children:
                node = node.named_children[0]
            if node.type == "compound_statement" and self._ends(list(named_kids(node))):
                return True
            if node.type != "command":
                continue
            name = node.child_by_field_name("name")
            word = self.doc.node_text(name) if name is not None else ""
            if word == "exit" or (word == "return" and self.scope != "script") or \
                    (word == "exec" and node.children_by_field_name("argument")) or self._exits(word):
                return True
        return False

    def _exits(self, name: str, seen: frozenset = frozenset()) -> bool:
        """``name`` is a function of the script whose body always ends the script: an ``exit`` (or
        ``exec COMMAND``, or a call of such a function) at its own top level, and no ``return``
        anywhere in it (``die() { echo "$1" >&2; exit 1; }``: fresh review rev38 e5b). A body in
        ``( … )`` runs in a subshell and ends only that."""
        fn = self.shared.functions.get(name)
        if fn is None or name in seen or len(seen) >= MAX_LOOP_DEPTH or fn.body.type != "compound_statement":
            return False
        if fn.exits is None:  # asked once per function: a call in each branch costs nothing more
            fn.exits = self._body_exits(fn, seen | {name})
        return fn.exits

    def _body_exits(self, fn: Fn, seen: frozenset) -> bool:
        """:meth:`_exits` of ``fn``'s body, the functions in ``seen`` (its callers here) not followed."""
        doc = fn.doc
        stack = [fn.body]
        while stack:
            n = stack.pop()
            if n.type == "command":
                called = n.child_by_field_name("name")
                if called is not None and doc.node_text(called) == "return":
                    return False
            stack.extend(n.named_children)
        for st in named_kids(fn.body):
            if st.type == "redirected_statement" and st.named_children:
                st = st.named_children[0]
            called = st.child_by_field_name("name") if st.type == "command" else None
            word = doc.node_text(called) if called is not None else ""
            if word == "exit" or (word == "exec" and st.children_by_field_name("argument")) or \
                    self._exits(word, seen):
                return True
        return False

    def _under(self, label: str, nodes, env: Env) -> None:
        """Walk ``nodes`` (one node or several) in a branch taken when ``label`` holds."""
        self.conds.append(label)
        try:
            for c in (nodes if isinstance(nodes, list) else [nodes]):
                self.visit(c, env)
        finally:
            self.conds.pop()

    def _if_head(self, node, env: Env) -> tuple:
        """Run the test of an ``if`` and drop the branches whose test the script decides false while
        an ``elif`` follows (the chain then starts at the ``elif``): ``(condition nodes, body nodes,
        elif/else clauses, verdict)`` of the first test not decided false, the verdict None when it is
        not decided (:func:`.conditions.decide`)."""
        cond, body, clauses = _split_if(node)
        for c in cond:
            self.visit(c, env)
        decided = decide(self.expand, cond, env)
        while decided is False and clauses and clauses[0].type == "elif_clause":
            cond, body, _ = _split_if(clauses[0])
            clauses = clauses[1:]
            for c in cond:
                self.visit(c, env)
            decided = decide(self.expand, cond, env)
        return cond, body, clauses, decided

    def _if_decided(self, decided: bool, body, clauses, env: Env) -> None:
        """Run the one branch of an ``if`` whose test the script decides (``DET=1`` then ``if [
        "$DET" = 1 ]``: :mod:`.conditions`): the body when it succeeds, else the ``else`` (the
        caller has dropped the ``elif`` tests that fail before)."""
        if decided:
            for c in body:
                self.visit(c, env)
        elif clauses:
            for c in clauses[0].named_children:
                self.visit(c, env)

    def _none(self, tests: list) -> str:
        if len(tests) == 1:
            return self._truth(tests[0], False)
        return "none of " + ", ".join(self._truth(t, True).rsplit(" ", 1)[0] for t in tests) + " succeeds"

    def _case(self, node, env: Env) -> None:
        value = node.child_by_field_name("value")
        if value is not None:
            self._visit_subs(value, env)
        outcomes = []
        conds = []
        catch_all = False
        decision = (id(self.doc), node.start_byte)
        subject = " ".join(self.doc.node_text(value).split()) if value is not None else "the word"
        if self._case_decided(node, value, env):
            return
        for patterns, statements in case_items(self.doc, node):
            branch = env.copy()
            catch_all = catch_all or "*" in patterns
            label = case_label(subject, patterns)
            self._under(label, statements, branch)
            outcomes.append(branch)
            conds.append(((decision, len(conds), label),))
        if not catch_all:
            outcomes.append(env)
            conds.append(((decision, len(conds), no_case_label(subject)),))
        env.replace(merge(outcomes, conds))

    def _case_decided(self, node, value, env: Env) -> bool:
        """Run the one item of a ``case`` whose word the script gives (``MODE=det`` then ``case
        "$MODE" in``); False (nothing run) when the word or a pattern before the match is not known."""
        word = scalar(self.expand.segs(value, env), None) if value is not None else None
        if word is None or not word.known:
            return False
        items = case_items(self.doc, node)
        k = case_branch(word.text, [patterns for patterns, _ in items])
        if k is None:
            return False
        if k < len(items):
            for child in items[k][1]:
                self.visit(child, env)
        return True

    def _loop(self, node, env: Env) -> None:
        variable = node.child_by_field_name("variable") if node.type == "for_statement" else None
        values = [c for i, c in enumerate(node.children) if node.field_name_for_child(i) == "value"]
        for v in values:
            self._visit_subs(v, env)
        conds = [c for i, c in enumerate(node.children)
                 if node.field_name_for_child(i) == "condition" and c.is_named]
        body = node.child_by_field_name("body")
        items = self._known_items(variable, values, body, env) if variable is not None and not self.silent else None
        if items is not None:
            self._each(self.doc.node_text(variable), items, body, env)
            return

        def once(e: Env) -> None:
            if variable is not None:
                e.set(self.doc.node_text(variable), UNKNOWN_V)
            for c in conds:
                self.visit(c, e)
            if body is not None:
                for c in body.named_children:
                    self.visit(c, e)

        try:
            self._loop_passes(node, env, once)
        except limits.LimitExceeded as exc:  # the file's steps are spent: what the loop sets is unknown
            self.budget.stopped(exc, self.doc.where(*self.doc.rng(node)), "what the loops past it set is unknown")
            for name in _assigned_names(node, self.doc):
                env.set(name, UNKNOWN_V)

    def _known_items(self, variable, values: list, body, env: Env) -> list | None:
        """The words a ``for NAME in WORDS`` loop goes over when each is known, its body neither leaves
        the loop early (``break``, ``continue``, ``return``, ``exit``) nor is walked inside a loop whose
        passes are merged, and its runs times those of the ``for`` loops around it walked once per
        word are at most ``limits.MAX_PATH_VARIANTS`` — counting a repeated word once when the body
        carries nothing from pass to pass (:mod:`.loopstate`); None otherwise (the loop's passes are
        merged: what differs is unknown)."""
        if not values or body is None or self.merged_loops:
            return None
        words: list = []
        checked = False  # whether the body was found to carry nothing from pass to pass
        for v in values:
            more = self.expand.words([v], env)
            if any(t.value is None or _GLOB.search(t.value) for t in more):
                return None  # (a file pattern may expand to other words: not guessed)
            words.extend(more)
            if self.per_word * len(words) > limits.MAX_PATH_VARIANTS:
                # a body that carries nothing from pass to pass does the same on equal words
                if not checked and carries_state(body, self.doc.node_text(variable), self.doc,
                                                 self.shared.functions):
                    return None
                checked = True
                words = distinct_words(words)
                if self.per_word * len(words) > limits.MAX_PATH_VARIANTS:
                    return None
        stack = [body]
        while stack:
            n = stack.pop()
            if n.type == "command":
                name = n.child_by_field_name("name")
                if name is not None and self.doc.node_text(name) in ("break", "continue", "return", "exit"):
                    return None
            stack.extend(n.named_children)
        return words

    def _each(self, name: str, items: list, body, env: Env) -> None:
        """Walk a ``for`` loop's body once per item (as bash runs it), ``name`` set to each in turn:
        a launch in it is one launch per item; identical launches of several items are one."""
        shared = self.shared
        start = len(shared.launches)
        self.loop_depth += 1
        outer = self.per_word
        self.per_word = outer * len(items)
        try:
            for item in items:
                env.set(name, item.text)
                for c in body.named_children:
                    self.visit(c, env)
        except limits.LimitExceeded as exc:  # the file's steps are spent: what the loop sets is unknown
            self.budget.stopped(exc, self.doc.where(*self.doc.rng(body)), "what the loops past it set is unknown")
            for assigned in _assigned_names(body, self.doc) | {name}:
                env.set(assigned, UNKNOWN_V)
        finally:
            self.loop_depth -= 1
            self.per_word = outer
        _dedupe(shared, start)

    def _loop_passes(self, node, env: Env, once) -> None:
        self.merged_loops += 1
        try:
            self._merged_passes(env, once)
        finally:
            self.merged_loops -= 1

    def _merged_passes(self, env: Env, once) -> None:
        """Walk a loop's body twice (the first silently): what differs between passes is unknown."""
        before = env.copy()
        if self.loop_depth < MAX_LOOP_DEPTH:
            first = before.copy()
            self.silent += 1
            self.loop_depth += 1
            try:
                once(first)
            finally:
                self.silent -= 1
                self.loop_depth -= 1
            entry = merge([before, first])
        else:
            entry = before.copy()
        self.loop_depth += 1
        try:
            second = entry.copy()
            once(second)
        finally:
            self.loop_depth -= 1
        env.replace(merge([before, second]))

    def _function(self, node, env: Env) -> None:
        if self.silent:
            return
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or body is None:
            return
        name = self.doc.node_text(name_node)
        fn = Fn(name, body, self.doc, env.copy(), _assigned_names(body, self.doc),
                 launch_span=self.launch_span, image=self.image)
        fn.order = len(self.shared.fn_order)
        fn.one_statement = sum(1 for c in body.named_children if c.type != "comment") <= 1
        self.shared.printers += not fn.one_statement
        self.shared.functions[name] = fn
        self.shared.fn_order.append(fn)

    def _substitution(self, node, env: Env) -> None:
        inner = env.copy()
        for child in node.named_children:
            self.visit(child, inner)

    def _visit_subs(self, node, env: Env) -> None:
        """Visit the command substitutions inside a word (they run before the command)."""
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in ("command_substitution", "process_substitution"):
                self._substitution(n, env)
                continue
            stack.extend(reversed(n.named_children))


    def _assignment_stmt(self, node, env: Env) -> None:
        self._assign(node, env)

    def _assignments_stmt(self, node, env: Env) -> None:
        for child in node.named_children:
            if child.type == "variable_assignment":
                self._assign(child, env)

    def _value_of(self, node, env: Env):
        """(name, subscript-or-None, '+=' or '=', value) of a variable_assignment; value is an MStr,
        a list of tokens (array) or UNKNOWN_V."""
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None:
            return None
        index = None
        if name_node.type == "subscript":
            base = name_node.child_by_field_name("name")
            idx = name_node.child_by_field_name("index")
            name = self.doc.node_text(base) if base is not None else self.doc.node_text(name_node)
            index = self.doc.node_text(idx) if idx is not None else ""
        else:
            name = self.doc.node_text(name_node)
        op = "="
        for child in node.children:
            if not child.is_named and child.type in ("=", "+="):
                op = child.type
                break
        if value_node is None:
            i, j = self.doc.rng(node)
            return name, index, op, MStr.plain("", self.doc.where(j, j))
        self._visit_subs(value_node, env)
        if value_node.type == "array":
            tokens: list[Token] = []
            for child in value_node.named_children:
                if child.type == "comment":
                    continue
                tokens.extend(self.expand.words([child], env))
            return name, index, op, tokens
        i, j = self.doc.rng(value_node)
        return name, index, op, scalar(self.expand.segs(value_node, env), self.doc.where(i, j))

    def _assign(self, node, env: Env, export: bool = False, unknown: bool = False) -> None:
        got = self._value_of(node, env)
        if got is None:
            return
        name, index, op, value = got
        if unknown:
            value = UNKNOWN_V
        old = env.get(name)
        if index is not None:
            k = small_number(index)
            if isinstance(old, list) and k is not None and not isinstance(value, list) \
                    and value is not UNKNOWN_V and k < len(old) and op == "=":
                new = list(old)
                new[k] = Token(value)
                env.set(name, new, export)
            else:
                env.set(name, UNKNOWN_V, export)
            return
        if op == "+=":
            if isinstance(value, (list, MStr)) and isinstance(old, (list, MStr)) and not self.budget.fits(
                    _size(old) + _size(value), f"the value of {name}", self.doc.where(*self.doc.rng(node))):
                value = UNKNOWN_V
            elif isinstance(value, list):
                if isinstance(old, list):
                    value = old + value
                elif isinstance(old, MStr):
                    value = [Token(old)] + value
                elif old is UNSET:
                    pass
                else:
                    value = UNKNOWN_V
            elif value is not UNKNOWN_V:
                if isinstance(old, MStr):
                    value = MStr.join([old, value])
                elif isinstance(old, list):  # A+=x appends to A[0]
                    value = [Token(MStr.join([old[0].text, value])), *old[1:]] if old else [Token(value)]
                elif old is UNSET:
                    pass
                else:
                    value = UNKNOWN_V
        env.set(name, value, export)

    def _declaration(self, node, env: Env) -> None:
        kids = node.children
        keyword = kids[0].type if kids else ""
        flags = ""
        unexport = False
        for child in kids[1:]:
            if child.type == "word":
                text = self.doc.node_text(child)
                if text.startswith("-"):
                    flags += text[1:]
                elif text.startswith("+"):
                    if "x" in text:
                        unexport = True
        if "f" in flags or "F" in flags or "p" in flags:
            return
        export = keyword == "export" or "x" in flags
        if keyword == "export" and "n" in flags:
            export, unexport = False, True
        # integer, associative, nameref and case-converting declarations: values not followed
        unknown = any(f in flags for f in ("iAluc" if keyword == "export" else "iAnluc"))
        for child in kids[1:]:
            if child.type == "variable_assignment":
                self._assign(child, env, export=export, unknown=unknown)
                if unexport:
                    env.unexport(self.doc.node_text(child.child_by_field_name("name")))
            elif child.type == "variable_name":
                name = self.doc.node_text(child)
                if unexport:
                    env.unexport(name)
                elif export:
                    env.export(name)
                if keyword in ("local", "declare", "typeset") and env.get(name) is ABSENT or keyword == "local":
                    env.set(name, UNKNOWN_V if unknown else UNSET, export)
            else:
                self._visit_subs(child, env)

    def _unset(self, node, env: Env) -> None:
        names = []
        functions = False
        for child in node.named_children:
            text = self.doc.node_text(child)
            if text.startswith("-"):
                functions = functions or "f" in text
                continue
            names.append(text)
        if functions:
            return
        for name in names:
            if NAME.match(name):
                env.put(name, UNSET)
                env.unexport(name)


_HANDLERS: dict[str, Callable] = {
    "program": Walker._seq,
    "compound_statement": Walker._seq,
    "do_group": Walker._seq,
    "negated_command": Walker._seq,
    "ERROR": Walker._seq,
    "redirected_statement": Walker._redirected,
    "subshell": Walker._copy_scope,
    "pipeline": Walker._pipeline,
    "list": Walker._list,
    "if_statement": Walker._if,
    "case_statement": Walker._case,
    "for_statement": Walker._loop,
    "c_style_for_statement": Walker._loop,
    "while_statement": Walker._loop,
    "function_definition": Walker._function,
    "command_substitution": Walker._substitution,
    "process_substitution": Walker._substitution,
    "variable_assignment": Walker._assignment_stmt,
    "variable_assignments": Walker._assignments_stmt,
    "declaration_command": Walker._declaration,
    "unset_command": Walker._unset,
    "command": Walker._command,
    "comment": Walker._skip,
    "heredoc_body": Walker._skip,
    "heredoc_redirect": Walker._skip,
    "herestring_redirect": Walker._skip,
    "file_redirect": Walker._skip,
}


_WEIGHT = {"command": 20, "variable_assignment": 20, "declaration_command": 20}
"""Steps a walked node spends: a command or an assignment (its words expanded) costs about twenty
times a list or a branch."""


def _dedupe(shared: Shared, start: int) -> None:
    """The launches found since ``start`` with identical ones (same place, entry point, words and
    path) kept once."""
    seen: set = set()
    kept = []
    for launch in shared.launches[start:]:
        key = (launch.span.key(), launch.program, tuple(t.text.text for t in launch.args), launch.path)
        if key not in seen:
            seen.add(key)
            kept.append(launch)
    shared.launches[start:] = kept


def _size(value) -> int:
    """Characters of a value (an MStr, or an array's words and the blanks between them)."""
    return len(value.text) if isinstance(value, MStr) else sum(len(t.text.text) + 1 for t in value)


_ALTERNATIVE = re.compile(rb"\$\{[A-Za-z_][A-Za-z0-9_]*:?\+")
"""``${NAME:+`` or ``${NAME+``: a word that is there when a variable is set (see :meth:`Walker._may_choose`)."""

_SIMPLE = frozenset({"command", "variable_assignment", "variable_assignments", "declaration_command",
                     "unset_command"})
"""Statements run once per path when a variable they may read holds a value per path."""


def _stdout_away(redirect: str) -> bool:
    """The redirection (its text) sends the standard output elsewhere: ``>&2``, ``> file``, ``&>log``,
    ``1>>log`` (not ``2>/dev/null``, nor ``<in``)."""
    text = redirect.lstrip()
    return text[:1] in (">", "&") or text[:2] in ("1>",)


def _split_if(node):
    """(condition nodes, body nodes, elif/else clauses) of an if_statement or elif_clause."""
    cond, body, clauses = [], [], []
    in_body = False
    for child in node.children:
        if not child.is_named:
            if child.type == "then":
                in_body = True
            continue
        if child.type in ("elif_clause", "else_clause"):
            clauses.append(child)
        elif in_body:
            body.append(child)
        else:
            cond.append(child)
    return cond, body, clauses


def _assigned_names(body, doc: Doc) -> set[str]:
    """Variables a function body assigns (not declared ``local``): unknown after a call."""
    names: set[str] = set()
    local: set[str] = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "variable_assignment":
            name = n.child_by_field_name("name")
            if name is not None:
                if name.type == "subscript":
                    name = name.child_by_field_name("name") or name
                target = local if n.parent is not None and n.parent.type == "declaration_command" and \
                    n.parent.children[0].type == "local" else names
                target.add(doc.node_text(name))
        elif n.type == "declaration_command" and n.children and n.children[0].type == "local":
            for c in n.named_children:
                if c.type == "variable_name":
                    local.add(doc.node_text(c))
        stack.extend(n.named_children)
    return names - local


def _is_test(node, doc: Doc) -> bool:
    """A test (``[ … ]``, ``[[ … ]]``, ``test …``, ``true``, ``false``): what a ``&&``/``||`` list is
    read as a decision for, as ``if`` reads it; another command's success (``cd``, ``mkdir``) is not
    a decision the user means."""
    if node.type == "test_command":
        return True
    name = node.child_by_field_name("name") if node.type == "command" else None
    return name is not None and doc.node_text(name) in ("test", "true", "false", ":")


def walk_all(shared: Shared, doc: Doc, root, env: Env, launch_span: Span | None = None,
              image: MStr | None = None) -> None:
    """Walk a script, then its functions: first the first one (in definition order) that has calls,
    with its callers' variables merged, else the first one never walked, with those at its definition."""
    try:
        _walk_all(shared, doc, root, env, launch_span, image)
    except limits.LimitExceeded as exc:  # the file's steps are spent: the launches found so far stay
        limits.budget().stopped(exc, launch_span or Span(shared.source, 0, 0),
                                "the rest of the script is not checked")


def _walk_all(shared: Shared, doc: Doc, root, env: Env, launch_span: Span | None, image: MStr | None) -> None:
    walker = Walker(shared, doc, "script", launch_span, image)
    walker.visit(root, env)
    order = shared.fn_order
    first = 0  # every function before it is done
    while True:
        called = shared.called
        while called and order[called[0]].done:
            heapq.heappop(called)
        if called:
            fn = order[heapq.heappop(called)]
        else:
            while first < len(order) and order[first].done:
                first += 1
            if first == len(order):
                break
            fn = order[first]
        fn.done = True
        if _per_call(fn):
            _walk_calls(shared, fn)
            continue
        fenv = fn.merged.env() if fn.calls else fn.def_env.copy()
        inner = Walker(shared, fn.doc, f"{fn.name}()", fn.launch_span, fn.image)
        for child in fn.body.named_children:
            inner.visit(child, fenv)


def _per_call(fn: Fn) -> bool:
    """A function called (at most ``limits.MAX_PATH_VARIANTS`` times) with different arguments: walked
    once per call, as the Python format evaluates a function once per call (fresh review of issue 35,
    D11b: calls in the two branches of an ``if`` merged their arguments into one unknown)."""
    if len(fn.each) < 2 or fn.calls != len(fn.each):
        return False
    first = fn.each[0][1].get(ARGV)
    return any(not _same_args(first, env.get(ARGV)) for _, env, _ in fn.each[1:])


def _same_args(a, b) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(x.splat == y.splat and x.text.text == y.text.text for x, y in zip(a, b))
    return a is b


def _walk_calls(shared: Shared, fn: Fn) -> None:
    """Walk ``fn`` once per call with that call's variables: its launches are one per call, each with
    the conditions of the branches its call is in (:attr:`~linter.launch.Launch.path`), located at its
    call as a Python function's launch per call is (a script's own function; in text embedded in
    another file, at that text); identical launches of several calls are one."""
    start = len(shared.launches)
    for conds, env, at in fn.each:
        k = len(shared.launches)
        inner = Walker(shared, fn.doc, f"{fn.name}()", fn.launch_span or at, fn.image)
        inner.conds = list(conds)
        fenv = env.copy()
        for child in fn.body.named_children:
            inner.visit(child, fenv)
        if conds:
            shared.launches[k:] = [records.replace(x, path=x.path or tuple(conds)) for x in shared.launches[k:]]
    _dedupe(shared, start)
