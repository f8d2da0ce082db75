"""The result cache: a file linted before, unchanged, with nothing it read changed, is not linted again.

As ruff's cache, kept per file: the findings (with their fixes, notes and labels) and what the run
needs of its launches (:mod:`linter.cache.codec`), under

- the **run**: lint-configs' version and the digest of its installed files (an edited or reinstalled
  copy never reads another's results), the Python release, the working folder, the root and
  ``--allow-outside-root`` (and the folders named outside it), and the command line's selection,
  ``--preview``, ``--target-gpu``, ``--sglang-version`` and ``--no-ignores`` (:func:`run_key`; one
  folder of shards each);
- the **settings for the file**: the resolved configuration of the file and of every file it read
  (a finding in a compose ``.env`` follows the ``.env``'s settings);
- the **file's bytes** (a BLAKE2b digest);
- **every file the result read**, and everything else it looked at: the bytes of each, each file
  looked for and missing (a created override makes the result stale), each read refused outside the
  root, each probe and folder listing (:mod:`linter.workspace`, :mod:`linter.cache.deps`).

Whether a file is unchanged is asked of its metadata first, as ruff does: its **stat signature**
(size, modification and change times in nanoseconds, inode: :func:`signature`). The change time
cannot be set by a user (``touch`` and ``os.utime`` set it to now), so a file rewritten with its
modification time put back is still seen (on POSIX systems: Windows' ``st_ctime`` is the creation
time, so there an edit that keeps the size and puts the modification time back is seen only once the
size or time differs, as in ruff's cache); only when the signature differs is the file's digest
compared (the same bytes written again still hit, and the new signature is kept). A signature is
kept only when the file was last changed two seconds or more before the run began: a change within
a file system's timestamp granularity of the read could otherwise go unseen (git's "racy" files).

A file the mention filter skips on its bytes leaves no result; its signature is kept instead, and
while it is unchanged the file is not read again: the walk passes over it with one ``stat``
(:meth:`ResultCache.folder_table`, :func:`linter.discover.walk`). A hit reads the file and the files
it read (the report shows their lines; the run knows them as read, as a fresh lint leaves them),
checks each against its signature or digest, and decodes the entry: it loads no YAML library, no
rule and no SGLang table (``tests/test_imports.py``). The cache is used only for results that a run
reads as a whole file's findings: ``--explain``, ``--list-launches``, ``--show-files``,
``--upgrade-to``, standard input and the language server never use it. The folder's rules of trust
are in :mod:`linter.cache.trust`, its layout in :mod:`linter.cache.store`.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path


from linter.cache import store as store_mod
from linter.cache.deps import holds
from linter.workspace import MAX_BYTES, digest, recording

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from linter.engine import Engine, FileResult

ENV_DIR = "LINT_CONFIGS_CACHE_DIR"
"""The cache folder, unless ``--cache-dir`` names one (ruff's ``RUFF_CACHE_DIR``)."""
ENV_OFF = "LINT_CONFIGS_NO_CACHE"
"""Set (to anything but empty, ``0`` or ``false``) to run without the cache, as ``--no-cache``."""

RACY_NS = 2_000_000_000
"""A file changed less than this before the run began is read again next time (its stat is not kept)."""


def default_folder(cwd: Path, configs, root: Path | str | None = None) -> Path:
    """The cache folder of a run in ``cwd`` whose root is ``root``: in a git repository,
    ``.lint-configs_cache`` at the project root — the folder of the configuration that applies to
    ``cwd`` (as ruff's), else ``cwd`` — where its own ``.gitignore`` keeps it out of commits. A folder
    that no repository holds gets nothing written into it: its cache is a folder of its own in the
    user's cache folder (:func:`user_cache_home`)."""
    from linter.boundary import repository_of

    if repository_of(os.path.realpath(root if root is not None else cwd)) is None:
        return user_cache_home() / digest(os.path.realpath(root or cwd).encode("utf-8", "surrogateescape"))[:16]
    try:
        cfg = configs.for_dir(cwd)
    except Exception:  # noqa: BLE001 - an invalid configuration is reported by the run itself
        cfg = None
    base = cfg.path.parent if cfg is not None and cfg.path is not None else cwd
    return base / store_mod.DIR_NAME


def user_cache_home() -> Path:
    """``lint-configs`` in the user's cache folder: ``$XDG_CACHE_HOME`` (else ``~/.cache``), on macOS
    ``~/Library/Caches``, on Windows ``%LOCALAPPDATA%``."""
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser(r"~\AppData\Local")
    elif sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return Path(base) / "lint-configs"


def disabled_by_environment() -> bool:
    """True when ``LINT_CONFIGS_NO_CACHE`` asks for no cache."""
    return os.environ.get(ENV_OFF, "").strip().lower() not in ("", "0", "false", "no")


_CODE: str | None = None


def code_digest() -> str:
    """A digest of lint-configs' installed files: a changed or reinstalled copy of the same version
    does not read another copy's results. For an installed package, its ``RECORD`` (pip's list of the
    installed files with their SHA-256, in the ``.dist-info`` folder beside the package); for a
    checkout (an editable install), each source file's name, size and modification time."""
    global _CODE
    if _CODE is None:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        site = os.path.dirname(root)
        from linter import __version__

        record = os.path.join(site, f"lint_configs-{__version__}.dist-info", "RECORD")
        try:
            with open(record, "rb") as fh:
                _CODE = digest(fh.read())
            return _CODE
        except OSError:
            pass
        parts = []
        stack = [root]
        while stack:
            d = stack.pop()
            try:
                with os.scandir(d) as it:
                    for e in it:
                        if e.is_dir(follow_symlinks=False):
                            if e.name != "__pycache__":
                                stack.append(e.path)
                        elif e.name.endswith((".py", ".json")):
                            st = e.stat(follow_symlinks=False)
                            parts.append(f"{e.path}\0{st.st_size}\0{st.st_mtime_ns}")
            except OSError:
                continue
        parts.sort()
        _CODE = digest("\n".join(parts).encode("utf-8", "surrogateescape"))
    return _CODE


def run_key(ws, options) -> str:
    """The digest naming a run's setting (see the module docstring): ``ws`` the run's
    :class:`~linter.workspace.Workspace`, ``options`` its :class:`~linter.engine.RunOptions`."""
    from linter import __version__

    b = ws.boundary
    key = {"format": store_mod.FORMAT, "version": __version__, "code": code_digest(),
           "python": sys.version, "cwd": str(ws.cwd), "root": b.root, "outside": b.allow_outside,
           "exempt": sorted(b.exempt), "targets": list(options.target_gpus), "release": options.sglang_version,
           "select": options.select, "ignore": list(options.ignore), "extend": list(options.extend_select),
           "no_ignores": options.no_ignores, "preview": options.preview, "upgrade": options.upgrade_to}
    return digest(json.dumps(key, sort_keys=True).encode("utf-8", "surrogateescape"))


_CHECK_ORDER = {"f": 0, "m": 1}

LISTING = "/"
"""The key of a folder's own listing in its stat table (no file is named ``/``): ``[signature, names, kinds]``."""

_MASK = (1 << 64) - 1


def signature(st: os.stat_result) -> int:
    """A file's stat signature: its size, modification and change times (nanoseconds) and inode, each
    in 64 bits of one integer (exact: JSON keeps the integer whole, and reads one back faster than a list)."""
    return (st.st_size << 192) | ((st.st_mtime_ns & _MASK) << 128) | ((st.st_ctime_ns & _MASK) << 64) | \
        (st.st_ino & _MASK)


class ResultCache:
    """The cache of one run: ``folder`` the cache folder (trusted: :func:`linter.cache.trust.refusal`),
    ``engine`` the run's :class:`~linter.engine.Engine`; ``shared``: ``folder`` is a project's folder in
    the user's cache folder (:func:`user_cache_home`). ``hits`` and ``misses`` count lookups."""

    def __init__(self, folder: Path, engine: Engine, shared: bool = False) -> None:
        self.engine = engine
        self.ws = engine.ws
        self.ws.track_deps = True
        self.store = store_mod.Store(folder, run_key(engine.ws, engine.options), shared)
        self.started_ns = time.time_ns()
        self.keep: set[str] = set()
        self._settings: dict[str, str] = {}
        self.hits = 0
        self.misses = 0
        self.today = store_mod.today()
        self._held: dict[tuple, bool] = {}
        """Whether each probe of a dependency holds, asked once per run (entries share the same probes:
        the ``config.json`` of one model, the overrides looked for beside each compose file)."""
        self.walk_skips = True
        """The walk may pass over the files :meth:`folder_table` gives (one process lints; the pool turns
        it off when it starts: a file a worker read must reach the pool, which lints it the whole way)."""
        self.unread_name = self.ws.unread_name
        self._listed: tuple[str, object, set[str] | None] = ("", (), None)
        """The folder the walk listed last, its names, and their lower-case forms (made when first asked)."""

    def _settled(self, st: os.stat_result) -> bool:
        """True when the file of ``st`` was last changed long enough before the run began (:data:`RACY_NS`)."""
        return max(st.st_mtime_ns, st.st_ctime_ns) < self.started_ns - RACY_NS

    # -- the mention filter, from the stat ----------------------------------------------------------

    def folder_table(self, folder: str, names) -> dict[str, int] | None:
        """The files of ``folder`` (a string, as the walk has it) that the mention filter skipped on
        their bytes, each with its :func:`signature` then, or None when there is none; ``names`` is the
        folder's listing (the entries of files no longer in it are dropped). While a file's stat gives
        the same signature, it is skipped again without being read (:meth:`unmentioned` asks the same)."""
        self._listed = (folder, names, None)
        shard = self.store.stats(folder)
        table = shard.table.get(folder)
        if not table:
            return None
        for name in [n for n in table if n not in names and n != LISTING]:
            shard.set_stat(folder, name, None)
        return shard.table.get(folder)

    def listing(self, folder: str) -> tuple[list[str], str] | None:
        """The names in ``folder`` (in order) and their kinds (a letter each, as :func:`linter.discover.walk`
        kept them) when its stat gives the signature it had when they were kept; else None."""
        table = self.store.stats(folder).table.get(folder)
        kept = table.get(LISTING) if table else None
        if kept is None:
            return None
        try:
            st = os.stat(folder)
        except OSError:
            return None
        if not isinstance(kept, list) or len(kept) != 3 or kept[0] != signature(st):
            return None
        names, kinds = kept[1], kept[2]
        if not isinstance(names, list) or not isinstance(kinds, str) or len(names) != len(kinds) \
                or kinds.strip("fd"):
            return None
        return names, kinds

    def keep_listing(self, folder: str, st: os.stat_result, names: list[str], kinds: str) -> None:
        """Keep the listing of ``folder`` (its ``names`` in order and their ``kinds``), read after a stat
        that gave ``st``: used while the folder's signature stays the same (a folder changed too
        recently is not kept, as a file is not)."""
        if not self._settled(st):
            return
        shard = self.store.stats(folder)
        table = shard.table.get(folder)
        kept = [signature(st), names, kinds]
        if (table.get(LISTING) if table else None) != kept:
            shard.set_stat(folder, LISTING, kept)

    def unmentioned(self, name: str, folder: str | None = None) -> bool:
        """True when the mention filter skips the file ``name`` on its bytes (as
        :func:`linter.engine.unmentioned_text`), known without reading it while its stat gives the
        signature a run found it skipped with. ``folder``: ``os.path.dirname(name)`` when the caller knows it."""
        if folder is None:
            folder = os.path.dirname(name)
        shard = self.store.stats(folder)
        base = os.path.basename(name)
        names = shard.table.get(folder)
        rec = names.get(base) if names else None
        if rec is not None:
            try:
                st = os.stat(name)
            except OSError:
                st = None
            if st is not None and rec == signature(st):
                return True
        from linter.engine import unmentioned_probe

        text, st = unmentioned_probe(name)
        if text is not None and st is not None and self._settled(st):
            sig = signature(st)
            if rec != sig:
                shard.set_stat(folder, base, sig)
        elif rec is not None:
            shard.set_stat(folder, base, None)
        return text is not None

    # -- results ----------------------------------------------------------------------------------

    def has_result(self, name: str) -> bool:
        """True when the cache holds a result of the file ``name`` (an absolute path as a string), current or not."""
        return name in self.store.results(os.path.dirname(name)).table

    def lookup(self, path: Path) -> tuple[FileResult, list[Path]] | None:
        """The cached result of ``path`` (absolute) and the files it read (now in the workspace, as a
        fresh lint leaves them), or None when there is none that still holds."""
        name = str(path)
        self.keep.add(name)
        shard = self.store.results(os.path.dirname(name))
        entry = shard.table.get(name)
        if not isinstance(entry, dict):
            return None
        ws = self.ws
        try:
            got = self._check(name, entry)
            if got is None:
                return None
            files, reads, deps = got
            from linter.cache import codec

            sources = {}
            for p, (data, st) in files.items():
                source = self._adopt(Path(p), data, st)
                if source is not None:
                    sources[p] = source
            result = codec.decode(entry["result"], path, sources)
        except (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError, OSError):
            return None  # a corrupt or foreign entry: linted again (and rewritten)
        if ws.reads is not None:
            ws.reads.extend(reads)
        if deps is not None or entry.get("t") != self.today:
            # a file's bytes written again (a new signature, the same digest), or a new day of use
            shard.set(name, dict(entry, t=self.today, deps=deps if deps is not None else entry["deps"]))
        self.hits += 1
        return result, reads

    def _check(self, name: str, entry: dict):
        """(the files the entry read: path → (bytes, stat); those other than ``name``; the entry's
        dependencies with new signatures, or None when none changed) when every dependency holds, else None."""
        files: dict[str, tuple] = {}
        reads = []
        may_read = self.ws.may_read
        paths = [name]
        changed = False
        deps = []
        for dep in entry["deps"]:
            if dep[0] == "f":
                p = dep[1]
                if p in files:
                    deps.append(dep)
                    continue
                if p != name and not may_read(Path(p)):
                    return None
                data, st = _read(p)
                if data is None:
                    return None
                sig = signature(st)
                kept = dep[3] if len(dep) > 3 else None
                if kept != sig:  # changed metadata: the bytes decide (the same bytes written again still hit)
                    if digest(data) != dep[2]:
                        return None
                    dep = [dep[0], p, dep[2], sig if self._settled(st) else None]
                    changed = changed or dep[3] != kept
                files[p] = (data, st)
                if p != name:
                    paths.append(p)
                    reads.append(Path(p))
            elif not self._holds(dep):
                return None
            deps.append(dep)
        if name not in files or entry["hash"] != next(d[2] for d in deps if d[0] == "f" and d[1] == name):
            return None
        if self.settings_digest(paths) != entry["settings"]:
            return None
        return files, reads, deps if changed else None

    def _holds(self, dep: list) -> bool:
        """:func:`linter.cache.deps.holds` for ``dep`` (not a file's bytes), asked once per run; a file
        found missing answers the probes of the same path that expect nothing there."""
        key = tuple(dep)
        got = self._held.get(key)
        if got is None:
            if dep[0] in "meil" and (self._held.get(("m", dep[1])) or self._unlisted(dep[1])):
                got = dep[0] == "m" or dep[2] == "0"  # nothing there: no file, not even a link
            else:
                got = holds(dep, lambda p: self.ws.may_read(Path(p)))
            self._held[key] = got
        return got

    def _unlisted(self, path: str) -> bool:
        """True when ``path`` is in the folder the walk listed last and no entry there has its name (an
        ASCII name, compared in lower case too: a file system that ignores case finds ``.ENV`` as ``.env``)."""
        folder, names, lowered = self._listed
        head, base = os.path.split(path)
        if head != folder or not base or base in (".", "..") or not base.isascii() or base in names:
            return False
        if lowered is None:
            lowered = {n.lower() for n in names}
            self._listed = (folder, names, lowered)
        return base.lower() not in lowered

    def _adopt(self, path: Path, data: bytes, st):
        from linter.source import DecodeError, SourceFile

        ws = self.ws
        if not ws.unread(path):
            return ws.read(path)
        try:
            source = SourceFile.from_bytes(path, ws.display(path), data)
        except DecodeError:
            return None  # a file that is not text: a fresh lint would not have kept it either
        return ws.adopt(source, st)

    def settings_digest(self, paths: list[str]) -> str:
        """A digest of the resolved configuration of each of ``paths`` (the file, then what it read):
        ``-`` for a file no configuration applies to (the default settings)."""
        out = []
        configs = self.engine.configs
        for p in sorted(set(paths)):
            got = self._settings.get(p)
            if got is None:
                cfg = configs.for_dir(os.path.dirname(p))
                got = self._settings[p] = "-" if cfg is None else repr(cfg.settings_for(Path(p)))
            out.append(got)
        return digest("\n".join(out).encode("utf-8", "surrogateescape"))

    def lint(self, path: Path, look: bool = True) -> tuple[FileResult, list[Path], bool]:
        """(the result of ``path`` from the cache, else linted and kept; the files it read; whether it
        came from the cache). ``look``: False when the cache was just asked."""
        if look:
            got = self.lookup(path)
            if got is not None:
                return got[0], got[1], True
        from linter.isolate import lint_file

        with recording() as deps:
            result = lint_file(self.engine, path, mentioned=True)  # (it passed the filter to get here)
        self.keep_result(path, result, deps)
        return result, [Path(d[1]) for d in deps if d[0] == "f"], False

    def keep_result(self, path: Path, result: FileResult, deps: list) -> None:
        """Keep ``result`` of ``path``, linted with the dependencies ``deps`` (as :func:`linter.workspace.note`
        gives them). A result that stands for an internal error, an unreadable file, or a text that is not
        the file's is not kept."""
        from linter.isolate import crashed

        self.misses += 1
        name = str(path)
        if result.prefiltered or result.unreadable or crashed(result):
            return
        deps = [list(d) for d in dict.fromkeys(tuple(d) for d in deps)]
        deps.sort(key=lambda d: _CHECK_ORDER.get(d[0], 2))  # a lookup meets a missing file before its probes
        own = next((d[2] for d in deps if d[0] == "f" and d[1] == name), None)
        if own is None or any(d[0] == "n" and d[2] == "unsaved" for d in deps):
            return
        from linter.cache import codec

        try:
            payload = codec.encode(result, self.ws)
        except (TypeError, ValueError, AttributeError):
            return
        paths = [name] + [d[1] for d in deps if d[0] == "f"]
        for d in deps:
            if d[0] == "f":  # the signature of the file as it was read (None: changed too recently to trust)
                st = self.ws.stat_when_read(Path(d[1]))
                d.append(signature(st) if st is not None and self._settled(st) else None)
        entry = {"hash": own, "settings": self.settings_digest(paths), "deps": deps, "result": payload,
                 "t": self.today}
        if len(json.dumps(entry, separators=(",", ":"))) > store_mod.MAX_ENTRY_BYTES:
            return
        self.store.results(os.path.dirname(name)).set(name, entry)

    def flush(self) -> None:
        """Write what this run kept (see :meth:`linter.cache.store.Store.flush`); a cache that cannot be
        written is left as it is (the run's results do not depend on it)."""
        try:
            self.store.flush(self.keep)
        except OSError:
            pass


def _read(name: str) -> tuple[bytes | None, os.stat_result | None]:
    """The bytes of a regular file no larger than the linter reads, and its ``os.fstat``; (None, None)
    otherwise, and when the file changed while it was read (its signature before and after differ)."""
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None, None
    try:
        st = os.fstat(fd)
        import stat

        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return None, None
        chunks = []
        size = 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, max(st.st_size + 1 - size, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES or signature(os.fstat(fd)) != signature(st):
            return None, None
        return b"".join(chunks), st
    except OSError:
        return None, None
    finally:
        os.close(fd)
