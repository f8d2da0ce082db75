"""Whether what a cached result depended on still holds.

A result is kept with every dependency noted while its file was linted (:func:`linter.workspace.note`):
each is checked again before the result is used, with the same question the linter asked (a file's
bytes, a probe, a listing), so a changed, created or deleted file — a ``.env``, a compose base or
override, a ``--config`` YAML, a chart's values and helpers, an imported module, a model's
``config.json`` — makes the result stale. Reading the files is left to the caller (it keeps their
bytes for the run); this module answers for the other kinds.
"""

from __future__ import annotations

import os
import stat

from linter.workspace import MAX_BYTES, digest, listing_of


def holds(dep: list, may_read) -> bool:
    """True when the dependency ``dep`` (a list as :func:`linter.workspace.note` describes it, other
    than ``"f"``) is as it was; ``may_read(path)`` is the run's root check. An unknown kind does not hold."""
    kind, path = dep[0], dep[1]
    if kind == "m":  # still nothing there (not even a link, which could lead out of the root)
        try:
            os.lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            return True
        except OSError:
            return False
        return False
    if kind == "o":
        return not may_read(path)
    if kind == "i":
        return os.path.isfile(path) == (dep[2] == "1")
    if kind == "e":
        return os.path.exists(path) == (dep[2] == "1")
    if kind == "l":
        return os.path.lexists(path) == (dep[2] == "1")
    if kind in ("d", "g"):
        try:
            names = listing_of(kind, path)
        except OSError:
            return dep[2] == "error"
        return dep[2] == digest("\0".join(names).encode("utf-8", "surrogateescape"))
    if kind == "s":
        try:
            return os.stat(path).st_size == int(dep[2])
        except (OSError, ValueError):
            return False
    if kind == "n":
        return why_unreadable(path) == dep[2]
    return False


def why_unreadable(path: str) -> str | None:
    """What :meth:`linter.workspace.Workspace.read` notes for a path it cannot read as text
    (``not a regular file``, ``too large``, ``error N``), or None when it is a regular file it would read."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return "missing"
    except OSError as exc:
        return f"error {exc.errno}"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if st.st_size > MAX_BYTES:
        return "too large"
    if not os.access(path, os.R_OK):
        return "error 13"
    return None
