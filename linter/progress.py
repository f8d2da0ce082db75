"""A progress bar for long runs, on a terminal only.

A run that lints a large tree for more than :data:`AFTER` seconds shows, on standard error, how many
files it has looked at and how many launches it found (rich's progress display, redrawn at most ten
times a second and removed when the run ends). Never when standard error is not a terminal (a pipe, a
file, a CI log), when ``CI`` is set (GitHub Actions, GitLab CI and the others set it) or ``TERM`` is
``dumb``, with ``--quiet``/``--silent``, or for machine-readable output (JSON, SARIF, GitHub, GitLab,
CSV): nothing but the report is ever printed there. rich is imported only when the bar appears, and
it draws from this process's thread (no refresh thread: the pool forks workers).
"""

from __future__ import annotations

import os
import sys
import time

AFTER = 1.0
"""Seconds a run goes on before the bar appears."""

_EVERY = 0.1
"""Seconds between two redraws."""

HUMAN_FORMATS = ("text", "full", "concise")


def wanted(stream, fmt: str, quiet: bool, environ=os.environ) -> bool:
    """True when a run printing ``fmt`` (``quiet``: with ``--quiet``/``--silent``) may show a bar on ``stream``."""
    if quiet or fmt not in HUMAN_FORMATS or environ.get("CI") or environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """Counts a run's files and launches; shows them on ``stream`` once the run is :data:`AFTER` seconds
    old (``clock``: seconds, for tests). :meth:`close` removes the bar."""

    def __init__(self, stream, clock=time.monotonic) -> None:
        self.stream = stream
        self.clock = clock
        self.began = clock()
        self.drawn = self.began
        self.files = 0
        """Files looked at (shown)."""
        self.counted = 0
        """Files :meth:`add` was told of."""
        self.launches = 0
        self.bar = None
        self.task = None

    def add(self, launches: int = 0) -> None:
        """One more file looked at, holding ``launches`` launches."""
        self.files += 1
        self.counted += 1
        self.launches += launches
        if self.counted % 16 and self.bar is None:
            return  # (asking the clock for every file of a large tree costs more than the count)
        now = self.clock()
        if self.bar is None:
            if now - self.began < AFTER:
                return
            self._show()
            self.drawn = now
            self._draw()  # (with its counts at once: a run may end before the next redraw is due)
            return
        if now - self.drawn >= _EVERY:
            self.drawn = now
            self._draw()

    def _show(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress as Bar, SpinnerColumn, TextColumn, TimeElapsedColumn

        console = Console(file=self.stream, force_terminal=True)
        self.bar = Bar(SpinnerColumn(), TextColumn("Linting"), BarColumn(), TextColumn("{task.description}"),
                       TimeElapsedColumn(), console=console, transient=True, auto_refresh=False,
                       redirect_stdout=False, redirect_stderr=True)  # (warnings go above the bar)
        self.task = self.bar.add_task("", total=None)
        self.bar.start()

    def _draw(self) -> None:
        s = "es" if self.launches != 1 else ""
        self.bar.update(self.task, completed=self.files,
                        description=f"{self.files:,} files, {self.launches:,} launch{s}")
        self.bar.refresh()

    def close(self) -> None:
        """Remove the bar (if it was shown); the report comes next."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def shown(pairs, args, quiet: bool, walked=None):
    """The ``(candidate, result)`` pairs of a lint run, counted by a :class:`Progress` on standard error
    when the run's output allows one (:func:`wanted`; never for ``--explain``, ``--list-launches`` or
    ``--show-files``); the bar is removed when the pairs end or the run stops. ``walked``: the walk's
    :class:`~linter.discover.WalkReport`, whose ``known`` files (passed over with no pair) count too."""
    fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    if args.explain or args.list_launches or args.show_files or not wanted(sys.stderr, fmt, quiet):
        yield from pairs
        return
    progress = Progress(sys.stderr)
    try:
        for cand, res in pairs:
            if walked is not None:
                progress.files = progress.counted + walked.known
            progress.add(len(res.contexts) if res is not None else 0)
            yield cand, res
    finally:
        progress.close()
