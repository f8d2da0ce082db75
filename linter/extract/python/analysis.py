"""The analysis of one module: its parts wired together, and the loop over its calls.

:class:`Analysis` is the interpretation (:class:`~.interpret.Interpreter`,
:class:`~.statements.Statements`, :class:`~.frames.FrameLookups`) and the evaluation
(:class:`~.evaluate.Evaluator`) of the module — mixins, because statements and expressions call each
other and share the frame caches — plus two parts it owns: :class:`~.launches.LaunchFinder` (which
calls are launches) and :class:`~.modal.ModalDecls` (Modal GPUs and images). The module's structure
(scopes, calls, names bound) is a :class:`~.scopes.ModuleIndex`.
"""

from __future__ import annotations

from linter.extract.python.evaluate import Evaluator
from linter.extract.python.frames import Frame, FrameLookups
from linter.extract.python.interpret import Interpreter
from linter.extract.python.launches import LaunchFinder
from linter.extract.python.modal import ModalDecls
from linter.extract.python.scopes import ModuleIndex
from linter.extract.python.statements import Statements
from linter.launch import Extraction
from linter.source import SourceFile, Span


class Analysis(Interpreter, Statements, FrameLookups, Evaluator):
    """One parsed module (``module``, a libcst Module; ``positions`` its PositionProvider metadata);
    :meth:`run` appends its launches to ``result``."""

    def __init__(self, cst, source: SourceFile, module, positions, result: Extraction) -> None:
        self.cst = cst
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
        self._loop_memo: dict[int, list] = {}  # loop id -> [(frame before it, frame at a round's start)]
        self._loop_nesting = 0
        self.index = ModuleIndex(cst, module)
        self.finder = LaunchFinder(self)
        self.modal = ModalDecls(self)

    # positions

    def offsets(self, node) -> tuple[int, int]:
        """(start, end) character offsets of a libcst node in the source."""
        got = self._offset_cache.get(id(node))
        if got is None:
            r = self.positions[node]
            got = (self.source.offset(r.start.line, r.start.column + 1), self.source.offset(r.end.line, r.end.column + 1))
            self._offset_cache[id(node)] = got
        return got

    def span(self, node) -> Span:
        """The node's span in the source."""
        s, e = self.offsets(node)
        return Span(self.source, s, e)

    def contains(self, node, offset: int) -> bool:
        """The node's text holds the character at ``offset``."""
        s, e = self.offsets(node)
        return s <= offset < e

    # driver

    def run(self) -> None:
        """Find the launches of every call in source order; each gets its key (scope, then #k), its
        Modal GPUs and its image."""
        self.modal.declare()
        counters: dict[str, int] = {}
        for call, scope in self.index.calls:
            for launch in self.finder.launches(call, scope):
                k = counters.get(scope.qual, 0)
                counters[scope.qual] = k + 1
                launch.key = scope.qual if k == 0 else f"{scope.qual}#{k}"
                launch.gpu_decls = self.modal.decls_for(scope)
                if launch.image is None:
                    launch.image = self.modal.image_for(scope)
                self.result.launches.append(launch)
