"""The lines that say which SGLang release a run assumed, for the text report's summary.

A launch's release is *assumed* when nothing in or beside its file (nor the configuration or
``--sglang-version``) names one — then the newest table is used — or when the named release has no
option table — then the nearest older one is used (``linter.sglang.release.table_for``). A release
older than ``startup_checks_since`` (semantics.json) is checked by its parser only; that is said too.
"""

from __future__ import annotations

from collections import Counter


TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from typing import Iterable

    from linter.resolve import LaunchContext


def _n(count: int) -> str:
    return f"{count} launch{'es' if count != 1 else ''}"


def release_lines(contexts: Iterable[LaunchContext]) -> list[str]:
    """One line per assumption, e.g. ``SGLang release assumed: 0.5.23 (newest known) for 3 launches;
    pin it with sglang-version or an image tag``. Empty when every launch names a release with a table
    whose start-up checks are documented."""
    from linter.coverage import per_launch

    contexts = [group[0] for group in per_launch(contexts)]  # the paths of one launch share its release
    if not contexts:
        return []
    from linter.cache.codec import release_facts

    # (written, used, parser-only note, written as a version tuple, used as a version tuple, from a
    # nightly tag, how the used release stands to the written one) per launch: a cached launch keeps
    # them, so a report from the cache loads no option table
    facts = [release_facts(c) for c in contexts]
    order = {}
    relations = {}
    for written, version, _, vt_written, vt_version, _, rel in facts:
        order[version] = tuple(vt_version)
        if written is not None:
            order[written] = tuple(vt_written)
            relations[(written, version)] = rel
    unpinned = Counter(version for written, version, _, _, _, nightly, _ in facts if written is None and not nightly)
    nightly = Counter(version for written, version, _, _, _, night, _ in facts if written is None and night)
    nearest = Counter((written, version) for written, version, *_ in facts
                      if written is not None and written != version)
    lines = []
    for version, count in sorted(unpinned.items(), key=lambda kv: order[kv[0]]):
        lines.append(f"SGLang release assumed: {version} (newest known) for {_n(count)}; "
                     "pin it with sglang-version or an image tag.")
    for version, count in sorted(nightly.items(), key=lambda kv: order[kv[0]]):
        lines.append(f"SGLang release assumed: {version} (from a dated nightly image tag) for {_n(count)}.")
    for (written, version), count in sorted(nearest.items(), key=lambda kv: order[kv[0][0]]):
        which = relations[(written, version)].removeprefix("the ")
        lines.append(f"SGLang release assumed: {version} ({which}) for {_n(count)} that "
                     f"name{'s' if count == 1 else ''} {written}, which has no option table.")
    old = Counter(version for _, version, note, *_ in facts if note is not None)
    notes = {version: note for _, version, note, *_ in facts if note is not None}
    for version, count in sorted(old.items(), key=lambda kv: order[kv[0]]):
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
