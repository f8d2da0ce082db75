"""Wrapper entrypoint scripts that pass their arguments through (issue 35, bullet 4).

Container images often start with a script of the repository — compose ``entrypoint:
["/app/entrypoint.sh"]``, a Kubernetes ``command: ["./entrypoint.sh"]``, a Dockerfile ``ENTRYPOINT
["/entrypoint.sh"]`` — that prepares the environment and ends in ``exec "$@"``: the container's
command (compose ``command:``, Kubernetes ``args:``, the Dockerfile's ``CMD``) is what runs, with
the variables the script exports. Such a script is found on the host (a path relative to the file
that names it, or through the bind mounts / ``COPY`` instructions that put it in the container) and
read as text through the workspace, so a script outside the run's root is never read
(:mod:`linter.boundary`); it is never run. Only its last command and its top-level ``export NAME=VALUE``
lines count. The one implementation for compose, Kubernetes and Dockerfiles.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from linter.launch import MStr
from linter.source import SourceFile

_LAST = re.compile(r'(?:exec\s+)?"\$(?:@|\{@\})"')
"""The last command of a script that passes its arguments through: ``exec "$@"``, ``exec "${@}"``
or ``"$@"``."""

_EXPORT = re.compile(r"^export[ \t]+(?P<name>[A-Za-z_][A-Za-z0-9_]*)=(?:'(?P<sq>[^'\n]*)'|\"(?P<dq>[^\"$`\\\n]*)\""
                     r"|(?P<bare>[^\s'\"$`\\;&|<>()]*))[ \t]*(?:#.*)?$", re.MULTILINE)
"""A top-level ``export NAME=VALUE`` line whose value is plain text (no expansion, no escape)."""

_SHELLS = {"sh", "bash", "dash", "/bin/sh", "/bin/bash", "/usr/bin/env"}


@dataclass(frozen=True)
class Wrapper:
    """A wrapper script found at the start of an entrypoint: ``taken`` words (the script and a shell
    before it) to drop, ``env`` the variables it exports (name -> value with its origin in the
    script), ``source`` the script (a file the launch depends on)."""

    taken: int
    source: SourceFile
    env: dict[str, MStr] = field(default_factory=dict)


def passes_through(text: str) -> bool:
    """The script ``text`` ends (its last line that is not blank or a comment) in ``exec "$@"``."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        return _LAST.fullmatch(line.rstrip(";").strip()) is not None
    return False


def exported(source: SourceFile) -> dict[str, MStr]:
    """The plain values of the script's top-level ``export NAME=VALUE`` lines (the last one wins)."""
    out: dict[str, MStr] = {}
    for m in _EXPORT.finditer(source.text):
        group = next(g for g in ("sq", "dq", "bare") if m.group(g) is not None)
        out[m.group("name")] = MStr.literal(source, m.start(group), m.end(group))
    return out


def wrapper_script(words: list[str | None], folder: Path, ws, mounts: tuple = ()) -> Wrapper | None:
    """When ``words`` (an entrypoint's words, None where unknown) start with a script of the repository
    that passes its arguments through (``./entrypoint.sh``, ``bash /app/entrypoint.sh`` with ``/app``
    mounted or copied from the repository), that script; None otherwise. ``folder`` is the naming
    file's folder; ``mounts`` its ``(container path, host path)`` pairs; ``ws`` the run's
    :class:`~linter.workspace.Workspace` (None: nothing is read), which refuses a script outside the
    root."""
    i = 1 if words and words[0] in _SHELLS and len(words) > 1 else 0
    if not words or words[i] is None or ws is None:
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
    source = ws.try_read(path, quiet=True)
    if source is None or not passes_through(source.text):
        return None
    return Wrapper(i + 1, source, exported(source))
