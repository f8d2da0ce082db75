"""Whether a cache folder may be used: a cache is evidence, and a pull request must not bring its own.

lint-configs runs on pull requests from people the repository's owners do not trust. A result cache
says "this file was checked and this is what was found"; one a pull request could write would let it
hide findings. So a cache folder is used (read or written) only when

- it is not a symbolic link (a link could point the writes anywhere, or the reads at files a pull
  request brought),
- it belongs to the user running lint-configs (on POSIX systems), and
- git tracks nothing in it: a cache committed to the repository came with the pull request.

Whether git tracks something under the folder is read from the repository's index (``.git/index``,
a worktree's or submodule's own), without running git: each entry's path is searched for the
folder's path followed by ``/``. An index git writes in another layout (version 4, whose paths are
prefix-compressed, or a split index) is asked of ``git ls-files`` instead; when git cannot be run
the folder counts as tracked (not used).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path


def refusal(folder: Path) -> str | None:
    """Why ``folder`` must not be used as a cache folder, or None when it may (also when it does not
    exist yet: it is then made by the caller, and checked again)."""
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"it cannot be looked at ({exc.strerror or exc})"
    if stat.S_ISLNK(st.st_mode):
        return "it is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a folder"
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        return "it belongs to another user"
    if tracked(folder):
        return "git tracks files in it (a cache that came with the repository is never used)"
    return None


def _git_top(folder: str) -> str | None:
    d = folder
    while True:
        if os.path.lexists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def _git_dir(top: str) -> str | None:
    """The git folder of the work tree at ``top`` (``.git`` itself, or where a ``.git`` file points)."""
    dot = os.path.join(top, ".git")
    if os.path.isdir(dot):
        return dot
    try:
        with open(dot, encoding="utf-8", errors="replace") as fh:
            line = fh.readline().strip()
    except OSError:
        return None
    if not line.startswith("gitdir:"):
        return None
    gitdir = line[len("gitdir:"):].strip()
    return os.path.normpath(os.path.join(top, gitdir))


def tracked(folder: Path) -> bool:
    """True when git's index holds a file under ``folder`` (an existing folder)."""
    real = os.path.realpath(folder)
    top = _git_top(os.path.dirname(real))
    if top is None:
        return False
    rel = os.path.relpath(real, top).replace(os.sep, "/")
    gitdir = _git_dir(top)
    if gitdir is None:
        return False
    index = os.path.join(gitdir, "index")
    try:
        with open(index, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return False  # no index yet: nothing is tracked
    except OSError:
        return True
    try:
        split = any(name.startswith("sharedindex.") for name in os.listdir(gitdir))
    except OSError:
        split = True
    if data[:4] != b"DIRC" or int.from_bytes(data[4:8], "big") not in (2, 3) or split:
        return _ls_files(top, rel)
    return _index_holds(data, rel.encode("utf-8", "surrogateescape") + b"/")


def _index_holds(data: bytes, prefix: bytes) -> bool:
    """True when an entry of a version 2 or 3 index starts with ``prefix``. An entry's path follows its
    16-bit flags (the low 12 bits are the path's length, 0xFFF for a longer one) and, in version 3
    with the extended flag, 16 more bits; it ends with a NUL."""
    for m in re.finditer(re.escape(prefix), data):
        at = m.start()
        for flags_at in (at - 2, at - 4):  # the flags, or the flags before the extended flags
            if flags_at < 12:
                continue
            length = int.from_bytes(data[flags_at:flags_at + 2], "big") & 0xFFF
            end = data.find(b"\0", at)
            if end < 0:
                continue
            if length == end - at or (length == 0xFFF and end - at >= 0xFFF):
                return True
    return False


def _ls_files(top: str, rel: str) -> bool:
    """Ask git whether it tracks anything under ``rel`` (True when git cannot answer)."""
    import subprocess

    try:
        out = subprocess.run(["git", "-C", top, "ls-files", "-z", "--", rel], capture_output=True, timeout=30,
                             stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return True
    return out.returncode != 0 or bool(out.stdout)
