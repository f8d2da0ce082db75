"""The lines that say which SGLang release a run assumed, for the text report's summary.

A launch's release is *assumed* when nothing in or beside its file (nor the configuration or
``--sglang-version``) names one — then the newest table is used — or when the named release has no
option table — then the nearest older one is used (``linter.sglang.release.table_for``). A release
older than ``startup_checks_since`` (semantics.json) is checked by its parser only; that is said too.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linter.resolve import LaunchContext


def _n(count: int) -> str:
    return f"{count} launch{'es' if count != 1 else ''}"


def release_lines(contexts: Iterable[LaunchContext]) -> list[str]:
    """One line per assumption, e.g. ``SGLang release assumed: 0.5.23 (newest known) for 3 launches;
    pin it with sglang-version or an image tag``. Empty when every launch names a release with a table
    whose start-up checks are documented."""
    contexts = list(contexts)
    if not contexts:
        return []
    from linter.sglang.options import version_tuple
    from linter.sglang.release import NIGHTLY_WORDS, relation

    unpinned = Counter(c.table.version for c in contexts
                       if c.version_written is None and NIGHTLY_WORDS not in c.version_origin)
    nightly = Counter(c.table.version for c in contexts
                      if c.version_written is None and NIGHTLY_WORDS in c.version_origin)
    nearest = Counter((c.version_written, c.table.version) for c in contexts
                      if c.version_written is not None and c.version_written != c.table.version)
    lines = []
    for version, count in sorted(unpinned.items(), key=lambda kv: version_tuple(kv[0])):
        lines.append(f"SGLang release assumed: {version} (newest known) for {_n(count)}; "
                     "pin it with sglang-version or an image tag.")
    for version, count in sorted(nightly.items(), key=lambda kv: version_tuple(kv[0])):
        lines.append(f"SGLang release assumed: {version} (from a dated nightly image tag) for {_n(count)}.")
    for (written, version), count in sorted(nearest.items(), key=lambda kv: version_tuple(kv[0][0])):
        which = relation(written, version).removeprefix("the ")
        lines.append(f"SGLang release assumed: {version} ({which}) for {_n(count)} that "
                     f"name{'s' if count == 1 else ''} {written}, which has no option table.")
    old = Counter(c.table.version for c in contexts if c.parser_only_note is not None)
    notes = {c.table.version: c.parser_only_note for c in contexts}
    for version, count in sorted(old.items(), key=lambda kv: version_tuple(kv[0])):
        lines.append(f"{notes[version]} ({_n(count)}).")
    return lines


def upgrade_lines(contexts: Iterable[LaunchContext], release: str) -> list[str]:
    """``--upgrade-to``'s line for the summary: ``Judged against SGLang 0.5.23 (--upgrade-to): what breaks
    there and not under the releases the launches pin (0.5.2 for 3 launches, 0.5.23 for 1 launch).``"""
    from linter.sglang.options import version_tuple

    pinned = Counter(c.table.version for c in contexts)
    if not pinned:
        return []
    which = ", ".join(f"{v} for {_n(n)}" for v, n in sorted(pinned.items(), key=lambda kv: version_tuple(kv[0])))
    return [f"Judged against SGLang {release} (--upgrade-to): only what breaks there and not under the releases "
            f"the launches pin ({which})."]
