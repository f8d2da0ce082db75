"""Imports resolved to the files of the same repository, each analysed (parsed, never imported or run)
at most once per linted file.

``from .common import ARGS``, ``from pkg.common import ARGS`` and ``import pkg.common as m; m.ARGS``
name a value written in another file of the repository. :class:`Resolver` finds that file and reads
the value from that module's analysis, so every character keeps its origin in the defining file —
a finding and its fix land where the value is written.

Where a module is looked for: a relative import from the importing file's package; an absolute one
from the importing file's folder and each folder above it up to the repository root (the nearest
folder holding ``.git``; else the working directory, when the file is under it), in each of them
also under ``src/``, ``python/`` and ``lib/`` (SGLang's own package is ``python/sglang``); as
``a/b.py`` or ``a/b/__init__.py``. Nothing outside the repository is read: such a name is unknown.

Bounds: a chain of at most :data:`MAX_DEPTH` modules analysed for one another; a module that is
being analysed when it is needed again (an import cycle) gives unknown values. Names of the
callables the Python format recognises (``popen_launch_server``, ``Engine`` …) are never resolved:
they stay what they are, even in SGLang's own repository.

What is shared, and what is not. Each module is parsed once per run (per
:class:`~linter.workspace.Workspace`) and again only when its text changed (after a fix), and the
file-system answers (is there such a file, where is the repository root) are kept for the run: both
are the same whichever file asks. A module's *analysis* is made once per linted file, under that
file's step budget (:func:`linter.limits.file_budget`), and used by every import of that file's
lint: an analysis is computed as the importing file needs it (a function's return value per
argument set, a class attribute) and is cut short where the budget ends, so one shared across files
would make a file's result depend on which files were linted before it in the same process (with
``-j 2`` a different partition: issue 35). Every file thus pays for the modules it reads, and its
result — SGL004 included — is the same alone, first, last, or in another process.
"""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from linter.extract.python.names import CALL_QUALS
from linter.extract.python.parsing import parse
from linter.extract.python.values import NOTFOUND, ClassV, Ref, Unk, Value, copy_value
from linter.launch import Extraction
from linter import boundary, limits
from linter.workspace import capture, exists, note, replay

if TYPE_CHECKING:
    from linter.extract.python.base import Analyse, Analysed
    from linter.source import SourceFile
    from linter.workspace import Workspace

MAX_DEPTH = 4
"""Modules analysed for one another in a chain (the linted file is depth 0)."""
_MODELLED = ("builtins", "os", "sys", "subprocess", "asyncio", "shlex", "modal")
"""Top-level modules the analysis models by name: never looked for in the repository."""
_PACKAGE_DIRS = ("", "src", "python", "lib")


class ModuleCache:
    """What the runs of one workspace share about Python modules: each parsed module by path (with
    the :class:`SourceFile` it was parsed from) and the file-system answers already looked up. The
    analyses made from them belong to the file being linted (:class:`FileModules`)."""

    def __init__(self, ws: Workspace) -> None:
        # a weak reference: the cache is the value of a weak-keyed dict whose key is ``ws``; a strong
        # one would keep every run's workspace, files and analyses alive (a long fuzz run, an editor)
        self._ws = weakref.ref(ws)
        self.parsed: dict[Path, tuple[SourceFile, tuple | None]] = {}
        self.files: dict[Path, tuple[bool, tuple]] = {}
        self.roots: dict[Path, tuple[Path, list]] = {}
        self.facts: dict[Path, tuple] = {}  # path -> (SourceFile, its launchers.Facts or None)
        self.found: dict[tuple, tuple] = {}  # (folder, root, module parts, level) -> (its file or None, probes)

    @property
    def ws(self) -> Workspace:
        """The run's workspace."""
        return self._ws()

    def is_file(self, path: Path) -> bool:
        got = self.files.get(path)
        if got is None:
            # outside the root: never looked at; :meth:`analysis` refuses to read it (SGL005)
            if not self.ws.may_read(path):
                got = self.files[path] = (True, ("o", str(path)))
            else:
                found = path.is_file()
                got = self.files[path] = (found, ("i", str(path), "1" if found else "0"))
        note(got[1])
        return got[0]

    def root_of(self, folder: Path) -> Path:
        """The repository root for a file in ``folder``."""
        got = self.roots.get(folder)
        if got is not None:
            replay(got[1])
            return got[0]
        with capture() as probes:
            root = folder
            cwd = self.ws.cwd
            for up in (folder, *folder.parents):
                if exists(up / ".git"):
                    root = up
                    break
            else:
                if folder == cwd or cwd in folder.parents:
                    root = cwd
        limit = self.ws.boundary.root
        if limit is not None and Path(limit) in root.parents and Path(limit) in (folder, *folder.parents):
            root = Path(limit)  # imports are looked for inside the run's root only
        self.roots[folder] = (root, probes)
        return root

    def module_file(self, here: Path, root: Path, parts: list[str], level: int, importer=None) -> Path | None:
        """The file of module ``parts`` imported from a file in ``here`` (relative to ``importer``'s
        package, else ``here``, ``level`` levels up; or absolute: from ``here`` and each folder above it
        up to ``root``, also under ``src/``, ``python/`` and ``lib/``), inside ``root``, or None. Kept
        for the run with the probes it made (noted again each time it answers from memory)."""
        if level:
            base = Path(importer).parent if importer is not None else here
            for _ in range(level - 1):
                base = base.parent
            return self._memo(("r", base, root, tuple(parts)), lambda: self._in(root, base, parts))
        return self._absolute(here, root, tuple(parts))

    def _absolute(self, folder: Path, root: Path, parts: tuple[str, ...]) -> Path | None:
        """An absolute import looked for from ``folder`` up (each folder's answer kept: the files of a
        tree share the walk above them)."""
        def find() -> Path | None:
            for sub in _PACKAGE_DIRS:
                got = self._in(root, folder / sub if sub else folder, list(parts))
                if got is not None:
                    return got
            if folder == root or folder.parent == folder:
                return None
            return self._absolute(folder.parent, root, parts)

        return self._memo(("a", folder, root, parts), find)

    def _memo(self, key: tuple, find) -> Path | None:
        got = self.found.get(key)
        if got is not None:
            replay(got[1])
            return got[0]
        with capture() as probes:
            path = find()
        self.found[key] = (path, probes)
        return path

    def _in(self, root: Path, base: Path, parts: list[str]) -> Path | None:
        if root != base and root not in base.parents:
            return None
        if not parts:
            init = base / "__init__.py"
            return init if self.is_file(init) else None
        target = base.joinpath(*parts)
        for path in (target.with_name(target.name + ".py"), target / "__init__.py"):
            if self.is_file(path):
                return path
        return None

    def parse(self, source: SourceFile) -> tuple | None:
        """``(ast.Module, Positions)`` of ``source`` (None: it does not parse), parsed once per text."""
        got = self.parsed.get(source.path)
        if got is None or got[0] is not source:
            got = self.parsed[source.path] = (source, parse(source, Extraction()))
        return got[1]

    def file_modules(self) -> FileModules:
        """The analyses of the file being linted (kept with its budget, so they go with its lint)."""
        return limits.budget().once(("python modules", id(self)), lambda: FileModules(self))


class FileModules:
    """The analyses of the modules one linted file reads, by path (with the :class:`SourceFile` they
    were made from), and the modules being analysed now. Made per file (:meth:`ModuleCache.file_modules`):
    every analysis here is computed under that file's budget."""

    def __init__(self, shared: ModuleCache) -> None:
        self.shared = shared
        self.analyses: dict[Path, tuple[SourceFile, Analysed | None]] = {}
        self.in_progress: set[Path] = set()

    def register(self, analysis: Analysed) -> None:
        """The linted file's own analysis: an import of it from another module finds this one."""
        self.analyses[analysis.source.path] = (analysis.source, analysis)

    def analysis(self, path: Path, depth: int, analyse: Analyse) -> Analysed | None:
        """The analysis of the module at ``path``, made by ``analyse`` (the assembled analysis class)
        when it is not made yet (None: unreadable, unparseable, too deep, or in a cycle of imports)."""
        ws = self.shared.ws
        source = ws.try_read(path)
        if source is None:
            return None
        got = self.analyses.get(path)
        if got is not None and got[0] is source:
            return got[1]
        if path in self.in_progress or depth > MAX_DEPTH:
            return None
        self.in_progress.add(path)
        try:
            parsed = self.shared.parse(source)
            analysis = None
            if parsed is not None:
                module, positions = parsed
                analysis = analyse(source, module, positions, Extraction(), ws, depth)
        finally:
            self.in_progress.discard(path)
        self.analyses[path] = (source, analysis)
        return analysis


_CACHES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def cache_for(ws: Workspace) -> ModuleCache:
    """The module cache of a run (one per :class:`Workspace`)."""
    got = _CACHES.get(ws)
    if got is None:
        got = _CACHES[ws] = ModuleCache(ws)
    return got


class Resolver:
    """Imported names of one analysed module resolved to values of other modules of the repository.
    ``analyse`` builds the analysis of another module (the assembled analysis class, handed down so
    that this module never imports it: :mod:`.base`)."""

    def __init__(self, analysis: Analysed, ws: Workspace, depth: int, analyse: Analyse) -> None:
        self.a = analysis
        self.analyse = analyse
        self.cache = cache_for(ws)
        self.modules = self.cache.file_modules()
        self.depth = depth
        self.here = analysis.source.path.parent
        self.root = self.cache.root_of(self.here)
        self._memo: dict[tuple, Value | None] = {}
        self.used: list[SourceFile] = []
        """The other modules whose values this module read (their findings land there)."""

    def resolve(self, ref: Ref) -> Value | None:
        """The value ``ref`` names in another module of the repository, or None when it names none
        (a module outside the repository, a known callable, a submodule)."""
        key = (ref.qual, ref.importer)
        if key in self._memo:
            got = self._memo[key]
            return copy_value(got) if got is not None else None
        self._memo[key] = None  # a name that leads back to itself: not resolved
        got = self._resolve(ref)
        self._memo[key] = got
        return copy_value(got) if got is not None else None

    def _resolve(self, ref: Ref) -> Value | None:
        qual = ref.qual
        if qual in CALL_QUALS:
            return None
        bare = qual.lstrip(".")
        level = len(qual) - len(bare)
        parts = bare.split(".")
        if level == 0 and (len(parts) < 2 or parts[0] in _MODELLED):
            return None
        for k in range(len(parts) - 1, -1 if level else 0, -1):
            path = self.module_file(parts[:k], level, ref.importer)
            if path is None:
                continue
            with boundary.referenced_at(ref.at):  # a module the root refuses is reported at its import
                other = self.modules.analysis(path, self.depth + 1, self.analyse)
            if other is None:
                return Unk(None)  # in the repository, but not to be read now (a cycle, too deep, broken)
            value = other.module_final().vars.get(parts[k], NOTFOUND)
            if isinstance(value, Ref) and other.resolver is not None:  # re-exported
                value = other.resolver.resolve(value) or value
            if value is NOTFOUND:
                return None if self.module_file(parts[:k + 1], level, ref.importer) else Unk(None)
            if all(o is not other.source for o in self.used):
                self.used.append(other.source)
            for name in parts[k + 1:]:
                if not isinstance(value, ClassV):
                    return Unk(None)
                value = value.scope.owner.class_attr(value.scope, name, None, virtual=False)
            return value
        return None

    def module_file(self, parts: list[str], level: int, importer) -> Path | None:
        """The file of module ``parts`` (relative to ``importer``'s package ``level`` levels up, or
        absolute), inside the repository, or None."""
        return self.cache.module_file(self.here, self.root, parts, level, importer)
