"""git's ignore rules, as git applies them, read without running git.

A path in a work tree is ignored by the patterns of (gitignore(5), "DESCRIPTION"), highest precedence
first:

1. the ``.gitignore`` of its own folder, then of each folder above it up to the top of the work tree
   (a deeper file's patterns, ``!`` exceptions included, win over a shallower one's);
2. ``$GIT_DIR/info/exclude`` (of the common git folder, for a linked worktree);
3. the file named by ``core.excludesFile`` in git's configuration, by default
   ``$XDG_CONFIG_HOME/git/ignore`` (``~/.config/git/ignore``).

Within one source the last matching pattern decides; the first source with a matching pattern
decides. Patterns of (2) and (3) are relative to the top of the work tree, those of a ``.gitignore``
to its folder. A path inside an ignored folder is ignored whatever comes after ("It is not possible to
re-include a file if a parent directory of that file is excluded"). Matching is pathspec's
``GitIgnoreSpec`` (git's wildmatch rules and its precedence within one file).

``core.excludesFile`` is read from the configuration files git reads, in git's order (later wins):
the system file (``$GIT_CONFIG_SYSTEM``, else ``/etc/gitconfig``; none with ``GIT_CONFIG_NOSYSTEM``),
the global files (``$GIT_CONFIG_GLOBAL``, else ``$XDG_CONFIG_HOME/git/config`` then ``~/.gitconfig``)
and the repository's ``config``, following ``[include] path`` and ``[includeIf "gitdir:…"] path`` (also
``gitdir/i:`` and ``onbranch:``) as git does, ten levels deep at most (git's limit). git itself is
never run: a ``git`` process would cost more than the whole lint of a small commit. These files are
the user's own configuration, not part of what is linted (a pull request cannot change them).

A walk outside any git repository still respects the ``.gitignore`` files of the folders it walks.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

_MAX_INCLUDE_DEPTH = 10  # git's MAX_INCLUDE_DEPTH (config.c)
_MAX_FILE_BYTES = 1 << 20  # an ignore or config file larger than this is not read


class Source:
    """The patterns of one ignore file, anchored at the folder ``base`` (an absolute path string)."""

    __slots__ = ("base", "spec", "_cut", "_folder_rules")

    def __init__(self, base: str, lines: list[str]) -> None:
        import pathspec

        self.base = base.rstrip(os.sep) or os.sep
        self.spec = pathspec.GitIgnoreSpec.from_lines(lines)
        self._cut = len(self.base) + (0 if self.base.endswith(os.sep) else 1)
        self._folder_rules = [r for r in map(_rule, lines) if r is not None]

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True (ignored) or False (re-included by a ``!`` pattern) by the last pattern that matches
        ``path`` (absolute, under :attr:`base`); None when none matches."""
        rel = path[self._cut:]
        if os.sep != "/":
            rel = rel.replace(os.sep, "/")
        if not rel or rel.startswith("../"):
            return None
        if is_dir:
            return self._decide_folder(rel)
        return self.spec.check_file(rel).include

    def _decide_folder(self, rel: str) -> bool | None:
        # pathspec answers for the files inside a folder, not for the folder itself: it reads
        # `g/**` as matching `g/` and misses `!*/` re-including every folder (pathspec 1.1), and a
        # folder wrongly ignored hides every file git re-includes in it. So a folder is matched as
        # git's dir.c matches it: a pattern without a slash against the folder's name, one with a
        # slash against its path, with wildmatch; the last pattern that matches decides.
        name = rel.rsplit("/", 1)[-1]
        verdict = None
        for negate, has_slash, pattern in self._folder_rules:
            if _wildmatch(pattern, rel if has_slash else name, False):
                verdict = not negate
        return verdict


def _rule(line: str) -> tuple[bool, bool, str] | None:
    """``(negated, has a slash, pattern)`` of one ignore-file line (gitignore(5)), or None for a blank
    line or a comment. A trailing ``/`` (folders only) is dropped: every pattern here is matched
    against a folder; a leading ``/`` anchors the pattern (it then has a slash)."""
    line = line.rstrip("\r\n")
    stripped = line.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(line):
        stripped = stripped[:-1] + " "  # `foo\ `: an escaped trailing space is kept
    if not stripped or stripped.startswith("#"):
        return None
    negate = stripped.startswith("!")
    if negate:
        stripped = stripped[1:]
    elif stripped.startswith(("\\#", "\\!")):
        stripped = stripped[1:]
    stripped = stripped.rstrip("/") if stripped.endswith("/") else stripped
    if not stripped:
        return None
    has_slash = "/" in stripped
    return negate, has_slash, stripped.lstrip("/") if has_slash else stripped


def _read_lines(path: Path) -> list[str] | None:
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_FILE_BYTES + 1)
    except OSError:
        return None
    if len(data) > _MAX_FILE_BYTES:
        return None
    return data.decode("utf-8", "replace").splitlines()


def _source(base: Path | str, file: Path) -> Source | None:
    lines = _read_lines(file)
    if not lines:
        return None
    try:
        return Source(str(base), lines)
    except Exception:  # noqa: BLE001 - a pattern pathspec cannot read must not stop the run
        return None


# --- the repository's git folders ---------------------------------------------------------------------

def git_dirs(top: Path) -> tuple[Path, Path] | None:
    """(git folder, common git folder) of the work tree ``top``: ``top/.git`` itself, or for a linked
    worktree or submodule the folder a ``.git`` file names (``gitdir: …``) and its ``commondir``."""
    dotgit = top / ".git"
    if dotgit.is_dir():
        gitdir = dotgit
    elif dotgit.is_file():
        lines = _read_lines(dotgit) or []
        named = next((ln[len("gitdir:"):].strip() for ln in lines if ln.startswith("gitdir:")), "")
        if not named:
            return None
        gitdir = Path(named) if os.path.isabs(named) else top / named
    else:
        return None
    common = gitdir
    commondir = _read_lines(gitdir / "commondir")
    if commondir and commondir[0].strip():
        named = commondir[0].strip()
        common = Path(named) if os.path.isabs(named) else gitdir / named
    return gitdir, common


# --- git's configuration --------------------------------------------------------------------------------

_SECTION = re.compile(r'^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]')
_UNESCAPE = re.compile(r"\\(.)")


def _value(raw: str) -> str:
    """A configuration value as git reads it (``config.c``, ``parse_value``): quotes removed, ``\\"``,
    ``\\\\``, ``\\n``, ``\\t``, ``\\b`` escapes, a backslash before a newline continues the value, an
    unquoted ``#`` or ``;`` starts a comment, each unquoted blank inside the value one space, blanks at
    the ends dropped."""
    out: list[str] = []
    quoted = False
    spaces = 0
    i = 0
    while i < len(raw):
        ch = raw[i]
        i += 1
        if not quoted and ch in " \t\r\v\f":
            if out:
                spaces += 1
            continue
        if not quoted and ch in "#;":
            break
        out.append(" " * spaces)
        spaces = 0
        if ch == "\\" and i < len(raw):
            nxt = raw[i]
            i += 1
            if nxt != "\n":
                out.append({"n": "\n", "t": "\t", "b": "\b"}.get(nxt, nxt))
            continue
        if ch == '"':
            quoted = not quoted
            continue
        out.append(ch)
    return "".join(out)


def parse_config(text: str) -> list[tuple[str, str, str | None]]:
    """(section, key, value) entries of a git configuration file, in order. ``section`` is lower-cased
    with its subsection after a dot (``includeif.gitdir:~/work/``; the subsection keeps its case),
    ``key`` lower-cased; a key without ``=`` has the value None (true). Lines continued with a trailing
    backslash are joined."""
    entries: list[tuple[str, str, str | None]] = []
    section = ""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        while line.endswith("\\") and not line.endswith("\\\\") and i < len(lines):
            line = line + "\n" + lines[i]  # the value goes on (a backslash before the newline)
            i += 1
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            m = _SECTION.match(line)
            if m is None:
                section = ""
                continue
            name, sub = m.group(1).lower(), m.group(2)
            # [section "subsection"] (its escapes taken as the characters); the deprecated
            # [section.subsection] is the same name
            section = name if sub is None else name + "." + _UNESCAPE.sub(r"\1", sub)
            line = line[m.end():].strip()
            if not line or line[0] in "#;":
                continue
        key, eq, raw = line.partition("=")
        key = key.strip().lower()
        if section and re.fullmatch(r"[a-z][a-z0-9-]*", key):
            entries.append((section, key, _value(raw) if eq else None))
    return entries


def _wildmatch(pattern: str, text: str, fold: bool) -> bool:
    """git's wildmatch with WM_PATHNAME (``*`` and ``?`` stop at ``/``, ``**`` crosses folders)."""
    return _wildmatch_regex(pattern, fold).fullmatch(text) is not None


@functools.lru_cache(maxsize=1024)
def _wildmatch_regex(pattern: str, fold: bool) -> re.Pattern:
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            j = pattern.find("]", i + 2)
            if j < 0:
                out.append(re.escape("["))
                i += 1
                continue
            body = pattern[i + 1:j]
            if body[:1] in "!^":
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = j + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out), re.I if fold else 0)


def _expand(path: str, including: Path | None) -> Path:
    """A path value of the configuration: ``~/`` expanded; relative to the including file's folder."""
    p = Path(os.path.expanduser(path))
    if not p.is_absolute() and including is not None:
        p = including.parent / p
    return p


def _condition(cond: str, including: Path, gitdir: Path | None, branch: str | None) -> bool:
    for prefix, fold in (("gitdir:", False), ("gitdir/i:", True)):
        if cond.startswith(prefix):
            if gitdir is None:
                return False
            pattern = cond[len(prefix):]
            if pattern.startswith("./"):
                pattern = str(including.parent / pattern[2:])
            pattern = os.path.expanduser(pattern)
            if not os.path.isabs(pattern):
                pattern = "**/" + pattern
            if pattern.endswith("/"):
                pattern += "**"
            names = {str(gitdir), os.path.realpath(gitdir)}
            return any(_wildmatch(pattern, name.replace(os.sep, "/"), fold) for name in names)
    if cond.startswith("onbranch:"):
        pattern = cond[len("onbranch:"):]
        if pattern.endswith("/"):
            pattern += "**"
        return branch is not None and _wildmatch(pattern, branch, False)
    return False  # hasconfig: and conditions git may add later are not met


def config_value(files: list[Path], section: str, key: str, gitdir: Path | None = None,
                 branch: str | None = None) -> tuple[str, Path] | None:
    """The last value of ``section.key`` in ``files`` (read in order, includes followed), with the
    file it was written in; None when unset."""
    found: list[tuple[str, Path] | None] = [None]

    def read(path: Path, depth: int) -> None:
        lines = _read_lines(path)
        if lines is None or depth > _MAX_INCLUDE_DEPTH:
            return
        for sec, k, value in parse_config("\n".join(lines)):
            if sec == section and k == key and value is not None:
                found[0] = (value, path)
            elif k == "path" and value and (sec == "include" or (
                    sec.startswith("includeif.") and _condition(sec[len("includeif."):], path, gitdir, branch))):
                read(_expand(value, path), depth + 1)

    for f in files:
        read(f, 1)
    return found[0]


def config_files(common: Path | None) -> list[Path]:
    """git's configuration files in the order git reads them (system, global, the repository's)."""
    env = os.environ
    files: list[Path] = []
    if not env.get("GIT_CONFIG_NOSYSTEM"):
        files.append(Path(env.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"))
    if env.get("GIT_CONFIG_GLOBAL"):
        files.append(Path(env["GIT_CONFIG_GLOBAL"]))
    else:
        xdg = env.get("XDG_CONFIG_HOME")
        files.append(Path(xdg) / "git" / "config" if xdg else Path.home() / ".config" / "git" / "config")
        files.append(Path.home() / ".gitconfig")
    if common is not None:
        files.append(common / "config")
    return files


def _branch(gitdir: Path) -> str | None:
    head = _read_lines(gitdir / "HEAD") or []
    ref = head[0].strip() if head else ""
    return ref[len("ref: refs/heads/"):] if ref.startswith("ref: refs/heads/") else None


def excludes_file(top: Path, gitdir: Path | None, common: Path | None) -> Path:
    """The file ``core.excludesFile`` names (``~`` expanded; a relative name from the top of the work
    tree, where git runs), else git's default ``$XDG_CONFIG_HOME/git/ignore``."""
    found = config_value(config_files(common), "core", "excludesfile", gitdir,
                         _branch(gitdir) if gitdir is not None else None)
    if found is not None and found[0]:
        p = Path(os.path.expanduser(found[0]))
        return p if p.is_absolute() else top / p
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else Path.home() / ".config") / "git" / "ignore"


# --- the rules of one work tree -------------------------------------------------------------------------

class Repository:
    """The ignore rules of one work tree (``top`` holds ``.git``), or of a walk outside any (``top`` None:
    only the ``.gitignore`` files of the walked folders)."""

    def __init__(self, top: Path | None) -> None:
        self.top = top
        self.outer: list[Source] = []  # info/exclude, then core.excludesFile: below every .gitignore
        self._folders: dict[str, Source | None] = {}
        if top is None:
            return
        dirs = git_dirs(top)
        gitdir, common = dirs if dirs is not None else (None, None)
        if common is not None:
            info = _source(top, common / "info" / "exclude")
            if info is not None:
                self.outer.append(info)
        user = _source(top, excludes_file(top, gitdir, common))
        if user is not None:
            self.outer.append(user)

    def folder(self, folder: str) -> Source | None:
        """The ``.gitignore`` of ``folder`` (an absolute path string), read once."""
        if folder not in self._folders:
            self._folders[folder] = _source(folder, Path(folder) / ".gitignore")
        return self._folders[folder]

    def decide(self, chain: list[Source], path: str, is_dir: bool) -> bool:
        """Whether ``path`` is ignored by ``chain`` (the ``.gitignore`` sources of its folder and those
        above, shallowest first) and the repository's outer sources."""
        for source in reversed(chain):
            verdict = source.decide(path, is_dir)
            if verdict is not None:
                return verdict
        for source in self.outer:
            verdict = source.decide(path, is_dir)
            if verdict is not None:
                return verdict
        return False


def find_top(path: Path, exists=os.path.lexists) -> Path | None:
    """The nearest folder at or above ``path`` holding ``.git`` (a folder or a worktree's file);
    ``exists`` asks (:func:`linter.workspace.lexists` notes each look as a dependency)."""
    for folder in (path, *path.parents):
        try:
            if exists(folder / ".git"):
                return folder
        except OSError:  # pragma: no cover - lexists answers False for a folder it cannot search
            continue
    return None


class Ignores:
    """git's ignore rules for the repositories a run meets, each read once."""

    def __init__(self) -> None:
        self._repos: dict[Path | None, Repository] = {}

    def repository(self, top: Path | None) -> Repository:
        if top not in self._repos:
            self._repos[top] = Repository(top)
        return self._repos[top]

    def ignored(self, path: Path) -> bool:
        """Whether git ignores ``path`` (a file): it, or a folder it is in, below the top of its work tree."""
        path = path.absolute()
        top = find_top(path.parent)
        if top is None:
            return False
        repo = self.repository(top)
        folders = [str(top)]
        for part in path.parent.relative_to(top).parts:
            folders.append(os.path.join(folders[-1], part))
        chain: list[Source] = []
        for i, folder in enumerate(folders):
            if i and repo.decide(chain, folder, True):
                return True  # an ignored folder: nothing in it is re-included
            src = repo.folder(folder)
            if src is not None:
                chain = chain + [src]
        return repo.decide(chain, str(path), False)
