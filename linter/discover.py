"""Which files to lint, and in which format.

Folders are walked with git's ignore rules respected as git applies them (nested ``.gitignore`` files,
``.git/info/exclude`` and ``core.excludesFile``: :mod:`linter.gitignore`) and the usual tool folders
skipped (``.git``, ``.venv``, ``node_modules`` …, as ruff does), plus the configuration's
``exclude``/``extend-exclude`` globs and the command line's ``--exclude``. A file named on the command
line is linted even when excluded, unless ``--force-exclude`` is given (pre-commit passes files one
by one).

The format comes from the name and a cheap look at the content, as the format registry
(:mod:`linter.formats`) says.

A companion file named on the command line (a ``.env``; the registry's ``companions``) stands for the
files of its format beside it (the compose files).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from typing import Callable, Iterator

from linter.mentions import PREFILTER, mentions_sglang  # noqa: F401 - part of this module's interface

DEFAULT_EXCLUDES = {".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "node_modules", "__pycache__",
                    ".mypy_cache", ".pytest_cache", ".ruff_cache", "build", "dist", "site-packages", ".eggs"}

FIXER_TEMP = re.compile(r"^\..+\.lint-configs-[A-Za-z0-9_]+\.tmp$")
"""The names of ``--fix``'s temporary files (``.NAME.lint-configs-XXXX.tmp``, see linter/fixes.py):
never linted, also when a killed run left one behind."""

def detect_format(path: Path, text: str) -> str | None:
    """The name of the file's format in the registry (:mod:`linter.formats`), or None."""
    from linter.formats import detect

    fmt = detect(path, text)
    return fmt.name if fmt is not None else None


class Candidate:
    """A file to look at: ``name`` its absolute path as a string; ``explicit`` when it was named on
    the command line; ``folder`` its folder as a string. ``path`` (a :class:`~pathlib.Path`) is made
    on first use: most files of a tree are skipped on their bytes by name alone, and a ``Path`` costs
    more than the look at the bytes."""

    __slots__ = ("name", "explicit", "_path", "folder")

    def __init__(self, path: Path | str, explicit: bool, folder: str | None = None) -> None:
        self.name = str(path)
        self.explicit = explicit
        self._path = path if isinstance(path, Path) else None
        self.folder = folder if folder is not None else os.path.dirname(self.name)
        """The folder of the file as a string (``os.path.dirname(name)``, given by the walk)."""

    @property
    def path(self) -> Path:
        if self._path is None:
            self._path = Path(self.name)
        return self._path

    def __repr__(self) -> str:
        return f"Candidate({self.name!r}, explicit={self.explicit})"


class WalkReport:
    """What a walk passed over that the run must say: ``outside``, the files that are symbolic links to a
    file outside the run's root (never read: :mod:`linter.boundary`); ``unreadable``, (folder, why) for
    each folder that could not be listed. ``boundary`` is the run's :class:`~linter.boundary.Boundary`
    (None: no root)."""

    def __init__(self, boundary=None) -> None:
        self.boundary = boundary
        self.outside: list[str] = []
        self.unreadable: list[tuple[str, str]] = []
        self.known = 0
        """Files passed over because the result cache knew the mention filter skips them (``quick``)."""

    def link_outside(self, real: str) -> bool:
        b = self.boundary
        return b is not None and not b.may_read(real)


def walk(paths: list[Path], excluded: Callable[[Path | str, bool], bool], force_exclude: bool,
         report: WalkReport | None = None, quick=None) -> Iterator[Candidate]:
    """Files under ``paths`` (sorted, each once). ``excluded(path, is_dir)`` applies config globs; the
    path of a file in a walked folder is given as a string. A file found in a folder that is a symbolic
    link out of the run's root, and a folder that cannot be listed, go to ``report``.

    ``quick`` (a :class:`linter.cache.ResultCache`, or None) names the files of a walked folder the
    mention filter skipped in an earlier run, with their stat signatures (``folder_table``): while
    ``quick.walk_skips`` holds, such a file that this run has not read yet (``quick.unread_name``) and
    whose ``stat`` still gives its signature is passed over (counted in ``report.known``): one
    ``stat``, no read and no :class:`Candidate`."""
    from linter.formats import companion_of
    from linter.gitignore import Ignores

    report = report if report is not None else WalkReport()
    ignores = Ignores()  # each repository's ignore files and git configuration, read once per walk
    seen: set[str] = set()  # real paths as strings: a file is yielded once, however it is reached
    for root in paths:
        root = root.absolute()
        if root.is_file() or (root.exists() and not root.is_dir()):
            if force_exclude and (excluded(root, False) or ignores.ignored(root)):
                continue
            owner = companion_of(root)
            if owner is not None:  # a .env stands for the compose files beside it
                for sibling in sorted(root.parent.iterdir()):
                    if force_exclude and (excluded(sibling, False) or ignores.ignored(sibling)):
                        continue
                    if owner.matches_name(sibling) and os.path.realpath(sibling) not in seen:
                        seen.add(os.path.realpath(sibling))
                        if sibling.is_symlink() and report.link_outside(os.path.realpath(sibling)):
                            report.outside.append(str(sibling))  # named by nobody: a link out is not read
                            continue
                        yield Candidate(sibling, True)
                continue
            real = str(root.resolve())
            if FIXER_TEMP.match(root.name):
                continue
            if os.path.islink(root) and report.link_outside(real):
                # named, but a link out of the tree (`lint-configs $(git ls-files)` names committed links):
                # where it is written is inside, what it points to is not, so it is not read
                report.outside.append(str(root))
                continue
            if real not in seen:
                seen.add(real)
                yield Candidate(root, True)
            continue
        if not root.is_dir():
            continue
        yield from _walk_folder(root, excluded, seen, report, ignores, quick)


def _by_name(entry: os.DirEntry) -> str:
    return entry.name


def _entries(here_name: str, report: WalkReport, quick=None) -> tuple[list[str], str] | None:
    """The names in the folder ``here_name`` in order, and their kinds (a letter each, :func:`_kind`); None
    when it cannot be listed (``report`` says why). With ``quick`` (see :func:`walk`), a folder whose
    stat gives the signature it had when a run listed it (a folder's times change with every entry
    made, removed or renamed in it) is not read again: its listing comes from the cache (kept for a
    folder of plain files and folders only: a link's kind depends on what it points to)."""
    st = None
    if quick is not None:
        got = quick.listing(here_name)
        if got is not None:
            return got
        try:
            st = os.stat(here_name)  # before the listing: a change made while it is read is seen next time
        except OSError:
            pass
    try:
        with os.scandir(here_name) as it:
            entries = sorted(it, key=_by_name)
            names = [e.name for e in entries]
            kinds = "".join([_kind(e) for e in entries])
    except OSError as exc:
        report.unreadable.append((here_name, exc.strerror or str(exc)))
        return None
    if st is not None and not kinds.strip(_FILE + _FOLDER):
        quick.keep_listing(here_name, st, names, kinds)
    return names, kinds


def _walk_folder(root: Path, excluded: Callable[[Path, bool], bool], seen: set[str],
                 report: WalkReport, ignores, quick=None) -> Iterator[Candidate]:
    """Files under the folder ``root`` in sorted order (folders first-visited depth-first, as
    ``os.walk``), as git's ignore rules leave them (``ignores``, a :class:`linter.gitignore.Ignores`;
    a folder holding ``.git`` below ``root`` starts its own repository's rules, as a submodule or a
    nested repository does in git). One ``os.scandir`` per folder (none for a folder ``quick`` knows
    unchanged, :func:`_entries`): its entries carry the file type, so a regular file costs no ``stat``
    and a real path is resolved only for a symbolic link (folder
    links are not followed, so every other entry's real path is its real folder's path joined with its
    name). Folders and files are strings (a file's :class:`~pathlib.Path` is made when it is linted).
    ``quick``: see :func:`walk`."""
    from linter.gitignore import find_top

    may_exclude = getattr(excluded, "may_exclude", None)
    top = find_top(root)
    repo = ignores.repository(top)
    chain = _parent_ignores(repo, root)
    stack: list[tuple[str, str, object, list]] = [(str(root), str(root.resolve()), repo, chain)]
    sep = os.sep
    read = quick.ws.read_names if quick is not None else ()
    while stack:
        here_name, real_here, repo, chain = stack.pop()
        listed = _entries(here_name, report, quick)
        if listed is None:
            continue
        entries = list(zip(*listed))
        names = set(listed[0])
        repo, chain = _folder_rules(here_name, names, repo, chain, ignores)
        check = bool(chain or repo.outer)
        # ``excluded.may_exclude(folder, names, real)`` (when the callable has it): False when no file of
        # the folder can be excluded (no configuration, no --exclude): then no call per file
        some = may_exclude(here_name, names, real_here) if may_exclude is not None else True
        known = quick.folder_table(here_name, names) if quick is not None else None
        folders = _subfolders(entries, here_name, real_here, repo, chain, check, excluded)
        skips = known is not None and quick.walk_skips
        for name, kind in entries:  # (sorted: the files are yielded in order as they come)
            if kind == _FOLDER or kind == _OTHER:
                continue
            link = kind == _LINK
            if name[0] == "." and (name == ".git" or FIXER_TEMP.match(name)):  # a worktree's or submodule's .git file
                continue
            p = here_name + sep + name  # a string: most files are skipped before a Path is needed
            real = os.path.realpath(p) if link else real_here + sep + name
            if real in seen:
                continue
            if (check and repo.decide(chain, p, False)) or (some and excluded(p, False)):
                continue
            if link and report.link_outside(real):
                report.outside.append(p)  # a link out of the root: never read, nor written through
                continue
            seen.add(real)
            if skips and name in known and p not in read and _unchanged(p, known[name]):
                report.known += 1
                continue
            yield Candidate(p, False, here_name)
            skips = known is not None and quick.walk_skips  # (the pool may have started meanwhile)
        stack.extend(reversed(folders))


_MASK = (1 << 64) - 1


def _subfolders(entries, here_name: str, real_here: str, repo, chain: list, check: bool, excluded) -> list[tuple]:
    """The folders among ``entries`` the walk goes into, in order, each ``(path, real path, repository,
    .gitignore chain)``: not a tool folder (:data:`DEFAULT_EXCLUDES`), not ignored by git, not excluded."""
    sep = os.sep
    out = []
    for name, kind in entries:
        if kind == _FOLDER:
            p = here_name + sep + name
            if not (name in DEFAULT_EXCLUDES or (check and repo.decide(chain, p, True)) or excluded(p, True)):
                out.append((p, real_here + sep + name, repo, chain))
    return out


def _unchanged(p: str, sig: int) -> bool:
    """True when the ``stat`` of the file ``p`` gives ``sig``, its signature when the mention filter
    skipped it (:func:`linter.cache.signature`, written out: this is the loop of a large tree)."""
    try:
        st = os.stat(p)
    except OSError:
        return False
    return sig == (st.st_size << 192) | ((st.st_mtime_ns & _MASK) << 128) | ((st.st_ctime_ns & _MASK) << 64) | \
        (st.st_ino & _MASK)


_FILE, _LINK, _FOLDER, _OTHER = "f", "l", "d", "-"
"""The kinds of folder entries (:func:`_kind`), a letter each: a listing's kinds are one string."""


def _kind(e: os.DirEntry) -> str:
    """What the walk does with a folder entry: a regular file (``_FILE``), a link to a file (``_LINK``:
    dangling links are never opened), a folder to descend into (``_FOLDER``), or ``_OTHER`` (FIFOs,
    devices, sockets, links to folders, an entry that cannot be looked at): never opened."""
    try:
        if e.is_file(follow_symlinks=False):  # the usual case first: one look at the entry's type
            return _FILE
        if e.is_dir(follow_symlinks=False):
            return _FOLDER
        if e.is_symlink() and e.is_file():
            return _LINK
    except OSError:
        pass
    return _OTHER


def _folder_rules(here_name: str, names: set[str], repo, chain: list, ignores):
    """The repository and ``.gitignore`` chain that apply inside the folder ``here_name`` (whose entries
    are ``names``): a folder holding ``.git`` below the walked root starts its own repository's rules (a
    submodule or a nested repository, as in git); its own ``.gitignore`` joins the chain."""
    if ".git" in names and Path(here_name) != repo.top:  # a nested repository: its own rules, not the outer ones
        repo, chain = ignores.repository(Path(here_name)), []
    if ".gitignore" in names:
        own = repo.folder(here_name)
        if own is not None:
            chain = chain + [own]
    return repo, chain


def _parent_ignores(repo, root: Path) -> list:
    """The ``.gitignore`` sources of the folders above ``root``, from the top of its repository down
    (none outside a repository: only the walked folders' own files count there)."""
    if repo.top is None or root == repo.top:
        return []
    chain = []
    for folder in reversed(root.parents[:len(root.relative_to(repo.top).parts)]):
        src = repo.folder(str(folder))
        if src is not None:
            chain.append(src)
    return chain
