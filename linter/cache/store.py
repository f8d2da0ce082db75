"""The cache folder on disk: where it is, its shards, and writing them so that no reader sees half.

Layout (``FORMAT`` 2)::

    .lint-configs_cache/
      .gitignore           "*": git never offers to commit it
      CACHEDIR.TAG         the cache directory tag (https://bford.info/cachedir/): backups skip it
      <run>/rNN.json       one folder per run setting (16 hex digits, :func:`linter.cache.run_key`):
      <run>/sNN.json       :data:`SHARDS` shards of results (``r``) and of skipped files' stats (``s``),
                           a file's entries in the shards of its folder (:func:`shard_of`)

A results shard is one JSON object ``{"lint-configs-cache": FORMAT, "run": <run key>, "results": {path:
entry}}``; a stat shard ``{"lint-configs-cache": FORMAT, "run": <run key>, "stat": {folder: {name:
signature}}}`` (:func:`linter.cache.signature`): the files the mention filter skipped on their bytes,
by folder (a walk asks once per folder, and the names are short), and under the name ``/`` the folder's
own listing with its signature (:data:`linter.cache.LISTING`). A shard of another format or run, or one that
does not read as such an object, is treated as empty, and rewritten when this run has something to
keep in it.

Writes are atomic: a shard is written to a temporary file in its folder and renamed over the old
one, so a reader sees the old shard or the new one. When the shard changed on disk since this run
read it (another run at the same time), the other run's entries are read again and kept, this
run's changes applied on top: two runs at once lose nothing but, at worst, one's newest entries,
and never break a shard. Nothing is flushed to the disk (a cache need not survive a power cut; a
shard cut short then no longer reads and is rewritten).

Size: a shard keeps at most :data:`MAX_SHARD_BYTES` (the results used longest ago go first; results
larger than :data:`MAX_ENTRY_BYTES` are not kept; a stat table that grows past it starts again), and
at most :data:`MAX_RUNS` run folders are kept (the one used longest ago goes): the folder holds at
most ``MAX_RUNS × 2 × SHARDS × MAX_SHARD_BYTES`` (1 GiB), a few MiB for a repository of ten thousand files.
"""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

try:
    from _blake2 import blake2b  # what hashlib.blake2b is, without loading OpenSSL's constructors
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

FORMAT = 3
"""The layout and entry format; a shard of another format is ignored (and rewritten)."""

DIR_NAME = ".lint-configs_cache"
"""The default cache folder's name, at the project root (ruff's ``.ruff_cache``)."""

SHARDS = 32
MAX_SHARD_BYTES = 4 << 20
MAX_ENTRY_BYTES = 256 << 10
MAX_RUNS = 4
MAX_PROJECTS = 64
"""Project folders kept in the user's cache folder (for folders no git repository holds); the ones
used longest ago go first."""
STALE_DAYS = 30
"""An entry not used for this many days is dropped the next time its shard is written."""

TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by lint-configs.\n"

_DELETED = object()


def today() -> int:
    """Days since the epoch (the unit of an entry's last use)."""
    return int(time.time() // 86400)


def shard_of(folder: str) -> int:
    """The shard holding the entries of the files in ``folder`` (an absolute path as a string): the first
    byte of its BLAKE2b digest (the library the cache hashes files with), modulo :data:`SHARDS`."""
    return blake2b(folder.encode("utf-8", "surrogateescape"), digest_size=1).digest()[0] % SHARDS


def prepare(folder: Path) -> None:
    """Make the cache folder (and its parents), with its ``.gitignore`` and ``CACHEDIR.TAG``. Raises OSError."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in ((".gitignore", "# Created by lint-configs: its result cache.\n*\n"), ("CACHEDIR.TAG", TAG)):
        p = folder / name
        if not os.path.lexists(p):
            _write_atomic(p, text.encode())


def is_cache_folder(folder: Path) -> bool:
    """True when ``folder`` is a lint-configs cache (its ``CACHEDIR.TAG`` says so): ``clean`` removes only such."""
    try:
        with open(folder / "CACHEDIR.TAG", "rb") as fh:
            return fh.read(len(TAG) + 1) == TAG.encode()
    except OSError:
        return False


def clean(folder: Path) -> bool:
    """Remove the cache folder ``folder`` when it is one (:func:`is_cache_folder`; a link is never
    followed). Returns True when something was removed."""
    if os.path.islink(folder) or not folder.is_dir() or not is_cache_folder(folder):
        return False
    import shutil

    shutil.rmtree(folder)
    return True


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _read_owned(path: Path, limit: int) -> tuple[bytes, tuple] | None:
    """The bytes of ``path`` and its (inode, size, mtime) when it is a regular file of this user no
    larger than ``limit`` (never through a link); None otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit or \
                (hasattr(os, "geteuid") and st.st_uid != os.geteuid()):
            return None
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks), (st.st_ino, st.st_size, st.st_mtime_ns)
    except OSError:
        return None
    finally:
        os.close(fd)


class Shard:
    """One shard file of ``kind`` ``"results"`` (path → entry) or ``"stat"`` (folder → {name: stat}): its
    table as read, and this run's changes (by key: a path, or a folder and a name)."""

    def __init__(self, path: Path, run: str, kind: str, unread: bool = False) -> None:
        self.path = path
        self.run = run
        self.kind = kind
        self.seen: tuple | None = None
        self.table = {} if unread else self._load()  # (``unread``: its folder is a link)
        self.changes: dict = {}

    def _load(self) -> dict:
        got = _read_owned(self.path, 4 * MAX_SHARD_BYTES)
        if got is None:
            return {}
        data, self.seen = got
        try:
            doc = json.loads(data)
            if doc.get("lint-configs-cache") != FORMAT or doc.get("run") != self.run:
                return {}
            table = doc[self.kind]
            if isinstance(table, dict) and (self.kind == "results" or
                                            all(isinstance(v, dict) for v in table.values())):
                return table
        except (ValueError, AttributeError, KeyError, TypeError, RecursionError):
            pass
        return {}  # corrupt or foreign: read as empty, rewritten when something is kept

    def set(self, key: str, value) -> None:
        """Set (or, with None, drop) the result of the file ``key``."""
        self._apply(self.table, key, value)
        self.changes[key] = _DELETED if value is None else value

    def set_stat(self, folder: str, name: str, value) -> None:
        """Set (or, with None, drop) the stat of the file ``name`` in ``folder``."""
        self._apply_stat(self.table, (folder, name), value)
        self.changes[(folder, name)] = _DELETED if value is None else value

    @staticmethod
    def _apply(table: dict, key, value) -> None:
        if value is None or value is _DELETED:
            table.pop(key, None)
        else:
            table[key] = value

    @staticmethod
    def _apply_stat(table: dict, key: tuple, value) -> None:
        folder, name = key
        if value is None or value is _DELETED:
            names = table.get(folder)
            if names is not None:
                names.pop(name, None)
                if not names:
                    del table[folder]
        else:
            table.setdefault(folder, {})[name] = value

    def flush(self, keep: set[str]) -> None:
        """Write this shard if it changed, keeping the entries of another run that wrote it meanwhile.
        Results unused for :data:`STALE_DAYS`, and those of files that are gone (unless in ``keep``,
        the paths this run looked at), are dropped, as are the stats of folders that are gone; then
        the oldest results, down to :data:`MAX_SHARD_BYTES`."""
        if not self.changes:
            return
        now = _current(self.path)
        apply = self._apply if self.kind == "results" else self._apply_stat
        if now is not None and now != self.seen:  # another run wrote it: its entries too
            self.table = self._load()
            for key, value in self.changes.items():
                apply(self.table, key, value)
        if self.kind == "results":
            day = today()
            for key in [k for k, e in self.table.items()
                        if k not in keep and (not isinstance(e, dict) or day - e.get("t", 0) > STALE_DAYS
                                              or not os.path.lexists(k))]:
                del self.table[key]
        else:
            for folder in [f for f in self.table if not os.path.isdir(f)]:
                del self.table[folder]
        data = self._dump()
        if len(data) > MAX_SHARD_BYTES:
            if self.kind == "results":
                order = sorted(self.table, key=lambda k: self.table[k].get("t", 0))
                while order and len(data) > MAX_SHARD_BYTES:
                    for key in order[:max(1, len(order) // 4)]:
                        del self.table[key]
                    order = order[max(1, len(order) // 4):]
                    data = self._dump()
            else:
                self.table = {}
                data = self._dump()
        _write_atomic(self.path, data)
        self.changes = {}

    def _dump(self) -> bytes:
        return json.dumps({"lint-configs-cache": FORMAT, "run": self.run, self.kind: self.table},
                          separators=(",", ":")).encode("utf-8", "surrogatepass")


def _current(path: Path) -> tuple | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


class Store:
    """The shards of one run setting (``run``, a hex digest) in the cache folder ``folder``."""

    def __init__(self, folder: Path, run: str, shared: bool = False) -> None:
        self.folder = folder
        self.run = run
        self.shared = shared
        """``folder`` is one project's in the user's cache folder (:data:`MAX_PROJECTS` are kept there)."""
        self.dir = folder / run[:16]
        # the run folder is this cache's own: one that is a link (to anywhere) is neither read nor
        # written through; it is replaced by a folder when this run writes
        self.linked = os.path.islink(self.dir)
        self.shards: dict[tuple[str, int], Shard] = {}
        self._of_folder: dict[tuple[str, str], Shard] = {}

    def results(self, folder: str) -> Shard:
        """The results shard of the files in ``folder`` (read on first use)."""
        return self._shard("results", folder)

    def stats(self, folder: str) -> Shard:
        """The stat shard of the files in ``folder`` (read on first use)."""
        return self._shard("stat", folder)

    def _shard(self, kind: str, folder: str) -> Shard:
        got = self._of_folder.get((kind, folder))
        if got is None:
            n = shard_of(folder)
            got = self.shards.get((kind, n))
            if got is None:
                got = self.shards[(kind, n)] = Shard(self.dir / f"{kind[0]}{n:02x}.json", self.run, kind,
                                                     unread=self.linked)
            self._of_folder[(kind, folder)] = got
        return got

    def flush(self, keep: set[str]) -> None:
        """Write the shards that changed (see :meth:`Shard.flush`); then keep at most :data:`MAX_RUNS`
        run folders. Raises OSError."""
        if not any(s.changes for s in self.shards.values()):
            return
        prepare(self.folder)
        if os.path.islink(self.dir):
            os.unlink(self.dir)
        self.dir.mkdir(exist_ok=True)
        if os.path.islink(self.dir) or not self.dir.is_dir():  # replaced meanwhile: write nothing
            raise OSError(f"{self.dir} is not a folder of the cache")
        for shard in self.shards.values():
            shard.flush(keep)
        os.utime(self.dir)  # the run folder's last use, for :func:`_prune_runs`
        _prune_runs(self.folder, keep_name=self.dir.name)
        if self.shared:
            os.utime(self.folder)
            _prune_projects(self.folder.parent, keep_name=self.folder.name)


def _prune_runs(folder: Path, keep_name: str) -> None:
    import shutil

    runs = []
    with os.scandir(folder) as it:
        for e in it:
            if e.is_dir(follow_symlinks=False) and len(e.name) == 16:
                runs.append((e.stat(follow_symlinks=False).st_mtime_ns, e.name))
    runs.sort(reverse=True)
    for _, name in runs[MAX_RUNS:]:
        if name != keep_name:
            shutil.rmtree(folder / name, ignore_errors=True)


def _prune_projects(home: Path, keep_name: str) -> None:
    projects = []
    with os.scandir(home) as it:
        for e in it:
            if e.is_dir(follow_symlinks=False) and len(e.name) == 16 and is_cache_folder(Path(e.path)):
                projects.append((e.stat(follow_symlinks=False).st_mtime_ns, e.name))
    projects.sort(reverse=True)
    for _, name in projects[MAX_PROJECTS:]:
        if name != keep_name:
            import shutil

            shutil.rmtree(home / name, ignore_errors=True)
