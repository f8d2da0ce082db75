"""Wrapper entrypoint scripts that pass their arguments through (issue 35, bullet 4).

Container images often start with a script of the repository — ``entrypoint: ["/app/entrypoint.sh"]``
— that prepares the environment and ends in ``exec "$@"``: the container's command is what runs. Such
a script is found on the host (a path relative to the compose file, or through the service's bind
mounts) and read as text through the run's :class:`~linter.workspace.Workspace` (the run's root
applies, and a cached result depends on the script); it is never run. Only its last command counts.
"""

from __future__ import annotations

import re
from pathlib import Path

from linter import limits

_LAST = re.compile(r'(?:exec\s+)?"\$(?:@|\{@\})"')
"""The last command of a script that passes its arguments through: ``exec "$@"``, ``exec "${@}"``
or ``"$@"``."""

_SHELLS = {"sh", "bash", "dash", "/bin/sh", "/bin/bash", "/usr/bin/env"}


def passes_through(text: str) -> bool:
    """The script ``text`` ends (its last line that is not blank or a comment) in ``exec "$@"``."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        return _LAST.fullmatch(line.rstrip(";").strip()) is not None
    return False


def script_args(words: list[str | None], folder: Path, mounts: tuple = (), ws=None) -> int | None:
    """When ``words`` (an entrypoint's words, None where unknown) start with a script of the repository
    that passes its arguments through (``./entrypoint.sh``, ``bash /app/entrypoint.sh`` with ``/app``
    mounted from the repository), the number of words it takes (the script and a shell before it);
    None otherwise. ``folder`` is the compose file's folder; ``mounts`` its ``(container, host)`` pairs;
    ``ws`` the run's :class:`~linter.workspace.Workspace` (None: read directly, no root)."""
    i = 1 if words and words[0] in _SHELLS and len(words) > 1 else 0
    if not words or words[i] is None:
        return None
    name = words[i]
    path = None
    if name.startswith("/"):
        for dst, src in sorted(mounts, key=lambda m: -len(m[0])):
            if name == dst or name.startswith(dst.rstrip("/") + "/"):
                path = Path(src) / name[len(dst):].lstrip("/")
                break
    else:
        path = folder / name
    if path is None:
        return None
    if ws is not None:  # (a script outside the root is not read: quietly, the launch is read as written)
        source = ws.try_read(path, quiet=True)
        return i + 1 if source is not None and passes_through(source.text) else None
    try:
        if not path.is_file() or path.stat().st_size > limits.MAX_FILE_BYTES:
            return None
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return i + 1 if passes_through(text) else None
