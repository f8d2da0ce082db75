"""Values along paths: running a statement or a launch once per undecided branch it depends on.

A :class:`~.values.Choice` holds a value per path of an ``if`` (or conditional expression, or early
``return``) whose test the analysis cannot decide. Code that reads one is run once per path it
depends on (:meth:`Paths.along_paths`, with :mod:`linter.branches`): while it runs, :meth:`Paths.pick`
gives the option of the branch taken so far, and the first time it meets a decision not taken yet it
asks for one more run per branch of it. A statement's runs are joined back into Choices of the names
they set; a launch's runs become one launch per path, each with the conditions that lead there. The
runs are bounded by ``limits.MAX_PATH_VARIANTS``: past it the statement (or launch) is run once with
every Choice unknown, as it was before paths were kept.
"""

from __future__ import annotations

from linter.branches import MISSING, explore, select
from linter.extract.python.values import Choice, Unk

_UNKNOWN_MODE = object()
"""``Paths.taken`` while a run past the limit reads every Choice as unknown."""


class Paths:
    """A mixin of :class:`~linter.extract.python.analysis.Analysis`: ``taken`` is the branch taken
    at each decision in the run under way (None outside such a run: a Choice is read as itself)."""

    taken: dict | object | None = None
    pending: tuple | None = None

    def pick(self, v):
        """``v`` on the path of the run under way: a Choice's option for the branches taken, or (when
        the Choice depends on a decision not taken yet) an unknown, after asking for that decision."""
        if not isinstance(v, Choice) or self.taken is None:
            return v
        if self.taken is _UNKNOWN_MODE:
            return Unk(None)
        value, need = select(v.options, self.taken)
        if value is not MISSING:
            return value
        if self.pending is None:
            self.pending = need
        return Unk(None)

    def along_paths(self, run):
        """``[(conds, result), ...]``: ``run()`` (a function of no arguments) once per path of the
        decisions it reads, ``conds`` the ``(decision, branch, label)`` taken on that path (empty when
        it reads none); at most ``MAX_PATH_VARIANTS`` paths, else one run with every Choice unknown."""
        saved = (self.taken, self.pending)

        def start(conds: tuple):
            self.taken, self.pending = {k: b for k, b, _ in conds}, None
            return lambda: self.pending

        try:
            runs = explore(run, start)
            if runs is None:
                self.taken, self.pending = _UNKNOWN_MODE, None
                runs = [((), run())]
            return runs
        finally:
            self.taken, self.pending = saved
