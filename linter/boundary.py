"""The run's root: what linted content may make lint-configs read, and where it may write.

lint-configs runs on pull requests from people the repository's owners do not trust (a CI job, a
pre-commit hook). A linted file names other files — a compose ``include:``/``extends``/``env_file``,
a launch's ``--config``, a Python import, a chart's helpers, a symbolic link's target — and none of
them may make the linter read, quote or write a file outside the repository being linted: the
run has a **root**, and a reference that points outside it is refused (SGL005 ``outside-root`` on
the file, the values it would have given unknown). Nothing outside the root is ever written.

The root is, in order: ``--root DIR``; else the repository (the nearest folder above with ``.git``,
as ``git rev-parse --show-toplevel`` finds it, a worktree's or submodule's ``.git`` file included)
that holds every path named on the command line; else the current directory when it holds them;
else the folder they have in common. Paths the user names on the command line (the linted paths,
``--config FILE``, ``--output-file``, ``--baseline``) are the user's choice and exempt.
``--allow-outside-root`` lets references be read outside it (never written).

Comparisons are on real paths (symbolic links resolved), so a link inside the tree whose target is
outside is outside.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import stat
from pathlib import Path


class OutsideRoot(PermissionError):
    """A read refused because the path lies outside the run's root (``path`` the path asked for).

    A :class:`PermissionError`, so every reader that treats an unreadable file as unknown does so."""

    def __init__(self, path: Path) -> None:
        super().__init__(13, "outside the repository root (not read)", str(path))
        self.path = path


def _has_git(folder: str) -> bool:
    return os.path.lexists(os.path.join(folder, ".git"))


def repository_of(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` (an absolute real path) holding ``.git``, or None."""
    d = folder
    while True:
        if _has_git(d):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def find_root(paths: list[Path], cwd: Path, given: Path | None = None) -> Path:
    """The root of a run over ``paths`` (as given on the command line, relative to ``cwd``).

    ``given`` (``--root``) wins. Otherwise the repository holding all of ``paths`` (their common
    folder's nearest ``.git`` above), else ``cwd`` when it holds them all, else their common folder.
    Returns a real absolute path."""
    if given is not None:
        return Path(os.path.realpath(cwd / given))
    folders = []
    for p in paths or [Path(".")]:
        folders.append(_folder_as_written(cwd / p))
    try:
        common = os.path.commonpath(folders)
    except ValueError:  # pragma: no cover - paths on different drives (Windows)
        common = os.path.realpath(cwd)
    repo = repository_of(common)
    if repo is not None:
        return Path(repo)
    real_cwd = os.path.realpath(cwd)
    if is_within(common, real_cwd):
        return Path(real_cwd)
    return Path(common)


def _folder_as_written(path: Path | str) -> str:
    """The real folder ``path`` is written in: its parent folders resolved, not the path itself when
    it is a symbolic link (a committed link to /etc/passwd is a file of the repository that points
    out, not a reason to widen the root); a real folder for a folder that is not a link."""
    written = os.path.abspath(path)
    parent = os.path.realpath(os.path.dirname(written))
    if os.path.isdir(written) and not os.path.islink(written):
        return os.path.join(parent, os.path.basename(written)) if os.path.basename(written) else parent
    return parent


def is_within(path: str, root: str) -> bool:
    """True when the absolute, normalised ``path`` is ``root`` or below it (strings, no file access)."""
    if path == root:
        return True
    prefix = root if root.endswith(os.sep) else root + os.sep
    return path.startswith(prefix)


class Boundary:
    """What a run may read and write. ``root`` a real absolute path (None: no limit, as a library
    call without a root has); ``allow_outside`` lets reads leave it (``--allow-outside-root``);
    ``exempt`` the real folders the user named (or that hold a file the user named) outside the
    root, read from as the root is."""

    def __init__(self, root: Path | None, allow_outside: bool = False) -> None:
        self.root = None if root is None else os.path.realpath(root)
        self.allow_outside = allow_outside
        self.exempt: list[str] = []
        self._real: dict[str, str] = {}
        self._answers: dict[str, bool] = {}  # may_read per path asked: a launch asks again and again
        self._missing: set[str] = set()
        """Paths :meth:`real` found missing (``lstat``: no such file): nothing below them exists either, so
        a model id looked up as a folder (``deepseek-ai/DeepSeek-V3/config.json``) costs one ``lstat``."""
        self._listed: dict[str, frozenset[str] | None] = {}
        """Folders :meth:`survey` listed: their names, case-folded (None: not listable)."""

    def real(self, path: Path | str) -> str:
        """``os.path.realpath(path)``, remembered for the run: a folder's real path is found once, so a
        file in it costs one ``lstat`` (is it a link?) instead of one per component of its path."""
        p = os.fspath(path)
        got = self._real.get(p)
        if got is None:
            head, tail = os.path.split(p)
            if not os.path.isabs(p) or tail in ("", ".", "..") or "//" in p or "/./" in p or "/../" in p:
                got = os.path.realpath(p)  # (a path with . or .. parts: as realpath reads it)
            else:
                real_head = self.real(head)
                link = False  # missing: realpath keeps the name after the real folder
                if head in self._missing or self._unlisted(head, tail):
                    self._remember_missing(p)  # below a missing folder, or not in its listing: no lstat
                else:
                    try:
                        link = stat.S_ISLNK(os.lstat(p).st_mode)
                    except FileNotFoundError:
                        self._remember_missing(p)
                    except OSError:
                        pass
                got = os.path.realpath(p) if link else os.path.join(real_head, tail)
            if len(self._real) < 1 << 16:
                self._real[p] = got
        return got

    def _remember_missing(self, path: str) -> None:
        if len(self._missing) < 1 << 16:
            self._missing.add(path)

    def survey(self, folder: Path | str) -> None:
        """List ``folder`` once for the run: a name asked in it afterwards that is not there is known
        missing (:meth:`known_missing`, :meth:`real`) without an ``lstat`` or ``stat`` of its own — a
        compose file probes eight file names and the ``.env`` beside it. Nothing is noted as a
        dependency here: each probe still notes its own answer."""
        f = os.fspath(folder)
        if f in self._listed or f in self._missing:
            return
        try:
            names: frozenset[str] | None = frozenset(n.casefold() for n in os.listdir(f))
        except FileNotFoundError:
            self._remember_missing(f)
            return
        except OSError:
            names = None
        if len(self._listed) < 1 << 16:
            self._listed[f] = names

    def _unlisted(self, folder: str, name: str) -> bool:
        names = self._listed.get(folder)
        # case-folded, ASCII only: a file system that ignores case (or Unicode normalisation) still
        # finds no such file when no name folds to it
        return names is not None and name.isascii() and name.casefold() not in names

    def known_missing(self, path: Path | str) -> bool:
        """True when ``path`` is known missing in this run: :meth:`real` found it or a folder above it
        missing, or :meth:`survey` listed its folder without it (no file is looked at: False means only
        "not known")."""
        p = os.fspath(path)
        if p in self._missing:
            return True
        head, tail = os.path.split(p)
        return head in self._missing or self._unlisted(head, tail)

    def name(self, path: Path | str) -> None:
        """The user named ``path`` (a file or folder): when it lies outside the root, its folder (the
        folder itself for a folder) may be read from — a compose file's ``.env``, a model's
        ``config.json`` beside it — but never written."""
        # where the user wrote it, not where a link in it points: `lint-configs $(git ls-files)` names a
        # committed link out of the tree, and that link stays outside (read nowhere, written never)
        folder = _folder_as_written(path)
        if self.root is not None and not is_within(folder, self.root) and folder not in self.exempt:
            self.exempt.append(folder)
            self._answers.clear()

    def inside(self, path: Path | str) -> bool:
        """True when ``path``'s real location (links resolved) is under the root (or there is no root)."""
        if self.root is None:
            return True
        return is_within(self.real(path), self.root)

    def may_read(self, path: Path | str) -> bool:
        """True when linted content may make the linter read ``path``."""
        if self.root is None or self.allow_outside:
            return True
        key = str(path)
        answer = self._answers.get(key)
        if answer is None:
            real = self.real(path)
            answer = is_within(real, self.root) or any(is_within(real, folder) for folder in self.exempt)
            if len(self._answers) > 50_000:
                self._answers.clear()
            self._answers[key] = answer
        return answer

    def may_write(self, path: Path | str) -> bool:
        """True when ``--fix`` may write ``path``: its real location is under the root, always
        (``--allow-outside-root`` widens reads only)."""
        return self.inside(path)


# -- refusals seen while linting one file ----------------------------------------------------------------

_refused: contextvars.ContextVar[list | None] = contextvars.ContextVar("lint_configs_refused", default=None)


def record(path: Path, span=None, quiet: bool = False) -> None:
    """Note that a read of ``path`` was refused while linting the current file; ``span`` is the
    reference (None: the top of the file). ``quiet`` refusals (a model folder on the machine the
    launch runs on) are not findings. Outside :func:`collect` this does nothing."""
    hits = _refused.get()
    if hits is not None and not quiet:
        hits.append((path, span))


@contextlib.contextmanager
def collect():
    """Collect :func:`record` calls made inside the block: yields the list of (path, span)."""
    hits: list = []
    token = _refused.set(hits)
    try:
        yield hits
    finally:
        _refused.reset(token)


_reference: contextvars.ContextVar = contextvars.ContextVar("lint_configs_reference", default=None)


@contextlib.contextmanager
def referenced_at(span):
    """Reads inside the block are made for the reference at ``span``: a refusal is reported there."""
    token = _reference.set(span)
    try:
        yield
    finally:
        _reference.reset(token)


def current_reference():
    """The span set by the innermost :func:`referenced_at`, or None."""
    return _reference.get()
