"""File access for one run: every file is read and decoded once, and the fixer can replace a file's
text in memory to re-lint it before anything is written."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from linter import boundary, limits
from linter.source import DecodeError, SourceFile

MAX_BYTES = limits.MAX_FILE_BYTES
"""Files larger than this are skipped with a reason (no launch file is that large)."""


class Workspace:
    """Reads files relative to ``cwd`` and caches them as :class:`SourceFile` objects.

    ``root`` is the run's root (:mod:`linter.boundary`): a file outside it is read only when the
    user named it (:meth:`read` with ``named=True``, or :attr:`boundary` ``.exempt``); None reads
    anywhere (a library call with no root). ``allow_outside`` is ``--allow-outside-root``."""

    def __init__(self, cwd: Path | None = None, root: Path | None = None, allow_outside: bool = False) -> None:
        self.cwd = (cwd or Path.cwd()).resolve()
        self.boundary = boundary.Boundary(root, allow_outside)
        self._files: dict[Path, SourceFile] = {}
        self._names: set[str] = set()  # str() of the keys of _files: the walk asks by string
        self._missing: dict[Path, OSError] = {}
        """Files found missing in this run: a launch asks for the same absent ``config.json``, ``.env`` or
        override file again and again (a workspace lives for one run or one editor request)."""
        self._json: dict[Path, tuple[dict | None, tuple[str, str] | None]] = {}
        self._stats: dict[Path, os.stat_result] = {}
        self.reads: list[Path] | None = None
        """When a list, :meth:`read` appends each path it returns (cached or not): the pool
        (:mod:`linter.pool`) learns which files a unit read."""

    def display(self, path: Path) -> str:
        """``path`` relative to the working directory with ``/`` separators (absolute if outside)."""
        try:
            return Path(os.path.relpath(path, self.cwd)).as_posix() if _is_under(path, self.cwd) else path.as_posix()
        except ValueError:  # pragma: no cover - other drive on Windows
            return path.as_posix()

    def read(self, path: Path, *, named: bool = False, quiet: bool = False) -> SourceFile:
        """The decoded file. Raises OSError (unreadable; :class:`~linter.boundary.OutsideRoot` when
        ``path`` lies outside the root and was not named by the user), DecodeError (not UTF-8 text)
        or ValueError (too large).

        ``named``: the file is one the run lints (named on the command line or found by the walk,
        which never leaves the root through a link): no root check. A refused read is recorded for
        an SGL005 finding on the linted file (at the reference :func:`linter.boundary.referenced_at`
        names), unless ``quiet``."""
        path = path.resolve() if not path.is_absolute() else path
        cached = self._files.get(path)
        if cached is not None:
            if self.reads is not None:
                self.reads.append(path)
            return cached
        if not named and not self.boundary.may_read(path):
            boundary.record(path, boundary.current_reference(), quiet)
            raise boundary.OutsideRoot(path)
        missing = self._missing.get(path)
        if missing is not None:
            raise FileNotFoundError(missing.errno, missing.strerror, missing.filename)
        try:
            st = path.stat()
        except (FileNotFoundError, NotADirectoryError) as exc:
            self._missing[path] = exc
            raise
        if not stat.S_ISREG(st.st_mode):
            raise ValueError("not a regular file (a FIFO, device or folder)")
        size = st.st_size
        if size > MAX_BYTES:
            raise ValueError(f"file is {size} bytes, larger than the {MAX_BYTES} bytes lint-configs reads")
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())  # of the file actually read (it may be replaced meanwhile)
            data = fh.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise ValueError(f"file is larger than the {MAX_BYTES} bytes lint-configs reads")
        source = SourceFile.from_bytes(path, self.display(path), data)
        self._keep(path, source)
        self._stats.setdefault(path, st)
        if self.reads is not None:
            self.reads.append(path)
        return source

    def unread(self, path: Path) -> bool:
        """True when ``path`` (absolute) is not in the cache: it would be read from disk."""
        return path not in self._files

    def unread_name(self, name: str) -> bool:
        """:meth:`unread` for an absolute path given as a normalised string (no Path is made)."""
        return name not in self._names

    def _keep(self, path: Path, source: SourceFile) -> None:
        self._files[path] = source
        self._names.add(str(path))

    def adopt(self, source: SourceFile, read_stat: os.stat_result | None) -> SourceFile:
        """Cache ``source``, read by another process of this run (a pool worker) with ``read_stat`` its
        ``os.stat`` then, unless the file is cached already; returns the cached :class:`SourceFile`."""
        cached = self._files.get(source.path)
        if cached is None:
            cached = source
            self._keep(source.path, source)
        if read_stat is not None:
            self._stats.setdefault(source.path, read_stat)
        return cached

    def stat_when_read(self, path: Path) -> os.stat_result | None:
        """The ``os.stat`` of ``path`` when it was first read in this run (None if never read): the
        fixer writes only over the same inode with the same bytes."""
        return self._stats.get(path)

    def add_unsaved(self, path: Path, data: bytes) -> SourceFile:
        """Lint ``data`` as the text of ``path`` (stdin with ``--stdin-filename``, an editor's buffer):
        ``path`` need not exist; the files beside it are still read from disk. Raises DecodeError."""
        path = path if path.is_absolute() else self.cwd / path
        path = Path(os.path.normpath(path))
        source = SourceFile.from_bytes(path, self.display(path), data)
        self._keep(path, source)
        return source

    def try_read(self, path: Path, *, named: bool = False, quiet: bool = False) -> SourceFile | None:
        """:meth:`read`, or None when the file cannot be read for any reason (outside the root included)."""
        try:
            return self.read(path, named=named, quiet=quiet)
        except (OSError, ValueError, DecodeError):
            return None

    def may_read(self, path: Path) -> bool:
        """True when :meth:`read` would not refuse ``path`` for lying outside the root (no file is read
        or looked at beyond resolving links): ask before probing whether a referenced file exists."""
        return str(path) in self._names or self.boundary.may_read(path)

    def refuse(self, path: Path, quiet: bool = False) -> bool:
        """True (and the refusal recorded, unless ``quiet``) when ``path`` lies outside the root: a
        reader calls it before it looks at a referenced file at all (exists, is_file, listdir)."""
        if self.may_read(path):
            return False
        boundary.record(path, boundary.current_reference(), quiet)
        return True

    def read_json(self, path: Path, quiet: bool = False) -> dict | None:
        """A JSON object from a file (a model's ``config.json``), or None when missing, invalid or
        outside the root (``quiet``: such a refusal is not a finding)."""
        path = path if path.is_absolute() else (self.cwd / path)
        if self.refuse(path, quiet):
            return None
        if path not in self._json:
            self._json[path] = _load_json(self, path)
        value, too_large = self._json[path]
        if too_large is not None:
            limits.record(too_large[0], too_large[1], consequence="it is not read")
        return value

    def add(self, path: Path, text: str) -> SourceFile:
        """Put a file that is not on disk (text from stdin, an editor buffer, a test) into the cache."""
        source = SourceFile(path=path, display=self.display(path), text=text)
        self._keep(path, source)
        return source

    def replace(self, source: SourceFile, text: str) -> SourceFile:
        """Swap in new text for a file (in memory only) and return the new :class:`SourceFile`."""
        new = SourceFile(path=source.path, display=source.display, text=text, bom=source.bom)
        self._keep(source.path, new)
        return new

    def forget(self, path: Path) -> None:
        """Drop the cached text of ``path`` (it is read again on next use)."""
        self._files.pop(path, None)
        self._names.discard(str(path))
        self._missing.pop(path, None)


def _load_json(ws: Workspace, path: Path) -> tuple[dict | None, tuple[str, str] | None]:
    """(the JSON object in ``path`` or None, the (limit, what) it exceeded or None)."""
    if any(len(part.encode("utf-8", "surrogateescape")) > limits.MAX_PATH_COMPONENT_BYTES for part in path.parts):
        return None, None  # no such file can exist (ENAMETOOLONG)
    try:
        if not path.is_file():
            return None, None
        size = path.stat().st_size
    except (OSError, ValueError):
        return None, None
    if size > limits.MAX_JSON_BYTES:
        return None, ("MAX_JSON_BYTES", f"{ws.display(path)} of {size:,} bytes")
    source = ws.try_read(path)
    if source is None:
        return None, None
    if not limits.json_depth_ok(source.text):
        return None, ("MAX_JSON_DEPTH", f"the nesting of {ws.display(path)}")
    try:
        value = json.loads(source.text)
    except (ValueError, RecursionError):
        value = None
    return (value if isinstance(value, dict) else None), None


def _is_under(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False
