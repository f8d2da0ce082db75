"""The analysis of one module: its parts wired together, and the loop over its calls.

:class:`Analysis` is the interpretation (:class:`~.interpret.Interpreter`,
:class:`~.statements.Statements`, :class:`~.frames.FrameLookups`, :class:`~.setters.LateSetters`) and
the evaluation (:class:`~.evaluate.Evaluator`) of the module — mixins, because statements and expressions call each
other and share the frame caches — plus two parts it owns: :class:`~.launches.LaunchFinder` (which
calls are launches) and :class:`~.modal.ModalDecls` (Modal GPUs and images). The module's structure
(scopes, calls, names bound) is a :class:`~.scopes.ModuleIndex`.
"""

from __future__ import annotations

import ast

from linter import limits, records
from linter.extract.python.ci import ci_declarations
from linter.extract.python.evaluate import Evaluator
from linter.extract.python.frames import Frame, FrameLookups
from linter.extract.python.interpret import Interpreter
from linter.extract.python.launches import LaunchFinder
from linter.extract.python.modal import ModalDecls
from linter.extract.python.modules import Resolver
from linter.extract.python.paths import Paths
from linter.extract.python.positions import Positions
from linter.extract.python.scopes import ModuleIndex
from linter.extract.python.setters import LateSetters
from linter.extract.python.statements import Statements
from linter.extract.python.syntax import SIMPLE, guards_of
from linter.extract.python.values import Ref, Value
from linter.launch import Extraction, Launch
from linter.source import SourceFile, Span
from linter.workspace import Workspace


class Analysis(Interpreter, Statements, FrameLookups, LateSetters, Evaluator, Paths):
    """One parsed module (``module``, an ``ast.Module`` of ``source.text``; ``positions`` converts its
    node positions to character offsets); :meth:`run` appends its launches to ``result``."""

    def __init__(self, source: SourceFile, module: ast.Module, positions: Positions, result: Extraction,
                 ws: Workspace | None = None, depth: int = 0) -> None:
        self.source = source
        self.module = module
        self.positions = positions
        self.result = result
        self._offset_cache: dict[int, tuple[int, int]] = {}
        self.final_frames: dict[int, Frame] = {}
        self._cursors: dict[int, list] = {}
        self._computing: dict[int, Frame] = {}
        self.splat_ids: set[int] = set()
        self._keep: list = []
        self._merge_tags: dict[int, frozenset] = {}  # id of a merge's unknown character -> its decisions
        self.unlabelled: list = []  # merges' unknown characters (UnknownOrigin) and Splats no expression has read yet
        self._loop_memo: dict[int, list] = {}  # loop id -> [(frame before it, frame at a round's start)]
        self._loop_nesting = 0
        self._bases_memo: dict[int, list] = {}
        self._params_memo: dict = {}  # function scope id -> its parameters every call gives
        self.returning: set[tuple[int, int]] = set()  # (function scope, bound class) being evaluated
        self.returned: dict[tuple, Value] = {}
        """((function scope, bound class), None or the depth of calls) -> what the function returns."""
        self.cuts = [0, 0]  # recursions, chains too deep cut short so far (return_value)
        self.budget = limits.budget()  # the file's: shared with the modules it imports
        self.index = ModuleIndex(module)
        for scope in self.index.scopes:
            scope.owner = self
        self.ws = ws
        self.resolver = Resolver(self, ws, depth, Analysis) if ws is not None else None
        if self.resolver is not None and depth == 0:
            self.resolver.modules.register(self)
        self.finder = LaunchFinder(self)
        self.modal = ModalDecls(self)

    # positions

    def offsets(self, node) -> tuple[int, int]:
        """(start, end) character offsets of an ``ast`` node in the source (a tuple without its
        parentheses)."""
        got = self._offset_cache.get(id(node))
        if got is None:
            got = self.positions.offsets(node)
            if isinstance(node, ast.Tuple):
                got = self.positions.strip_parens(*got)
            self._offset_cache[id(node)] = got
        return got

    def span(self, node) -> Span:
        """The node's span in the source."""
        s, e = self.offsets(node)
        return Span(self.source, s, e)

    def keyword_span(self, arg) -> Span:
        """The name of a keyword argument (an :class:`~.syntax.Arg`)."""
        s, e = self.positions.name_after(self.offsets(arg.node)[0])
        return Span(self.source, s, e)

    def name_span(self, node) -> Span:
        """The name of a ``def`` or ``class`` statement."""
        s, e = self.positions.def_name(self.offsets(node)[0])
        return Span(self.source, s, e)

    def contains(self, node, offset: int) -> bool:
        """The node's text holds the character at ``offset``."""
        s, e = self.offsets(node)
        return s <= offset < e

    # driver

    def resolve_ref(self, ref: Ref) -> Value | None:
        """The value an imported name has in another module of the repository (None: not there)."""
        return self.resolver.resolve(ref) if self.resolver is not None else None

    def run(self) -> None:
        """Find the launches of every call in source order — a call in a method once for its class
        and once for each subclass of the module that inherits the method —, then the launches the
        module's classes inherit from classes of other modules; each gets its key (scope, then #k),
        its Modal GPUs and its image. SGLang CI registrations declare the file's GPUs."""
        self.modal.declare()
        counters: dict[str, int] = {}

        def add(launch: Launch, qual: str, scope) -> None:
            k = counters.get(qual, 0)
            counters[qual] = k + 1
            changes: dict = {"key": qual if k == 0 else f"{qual}#{k}"}
            if scope is not None:
                changes["gpu_decls"] = self.modal.decls_for(scope)
                if launch.image is None:
                    changes["image"] = self.modal.image_for(scope)
            self.result.launches.append(records.replace(launch, **changes))

        classes: dict[int, list[tuple]] = {}  # scope id -> its concrete classes (once per scope, not per call)
        for call, scope in self.index.calls:
            if self.finder.covered_by_calls(call, scope):
                continue
            got = classes.get(id(scope))
            if got is None:
                got = classes[id(scope)] = self.concrete_classes(scope)
            found: list[tuple[Launch, str]] = []
            sets = self.call_sets(scope) if scope.kind == "function" else []
            if sets:
                found.extend((launch, scope.qual) for launch in self.launches_per_call_set(call, scope, sets))
            for self_class, qual in got if not sets else ():
                found.extend((launch, qual) for launch in self.finder.launches(call, scope, self_class))
            for launch, qual in merge_identical(found, scope.qual):
                add(launch, qual, scope)
        for cls in self.index.classes:
            for launch, qual in self.inherited_launches(cls):
                add(launch, qual, None)
            for launch in self.finder.command_method(cls):
                add(launch, f"{cls.qual}.__command__", cls)
        self.result.gpu_decls.extend(ci_declarations(self))
        if self.resolver is not None:
            self.result.related.extend(s for s in self.resolver.used if s is not self.source)

    def launches_per_call_set(self, call, scope, sets: list[tuple]) -> list[Launch]:
        """The launches of ``call`` in the module function ``scope`` for each set of constants its
        calls give (:meth:`~.frames.FrameLookups.call_sets`): one per set, located at the first call
        that gives it, when the sets give different launches (``go(det=True)`` and ``go()``: each
        decided, issue 35); the launches of the first set, where they are, when every set gives the
        same ones."""
        per_set = [(site, self.finder.launches(call, scope, None, args)) for site, args in sets]
        first = [_same_key(x) for x in per_set[0][1]]
        if all([_same_key(x) for x in found] == first for _, found in per_set[1:]):
            return per_set[0][1]
        distinct = len({id(site) for site, _ in per_set}) == len(per_set)
        paths = [self.set_path(scope, args[0]) or (self.site_path(site) if distinct else ()) for site, args in sets]
        return [records.replace(launch, span=self.span(site), path=path + launch.path)
                for (site, found), path in zip(per_set, paths) for launch in found]

    def site_path(self, site) -> tuple[str, ...]:
        """The tests of the ``if``s (and ``while``s) around the call ``site`` in its scope, in words
        ("`os.environ.get("A")` is false"), outermost first: the path that reaches the call (rev38
        e11: the call in each branch of an ``if``/``else`` is a launch of its own, shown with its branch)."""
        scope = self._caller_of(site)
        if scope is None:
            return ()
        start = self.offsets(site)[0]
        guards = guards_of(scope.body, lambda st: isinstance(st, SIMPLE) and self.contains(st, start))
        if not guards:
            return ()
        frame = self.frame_before(scope, start)  # (a test the file decides is no path)
        return tuple(self.truth(test, holds) for test, holds in guards if self.decide(test, frame) is None)

    def method_class(self, scope):
        """The class of which ``scope`` is a method taking ``self``/``cls``, or None."""
        if scope.kind == "function" and scope.self_name and scope.parent is not None and scope.parent.kind == "class":
            return scope.parent
        return None

    def runs_method(self, cls, method) -> bool:
        """``cls`` (or an instance of it) finds ``method``'s name on ``method``'s class."""
        name = method.node.name
        for c in self.mro(cls):
            if name in c.owner.index.locals_of(c):
                return c is method.parent
        return False

    def concrete_classes(self, scope) -> list[tuple]:
        """(class ``self``/``cls`` is bound to, launch key) for each class of this module that runs a
        call in ``scope``: a method's own class and each subclass that inherits the method. (None,
        qual) for a call outside a method, or in a method no class of the module inherits."""
        cls = self.method_class(scope)
        if cls is None:
            return [(None, scope.qual)]
        subs = [k for k in self.index.classes if k is not cls and self._inherits(k, cls) and self.runs_method(k, scope)]
        if not subs:
            return [(None, scope.qual)]
        name = scope.node.name
        return [(cls, scope.qual)] + [(k, f"{k.qual}.{name}") for k in subs]

    def inherited_launches(self, cls) -> list[tuple[Launch, str]]:
        """The launches of methods ``cls`` inherits from classes of other modules, run for ``cls``:
        located at ``cls``'s name in this file, their values where they are written."""
        out = []
        for base in self.mro(cls)[1:]:
            owner = base.owner
            if owner is self:
                continue
            for call, scope in owner.index.calls:
                if scope.parent is not base or owner.method_class(scope) is None or not self.runs_method(cls, scope):
                    continue
                for launch in owner.finder.launches(call, scope, cls):
                    launch = records.replace(launch, source=self.source, span=self.name_span(cls.node))
                    out.append((launch, f"{cls.qual}.{scope.node.name}"))
        return out


def _same_key(launch: Launch) -> tuple:
    """What makes two launches of one call site the same launch: their program, image and every
    argument — its text and where each character was written."""
    def mkey(m):
        return None if m is None else (m.text, tuple((n, id(src) if src is not None else None, off)
                                                      for n, src, off, _ in m.runs))

    args = tuple((t.splat, mkey(t.text)) for t in launch.args)
    kwargs = tuple((kw.name, repr(kw.value), kw.where.key() if kw.where else None) for kw in launch.kwargs)
    decls = tuple((d.name, d.span.key() if d.span else None) for d in launch.gpu_decls)
    return (launch.program, launch.style, args, kwargs, mkey(launch.image), decls)


def merge_identical(found: list[tuple[Launch, str]], site: str) -> list[tuple[Launch, str]]:
    """The launches one call site starts, one per class that runs it, with identical ones made one
    launch (issue 31): a launching method inherited unchanged by several classes with the same
    resolved arguments starts the same server; it is keyed by the call site's method (``site``) and
    lists every class that reaches it (:attr:`Launch.reached_by`, shown by ``--explain``)."""
    if len(found) < 2:
        return found
    groups: dict[tuple, list[tuple[Launch, str]]] = {}
    for launch, qual in found:
        # one launch per call and per path: a call that decides it is not a path of another call
        # whose value is unknown (``launch(x)`` and ``launch()``: fresh review of issue 35, D14)
        key = _same_key(launch) + (launch.span.key() if launch.span else None, launch.path)
        groups.setdefault(key, []).append((launch, qual))
    out = []
    for members in groups.values():
        launch, qual = members[0]
        if len(members) > 1:
            quals = tuple(q for _, q in members)
            launch = records.replace(launch, reached_by=quals)
            qual = site if site not in {q for g in groups.values() if g is not members for _, q in g} else qual
        out.append((launch, qual))
    return out

