"""What the parts of a module's analysis read from it: the :class:`Analysed` protocol.

The assembled :class:`~linter.extract.python.analysis.Analysis` is built from mixins
(:class:`~.interpret.Interpreter`, :class:`~.statements.Statements`, :class:`~.frames.FrameLookups`,
:class:`~.evaluate.Evaluator`, :class:`~.paths.Paths`) and owns parts (:class:`~.frames.Frame`,
:class:`~.launches.LaunchFinder`, :class:`~.modal.ModalDecls`, :class:`~.modules.Resolver`,
:func:`~.ci.ci_declarations`). The parts are handed the analysis and type it with this protocol, so
that they never import the assembled class: ``analysis`` imports its parts, never the reverse, and
the Python format's modules form no import cycle (``scripts/import_graph.py``).

A frame is typed ``Any`` here: :mod:`.frames` reads this protocol, so this module cannot name its
:class:`~.frames.Frame` without a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from linter.extract.python.positions import Positions
    from linter.extract.python.scopes import ModuleIndex, Scope
    from linter.extract.python.syntax import Token
    from linter.extract.python.values import FuncV, Value
    from linter.launch import Extraction
    from linter.source import SourceFile, Span
    from linter.workspace import Workspace


class Analysed(Protocol):
    """One analysed module as its parts see it (the attributes and methods of
    :class:`~linter.extract.python.analysis.Analysis` they use)."""

    source: SourceFile
    """The module's file."""
    module: ast.Module
    index: ModuleIndex
    """Its scopes, calls and bound names."""
    result: Extraction
    """Where :meth:`~linter.extract.python.analysis.Analysis.run` puts its launches and problems."""
    taken: dict | object | None
    """The branch taken so far on the path under way (:class:`~.paths.Paths`)."""
    resolver: Any
    """Its :class:`~.modules.Resolver` of imported names (None: the file alone)."""

    def offsets(self, node: ast.AST) -> tuple[int, int]:
        """(start, end) character offsets of ``node`` in the source."""
        ...

    def span(self, node: ast.AST) -> Span:
        """``node``'s span in the source."""
        ...

    def keyword_span(self, arg: Any) -> Span:
        """The name of a keyword argument (an :class:`~.syntax.Arg`)."""
        ...

    def name_span(self, node: ast.AST) -> Span:
        """The name of a ``def`` or ``class`` statement."""
        ...

    def method_class(self, scope: Scope) -> Scope | None:
        """The class of which ``scope`` is a method taking ``self``/``cls``, or None."""
        ...

    def ev(self, node: ast.AST, frame: Any) -> Value:
        """The value of expression ``node`` in ``frame`` (a :class:`~.frames.Frame`)."""
        ...

    def return_value(self, fv: FuncV, where: Span | None) -> Value:
        """What calling function ``fv`` returns."""
        ...

    def is_splat(self, token: Token) -> bool:
        """``token`` is a ``*args`` spread of unknown length."""
        ...

    def module_final(self) -> Any:
        """The module's frame at its end."""
        ...

    def final_frame(self, scope: Scope) -> Any:
        """``scope``'s frame at its end."""
        ...

    def frame_before(self, scope: Scope, offset: int, self_class: Scope | None = None) -> Any:
        """``scope``'s frame just before character ``offset``."""
        ...

    def outer_lookup(self, scope: Scope | None, name: str, where: Span | None, reader: Scope | None = None) -> Any:
        """``name`` looked up in ``scope`` and the scopes around it."""
        ...

    def class_attr(self, cls: Scope, name: str, where: Span | None, virtual: bool) -> Any:
        """Attribute ``name`` of class ``cls`` through its bases."""
        ...

    def bases(self, cls: Scope) -> list[Scope]:
        """The classes ``cls`` names as its bases, where they are known."""
        ...

    def pick(self, v: Any) -> Any:
        """``v`` on the path of the run under way (:class:`~.paths.Paths`)."""
        ...

    def along_paths(self, run: Callable) -> Any:
        """``run`` once per path through the decisions it reads (:class:`~.paths.Paths`)."""
        ...


Analyse = Callable[["SourceFile", ast.Module, "Positions", "Extraction", "Workspace", int], Analysed]
"""Builds the analysis of another module of the repository: (its file, its parsed module, its
positions, where its launches go, the run's workspace, its depth in the chain of imports) -> the
analysis. :class:`~.modules.Resolver` is handed the assembled class as this."""
