"""Values along paths: running a statement or a launch once per undecided branch it depends on.

A :class:`~.values.Choice` holds a value per path of an ``if`` (or conditional expression, or early
``return``) whose test the analysis cannot decide. Code that reads one is run once per path it
depends on (:meth:`Paths.along_paths`): while it runs, :meth:`Paths.pick` gives the option of the
branch taken so far, and the first time it meets a decision not taken yet it asks for one more run
per branch of it. A statement's runs are joined back into Choices of the names they set; a launch's
runs become one launch per path, each with the conditions that lead there. The runs are bounded by
``limits.MAX_PATH_VARIANTS``: past it the statement (or launch) is run once with every Choice
unknown, as it was before paths were kept.
"""

from __future__ import annotations

from linter import limits
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
        if not isinstance(v, Choice):
            return v
        taken = self.taken
        if taken is None:
            return v
        if taken is _UNKNOWN_MODE:
            return Unk(None)
        for conds, value in v.options:
            if all(taken.get(k, -1) == b for k, b, _ in conds):
                return value
        if self.pending is None:
            for conds, _ in v.options:
                if all(taken.get(k, b) == b for k, b, _ in conds):
                    for k, _, _ in conds:
                        if k not in taken:
                            branches = []
                            for c2, _ in v.options:
                                for k2, b2, label in c2:
                                    if k2 == k and all(b2 != x for x, _ in branches):
                                        branches.append((b2, label))
                            self.pending = (k, branches)
                            return Unk(None)
        return Unk(None)

    def along_paths(self, run):
        """``[(conds, result), ...]``: ``run()`` (a function of no arguments) once per path of the
        decisions it reads, ``conds`` the ``(decision, branch, label)`` taken on that path (empty when
        it reads none); at most ``MAX_PATH_VARIANTS`` paths, else one run with every Choice unknown."""
        saved = (self.taken, self.pending)
        try:
            done: list = []
            todo: list = [()]
            while todo:
                conds = todo.pop()
                self.taken = {k: b for k, b, _ in conds}
                self.pending = None
                result = run()
                if self.pending is None:
                    done.append((conds, result))
                    continue
                key, branches = self.pending
                if len(done) + len(todo) + len(branches) > limits.MAX_PATH_VARIANTS:
                    self.taken, self.pending = _UNKNOWN_MODE, None
                    return [((), run())]
                todo.extend(conds + ((key, b, label),) for b, label in reversed(branches))
            return done
        finally:
            self.taken, self.pending = saved


def describe(conds) -> str:
    """The path ``conds`` leads along, in words: "when `args.x` is true and `mode` is 'debug'"."""
    return "when " + " and ".join(label for _, _, label in conds)
