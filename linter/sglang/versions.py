"""SGLang release numbers: a release's sort key and whether a string names a release.

Below the option tables (:mod:`linter.sglang.options`) and the successor table
(:mod:`linter.sglang.removals`), which both compare releases.
"""

from __future__ import annotations

import functools
import re

__all__ = ["is_release", "version_tuple"]

_RELEASE = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?$")


@functools.lru_cache(maxsize=1024)
def version_tuple(version: str) -> tuple[int, ...]:
    """``"0.5.18"`` -> ``(0, 5, 18, -1)``, ``"0.4.5.post2"`` -> ``(0, 4, 5, 2)``: a release's sort key
    (``X.Y.Z.postN`` after ``X.Y.Z``; a ``v`` prefix and anything after the first three numbers other
    than ``.postN`` are ignored)."""
    m = _RELEASE.match(version)
    if m:
        return tuple(int(x) for x in m.groups(default="-1"))
    return tuple(int(x) for x in re.findall(r"\d+", version)[:3]) + (-1,)


def is_release(version: str) -> bool:
    """True for ``X.Y.Z`` or ``X.Y.Z.postN`` (with or without a ``v``)."""
    return _RELEASE.match(version) is not None
