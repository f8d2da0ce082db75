"""File access for one run: every file is read and decoded once, and the fixer can replace a file's
text in memory to re-lint it before anything is written.

While a file is linted inside :func:`recording`, every look at the file system made for it is noted
as a *dependency* (:func:`note`): the bytes of each file read (a digest), each file looked for and
missing, each read refused outside the root, each ``is_file``/``exists`` probe and folder listing. The
result cache (:mod:`linter.cache`) keeps a result only as long as every one of them still holds.
Memos that live longer than one file (a Python module's analysis) note again what they looked at
when they answer from memory (:func:`capture`, :func:`replay`).
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import json
import os
import stat
from pathlib import Path

from linter import boundary, limits
from linter.source import DecodeError, SourceFile

MAX_BYTES = limits.MAX_FILE_BYTES
"""Files larger than this are skipped with a reason (no launch file is that large)."""

# -- dependencies of the file being linted -------------------------------------------------------------

_deps: contextvars.ContextVar[list | None] = contextvars.ContextVar("lint_configs_deps", default=None)


def note(dep: tuple) -> None:
    """Record that the result being computed depends on ``dep``, a tuple of strings whose first item
    is its kind (see :func:`linter.cache.deps.holds`): ``("f", path, digest)`` a file's bytes,
    ``("m", path)`` a file looked for and missing, ``("n", path, why)`` a path that is not a readable
    text file, ``("o", path)`` a read refused outside the root, ``("i", path, "1"|"0")`` an
    ``is_file`` probe, ``("e", path, "1"|"0")`` an ``exists`` probe, ``("l", path, "1"|"0")`` an
    ``lexists`` probe (a link counts, followed or not), ``("d"|"g", folder, digest)`` a
    folder listing (:func:`listing`), ``("s", path, size)`` a file's size. Outside :func:`recording`
    (and :func:`capture`) this does nothing."""
    deps = _deps.get()
    if deps is not None:
        deps.append(dep)


def recording():
    """Record the dependencies noted inside the block (nested calls of :func:`note`): yields the list."""
    return capture(outer=False)


@contextlib.contextmanager
def capture(outer: bool = True):
    """Collect what is noted inside the block (yields the list); with ``outer``, everything noted is also
    recorded by the enclosing :func:`recording`, if any: a memo keeps the list and :func:`replay` s it
    each time it answers from memory."""
    enclosing = _deps.get() if outer else None
    inner: list = []
    token = _deps.set(inner)
    try:
        yield inner
    finally:
        _deps.reset(token)
        if enclosing is not None:
            enclosing.extend(inner)


def replay(deps) -> None:
    """Note ``deps`` again (a memo answering for a file what it looked up for another)."""
    current = _deps.get()
    if current is not None:
        current.extend(deps)


def digest(data: bytes) -> str:
    """The content digest of a file's bytes that dependencies and the cache use (BLAKE2b, 128 bits, hex)."""
    try:
        from _blake2 import blake2b  # what hashlib.blake2b is, without loading OpenSSL's constructors
    except ImportError:  # pragma: no cover - a Python built without it
        from hashlib import blake2b

    return blake2b(data, digest_size=16).hexdigest()


def is_file(path: Path | str) -> bool:
    """``os.path.isfile(path)``, noted as a dependency."""
    got = os.path.isfile(path)
    note(("i", str(path), "1" if got else "0"))
    return got


def exists(path: Path | str) -> bool:
    """``os.path.exists(path)``, noted as a dependency (a ``.git`` marking a repository's top)."""
    got = os.path.exists(path)
    note(("e", str(path), "1" if got else "0"))
    return got


def lexists(path: Path | str) -> bool:
    """``os.path.lexists(path)`` (a dangling link counts), noted as a dependency (a ``.git`` marking a
    repository's top, as :func:`linter.gitignore.find_top` looks for it)."""
    got = os.path.lexists(path)
    note(("l", str(path), "1" if got else "0"))
    return got


def listing_of(kind: str, folder: Path | str) -> list[str]:
    """A folder's listing: ``"d"`` the sorted names in it, ``"g"`` the sorted paths (relative, ``/``)
    of everything under it (pathlib's ``rglob("*")``). Raises OSError for ``"d"`` when it cannot be listed."""
    if kind == "d":
        return sorted(os.listdir(folder))
    base = Path(folder)
    return sorted(p.relative_to(base).as_posix() for p in base.rglob("*"))


def listing(kind: str, folder: Path | str) -> list[str]:
    """:func:`listing_of`, noted as a dependency (a digest of the listing, ``"error"`` when it failed)."""
    try:
        got = listing_of(kind, folder)
    except OSError:
        note((kind, str(folder), "error"))
        raise
    note((kind, str(folder), digest("\0".join(got).encode("utf-8", "surrogateescape"))))
    return got


class Workspace:
    """Reads files relative to ``cwd`` and caches them as :class:`SourceFile` objects.

    ``root`` is the run's root (:mod:`linter.boundary`): a file outside it is read only when the
    user named it (:meth:`read` with ``named=True``, or :attr:`boundary` ``.exempt``); None reads
    anywhere (a library call with no root). ``allow_outside`` is ``--allow-outside-root``."""

    def __init__(self, cwd: Path | None = None, root: Path | None = None, allow_outside: bool = False) -> None:
        self.cwd = (cwd or Path.cwd()).resolve()
        self._prefix = str(self.cwd).rstrip("/") + "/"
        self.boundary = boundary.Boundary(root, allow_outside)
        self._files: dict[Path, SourceFile] = {}
        self._names: set[str] = set()  # str() of the keys of _files: the walk asks by string
        self.read_names = self._names
        """The paths of the files read so far, as strings (the set :meth:`unread_name` asks; read only)."""
        self._missing: dict[Path, tuple] = {}
        """Files found missing in this run (the error's ``errno``, ``strerror`` and ``filename``): a launch
        asks for the same absent ``config.json``, ``.env`` or override file again and again (a workspace
        lives for one run or one editor request). Not the error itself: its traceback would keep every
        frame of the lint that raised it alive, with the file's parse tree (1 KB a file over a run)."""
        self._json: dict[Path, tuple[dict | None, tuple[str, str] | None]] = {}
        self._stats: dict[Path, os.stat_result] = {}
        self.reads: list[Path] | None = None
        """When a list, :meth:`read` appends each path it returns (cached or not): the pool
        (:mod:`linter.pool`) learns which files a unit read."""
        self.track_deps = False
        """True when a result cache is used: memos that outlive one file keep what they looked up
        (:func:`capture`) to note it again when they answer from memory."""
        self._digests: dict[Path, str] = {}
        self._json_deps: dict[Path, list] = {}
        self._unsaved: set[Path] = set()
        """Paths whose text is not the file's on disk (stdin, an editor buffer, a text the fixer made)."""

    def _digest_of(self, path: Path, source: SourceFile) -> str:
        got = self._digests.get(path)
        if got is None:  # read before recording began (or adopted): its text gives back its exact bytes
            got = self._digests[path] = digest(source.encode())
        return got

    def is_file(self, path: Path) -> bool:
        """True when ``path`` is a regular file (links followed), noted as a dependency; a path outside the
        root is refused (and reported) first, as :meth:`refuse`: False."""
        if self.refuse(path):
            return False
        return self._is_file(path)

    def _is_file(self, path: Path) -> bool:
        """:func:`is_file` (noted), answered without a ``stat`` when the path is known missing."""
        if self.boundary.known_missing(path):
            note(("i", str(path), "0"))
            return False
        return is_file(path)

    def survey(self, folder: Path) -> None:
        """Probes of several names in ``folder`` follow: list it once (:meth:`Boundary.survey
        <linter.boundary.Boundary.survey>`) so that each absent one costs no ``stat``."""
        self.boundary.survey(folder)

    def listing(self, kind: str, folder: Path) -> list[str]:
        """:func:`listing` (``"d"``: names in ``folder``; ``"g"``: everything under it), noted as a dependency."""
        return listing(kind, folder)

    def display(self, path: Path) -> str:
        """``path`` relative to the working directory with ``/`` separators (absolute if outside)."""
        name = os.fspath(path)
        if os.sep == "/" and name.startswith(self._prefix):
            # the usual case, as strings (each result from the cache asks): a plain path below the
            # working directory is its own relative path
            rest = name[len(self._prefix):]
            if rest and all(part not in ("", ".", "..") for part in rest.split("/")):
                return rest
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
        recording = _deps.get() is not None
        if cached is not None:
            if self.reads is not None:
                self.reads.append(path)
            if recording:
                if not named and not self.boundary.may_read(path):  # (a file the user named, read before)
                    note(("o", str(path)))
                if path in self._unsaved:  # a text that is not the file's: no result from it can be kept
                    note(("n", str(path), "unsaved"))
                else:
                    note(("f", str(path), self._digest_of(path, cached)))
            return cached
        if not named and not self.boundary.may_read(path):
            note(("o", str(path)))
            boundary.record(path, boundary.current_reference(), quiet)
            raise boundary.OutsideRoot(path)
        missing = self._missing.get(path)
        if missing is None and not named and self.boundary.known_missing(path):
            missing = self._missing[path] = (errno.ENOENT, os.strerror(errno.ENOENT), str(path))  # as stat says
        if missing is not None:
            note(("m", str(path)))
            raise FileNotFoundError(*missing)
        try:
            st = path.stat()
        except (FileNotFoundError, NotADirectoryError) as exc:
            note(("m", str(path)))
            self._missing[path] = (exc.errno, exc.strerror, exc.filename)
            raise
        except OSError as exc:
            note(("n", str(path), f"error {exc.errno}"))
            raise
        if not stat.S_ISREG(st.st_mode):
            note(("n", str(path), "not a regular file"))
            raise ValueError("not a regular file (a FIFO, device or folder)")
        size = st.st_size
        if size > MAX_BYTES:
            note(("n", str(path), "too large"))
            raise ValueError(f"file is {size} bytes, larger than the {MAX_BYTES} bytes lint-configs reads")
        try:
            with open(path, "rb") as fh:
                st = os.fstat(fh.fileno())  # of the file actually read (it may be replaced meanwhile)
                data = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            note(("n", str(path), f"error {exc.errno}"))
            raise
        if len(data) > MAX_BYTES:
            note(("n", str(path), "too large"))
            raise ValueError(f"file is larger than the {MAX_BYTES} bytes lint-configs reads")
        got = None
        if recording:  # before decoding: a file that is not text depends on its bytes too
            got = digest(data)
            note(("f", str(path), got))
        source = SourceFile.from_bytes(path, self.display(path), data)
        self._keep(path, source)
        if got is not None:
            self._digests[path] = got
        self._stats.setdefault(path, st)
        if self.reads is not None:
            self.reads.append(path)
        return source

    def holds(self, source: SourceFile) -> bool:
        """True when ``source`` is this workspace's text of its path (read from disk or adopted), not a
        text of its own (a rendered template) nor a text the fixer swapped in."""
        return self._files.get(source.path) is source and source.path not in self._unsaved

    def unread(self, path: Path) -> bool:
        """True when ``path`` (absolute) is not in the cache: it would be read from disk."""
        return path not in self._files

    def unread_name(self, name: str) -> bool:
        """:meth:`unread` for an absolute path given as a normalised string (no Path is made)."""
        return name not in self._names

    def _keep(self, path: Path, source: SourceFile) -> None:
        self._files[path] = source
        self._names.add(str(path))
        self._digests.pop(path, None)
        self._unsaved.discard(path)

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
        self._unsaved.add(path)
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
        note(("o", str(path)))
        boundary.record(path, boundary.current_reference(), quiet)
        return True

    def read_json(self, path: Path, quiet: bool = False) -> dict | None:
        """A JSON object from a file (a model's ``config.json``), or None when missing, invalid or
        outside the root (``quiet``: such a refusal is not a finding)."""
        path = path if path.is_absolute() else (self.cwd / path)
        if self.refuse(path, quiet):
            return None
        if path not in self._json:
            with capture() as deps:
                self._json[path] = _load_json(self, path)
            self._json_deps[path] = deps
        else:
            replay(self._json_deps.get(path, ()))
        value, too_large = self._json[path]
        if too_large is not None:
            limits.record(too_large[0], too_large[1], consequence="it is not read")
        return value

    def add(self, path: Path, text: str) -> SourceFile:
        """Put a file that is not on disk (text from stdin, an editor buffer, a test) into the cache."""
        source = SourceFile(path=path, display=self.display(path), text=text)
        self._keep(path, source)
        self._unsaved.add(path)
        return source

    def replace(self, source: SourceFile, text: str) -> SourceFile:
        """Swap in new text for a file (in memory only) and return the new :class:`SourceFile`."""
        new = SourceFile(path=source.path, display=source.display, text=text, bom=source.bom)
        self._keep(source.path, new)
        self._unsaved.add(source.path)
        return new

    def forget(self, path: Path) -> None:
        """Drop the cached text of ``path`` (it is read again on next use)."""
        self._files.pop(path, None)
        self._names.discard(str(path))
        self._missing.pop(path, None)
        self._unsaved.discard(path)


def _load_json(ws: Workspace, path: Path) -> tuple[dict | None, tuple[str, str] | None]:
    """(the JSON object in ``path`` or None, the (limit, what) it exceeded or None)."""
    if any(len(part.encode("utf-8", "surrogateescape")) > limits.MAX_PATH_COMPONENT_BYTES for part in path.parts):
        return None, None  # no such file can exist (ENAMETOOLONG)
    try:
        if not ws._is_file(path):
            return None, None
        size = path.stat().st_size
    except (OSError, ValueError):
        return None, None
    if size > limits.MAX_JSON_BYTES:
        note(("s", str(path), str(size)))
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
