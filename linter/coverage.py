"""What a run checked: how many files and launches, and which launches could not be fully verified.

A launch is fully verified when the linter knows everything SGLang's checks read: the model's
architecture (or the model path skips SGLang's checks), at least one target GPU and every declared
target, and every server argument (no ``$EXTRA_ARGS`` splat, no ``--config`` file). Otherwise some
rule may have stayed silent for lack of a fact; ``--explain`` shows which.
"""

from __future__ import annotations

from linter.records import dataclass



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
    out = []
    if ctx.model.architecture is None and not ctx.model.skip_checks:
        out.append(f"the model's architecture is not known ({ctx.model.origin})")
    if ctx.has_unknown_target:
        out.append("no known target GPU" if not ctx.known_targets else "a target GPU is not known")
    if ctx.parsed.unknown_words:
        out.append("some server arguments are not known statically")
    return out


@dataclass(frozen=True)
class Coverage:
    """Counts of one run: ``files`` looked at, ``launch_files`` holding a launch, ``launches`` found,
    ``unverified`` launches with an incomplete check."""

    files: int
    launch_files: int
    launches: int
    unverified: int

    def describe(self) -> str:
        """One sentence for the summary, e.g. ``Checked 12 launches in 9 files; 2 launches could not be
        fully verified, see --explain.``, ``No SGLang launch found in 41 files.`` or ``No file linted.``"""
        if not self.files:
            return "No file linted."
        if not self.launches:
            return f"No SGLang launch found in {_n(self.files, 'file')}."
        text = f"Checked {_n(self.launches, 'launch')} in {_n(self.launch_files, 'file')}"
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
    return Coverage(files=len(results) + skipped, launch_files=len(with_launches), launches=len(contexts),
                    unverified=sum(1 for c in contexts if unverified_reasons(c)))
