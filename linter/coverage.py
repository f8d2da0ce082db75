"""What a run checked: how many files and launches, and which launches could not be fully verified.

A launch is fully verified when the linter knows everything SGLang's checks read: the model's
architecture (or the model path skips SGLang's checks), at least one target GPU and every declared
target, and every server argument (no ``$EXTRA_ARGS`` splat, no ``--config`` file). Otherwise some
rule may have stayed silent for lack of a fact; ``--explain`` shows which.
"""

from __future__ import annotations

from linter.records import FrozenRecord

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:  # a run with no launch never loads the resolver
    from typing import Iterable

    from linter.resolve import LaunchContext


def unverified_reasons(ctx: LaunchContext) -> list[str]:
    """Why the checks of one launch are incomplete (empty when it is fully verified). ``ctx`` may be a
    cached launch (:class:`linter.cache.codec.RecordedLaunch`), which keeps the reasons."""
    recorded = getattr(ctx, "unverified", None)
    if recorded is not None:
        return list(recorded)
    out = list(ctx.launch.not_verified)
    if ctx.model.architecture is None and not ctx.model.skip_checks:
        out.append(f"the model's architecture is not known ({ctx.model.origin})")
    if ctx.has_unknown_target:
        out.append("no known target GPU" if not ctx.known_targets else "a target GPU is not known")
    if ctx.parsed.unknown_words:
        out.append("some server arguments are not known statically")
    out += _unknown_decisions(ctx)
    return out


def _unknown_decisions(ctx: LaunchContext) -> list[str]:
    """The start-up checks' own inputs that stayed unknown although every word is there: whether
    deterministic inference is on, or, with it on, the attention backend on a declared target (a
    ``--attention-backend $1``, a value past the paths cap). Without these a launch whose checks could
    not run was counted as checked (fresh review of issue 35)."""
    if ctx.model.skip_checks or ctx.parser_only_note is not None or ctx.parsed.sglang_error() is not None:
        return []
    from linter.sglang.decision import UNKNOWN

    on, _ = ctx.deterministic()
    if on is UNKNOWN:
        return ["whether deterministic inference is on is not known"]
    if on is not True:
        return []
    gated = ("gpt_oss_backend",)  # the model's own check decides before the backend matters
    unknown = [v.label for v in ctx.target_verdicts()
               if v.backends is None and (v.startup is None or not v.startup.error)
               and not (v.gate is not None and v.gate.gate in gated) and ctx.model.architecture is not None]
    return [f"the attention backend on {label} is not known" for label in unknown]


_FRESH = object()
"""No recorded group: a launch resolved in this run."""


def launch_group(ctx) -> object:
    """What the contexts of one launch share: a launch the file builds differently along paths the
    linter cannot decide is one context per path (``Launch.path``, :mod:`linter.variants`), all at one
    place; any other context is a launch of its own (a unique key). A cached launch keeps its key."""
    recorded = getattr(ctx, "group", _FRESH)
    if recorded is not _FRESH:
        return recorded if recorded is not None else id(ctx)
    launch = ctx.launch
    if not launch.path:
        return id(ctx)
    return f"{launch.source.path}\0{launch.span.start}\0{launch.span.end}\0{launch.program}"


def per_launch(contexts: Iterable) -> list[list]:
    """``contexts`` grouped by launch (:func:`launch_group`), in order of first appearance."""
    groups: dict = {}
    for c in contexts:
        groups.setdefault(launch_group(c), []).append(c)
    return list(groups.values())


class Coverage(FrozenRecord):
    """Counts of one run: ``files`` looked at, ``launch_files`` holding a launch, ``launches`` found
    (the paths of one launch counted once), ``unverified`` launches with an incomplete check on some
    path, ``paths`` the contexts checked (a launch built along several paths has one per path)."""

    files: int
    launch_files: int
    launches: int
    unverified: int
    paths: int
    _fields = ("files", "launch_files", "launches", "unverified", "paths")

    def __init__(self, files: int, launch_files: int, launches: int, unverified: int, paths: int | None = None) -> None:
        self.__dict__.update(files=files, launch_files=launch_files, launches=launches, unverified=unverified,
                             paths=launches if paths is None else paths)

    def describe(self) -> str:
        """One sentence for the summary, e.g. ``Checked 12 launches (15 paths) in 9 files; 2 launches
        could not be fully verified, see --explain.``, ``No SGLang launch found in 41 files.`` or ``No
        file linted.``"""
        if not self.files:
            return "No file linted."
        if not self.launches:
            return f"No SGLang launch found in {_n(self.files, 'file')}."
        text = f"Checked {_n(self.launches, 'launch')}"
        if self.paths != self.launches:
            text += f" ({_n(self.paths, 'path')})"
        text += f" in {_n(self.launch_files, 'file')}"
        if self.unverified:
            text += (f"; {_n(self.unverified, 'launch')} could not be fully verified, see --explain")
        return text + "."


def _n(count: int, word: str) -> str:
    plural = word + ("es" if word.endswith("ch") else "s")
    return f"{count} {word if count == 1 else plural}"


def measure(results: Iterable, skipped: int = 0) -> Coverage:
    """The coverage of a run from its :class:`linter.engine.FileResult` objects, plus ``skipped`` files
    the mention filter skipped whose results were not kept."""
    results = list(results)
    with_launches = [r for r in results if r.contexts]
    contexts = [c for r in with_launches for c in r.contexts]
    launches = per_launch(contexts)
    return Coverage(files=len(results) + skipped, launch_files=len(with_launches), launches=len(launches),
                    unverified=sum(1 for group in launches if any(unverified_reasons(c) for c in group)),
                    paths=len(contexts))
