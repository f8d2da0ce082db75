"""Configuration: ``[tool.lint-configs]`` in ``pyproject.toml``, or ``.lint-configs.toml``.

The configuration file closest to the linted file wins (as in ruff): each folder from the file's
own up to the filesystem root is searched for ``.lint-configs.toml`` (a top-level table) and then
``pyproject.toml`` with a ``[tool.lint-configs]`` table. ``--config FILE`` forces one file for all.

Every key is a row of :data:`KEY_TABLE` (its name, type, where it may be written, how an override
combines it with the inherited value, and its meaning); the README's table and the JSON Schema are
made from it. Rule selection follows ruff: the top-level table, then each matching override in
order, then the command line are *layers*; a layer's ``select`` replaces the selection so far,
``extend-select`` adds to it, ``ignore``/``extend-ignore`` remove from it (and so add to the
inherited ignores); within one layer a more specific selector wins (a code or name over a prefix
over ``ALL``) and at equal specificity ``ignore`` wins. ``per-file-ignores`` removes codes last.
An invalid file, an unknown key (with a "did you mean"), an unknown GPU name or an unknown rule
raises :class:`ConfigError` (the CLI exits 2).
"""

from __future__ import annotations

import functools
import os
import sys
from dataclasses import field
from pathlib import Path

from linter.records import dataclass


@dataclass(frozen=True)
class Key:
    """One configuration key.

    ``type`` is ``str``, ``list[str]``, ``table[str, str]``, ``table[str, list[str]]`` or
    ``list[table]``; ``where`` is ``top`` (the top-level table only), ``override`` (only in
    ``[[overrides]]``) or ``both``; ``merge`` says how an override's value combines with the value it
    inherits: ``replace``, ``extend`` (added to it), ``merge`` (a table: entries added, same key
    replaced) or ``-`` (not inherited); ``meaning`` is the documentation.
    """

    name: str
    type: str
    where: str
    merge: str
    meaning: str

    @property
    def kind(self) -> str:
        """``list`` (a list of strings), ``scalar`` (a string) or ``table``."""
        return "list" if self.type == "list[str]" else "scalar" if self.type == "str" else "table"


def markdown_table() -> str:
    """README's configuration key table, made from :data:`KEY_TABLE`."""
    where = {"top": "top level", "override": "overrides", "both": "both"}
    rows = ["| key | type | where | in an override | meaning |", "|---|---|---|---|---|"]
    for k in KEY_TABLE:
        rows.append(f"| `{k.name}` | {k.type} | {where[k.where]} | {k.merge} | {k.meaning} |")
    return "\n".join(rows) + "\n"


KEY_TABLE: tuple[Key, ...] = (
    Key("target-gpus", "list[str]", "both", "replace",
        "GPUs the launches run on (H100, B200, p5.48xlarge …), used when a file declares none; in an override it "
        "replaces the inherited list"),
    Key("extend-target-gpus", "list[str]", "both", "extend", "GPUs added to the inherited target-gpus"),
    Key("sglang-version", "str", "both", "replace",
        "the SGLang release to check against (default: what the file pins, else the newest known)"),
    Key("models", "table[str, str]", "both", "merge",
        "model path -> architectures[0], for private checkpoints"),
    Key("select", "list[str]", "both", "replace",
        "rule codes, names or prefixes to check (default ALL); replaces the inherited selection, as ruff's select"),
    Key("extend-select", "list[str]", "both", "extend", "rule codes, names or prefixes added to the selection"),
    Key("ignore", "list[str]", "both", "extend",
        "rule codes, names or prefixes not to report; adds to the inherited ignores, as ruff's ignore"),
    Key("extend-ignore", "list[str]", "both", "extend", "the same as ignore (ruff's deprecated spelling)"),
    Key("per-file-ignores", "table[str, list[str]]", "top", "-",
        "glob -> codes not to report in the files the glob matches (relative to the configuration's folder), "
        "in addition to ignore"),
    Key("exclude", "list[str]", "both", "extend",
        "gitignore-style globs (relative to the configuration's folder) of files and folders not to lint, besides "
        ".gitignore and the usual tool folders; in an override, applied to the files its paths match"),
    Key("extend-exclude", "list[str]", "both", "extend", "the same as exclude"),
    Key("baseline", "str", "top", "-",
        "a baseline file (relative to the configuration's folder) used as --baseline when the command line names "
        "none"),
    Key("overrides", "list[table]", "top", "-",
        "per-path tables ([[tool.lint-configs.overrides]]) applied in order to the files their paths match"),
    Key("paths", "list[str]", "override", "-",
        "gitignore-style globs (relative to the configuration's folder) of the files an override applies to "
        "(required)"),
)
BY_NAME = {k.name: k for k in KEY_TABLE}
KEYS = tuple(k.name for k in KEY_TABLE if k.where in ("top", "both"))
"""The keys of the top-level table, in :data:`KEY_TABLE`'s order (``linter.config_schema`` reads it)."""
OVERRIDE_KEYS = tuple(k.name for k in KEY_TABLE if k.where in ("override", "both"))
"""The keys of an ``[[overrides]]`` table."""

class ConfigError(Exception):
    """A configuration problem; the message names the file, the key and what is allowed."""


@dataclass(frozen=True)
class Selection:
    """One layer of rule selection (the top-level table, an override, or the command line): its
    ``select`` (None = keep the inherited selection), ``extend_select`` and ``ignore`` selectors."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    @classmethod
    def of(cls, table: dict) -> Selection | None:
        """The layer written in a configuration table, or None when it selects nothing."""
        if not any(k in table for k in ("select", "extend-select", "ignore", "extend-ignore")):
            return None
        return cls(tuple(table["select"]) if "select" in table else None, tuple(table.get("extend-select", ())),
                   tuple(table.get("ignore", ())) + tuple(table.get("extend-ignore", ())))


def _specificity(selector: str) -> int:
    """ALL < a prefix (longer is more specific) < a whole code or name, as ruff ranks selectors."""
    from linter.codes import code_for

    if selector.strip().upper() == "ALL":
        return 0
    if code_for(selector) is not None:
        return 100
    return len(selector.strip())


def selected_codes(layers: list[Selection], per_file_ignores: list[str] = (), preview: bool = False) -> set[str]:
    """The rule codes checked after applying ``layers`` in order to the default selection (ALL),
    then removing ``per_file_ignores`` (ruff's resolution of select/extend-select/ignore). Rules in
    preview are left out unless ``preview`` is on or a layer selects their exact code or name (as
    ruff). A new set each call (the caller may change it)."""
    codes = set(_selected_codes(tuple(layers), tuple(per_file_ignores)))
    if not preview:
        from linter.codes import code_for, preview_codes

        named = {code_for(s) for layer in layers for s in (layer.select or ()) + layer.extend_select}
        codes -= {c for c in preview_codes() if c not in named}
    return codes


@functools.lru_cache(maxsize=256)
def _selected_codes(layers: tuple[Selection, ...], per_file_ignores: tuple[str, ...]) -> frozenset[str]:
    # Every file of a run asks (three times per launch file); its layers repeat from file to file.
    from linter.codes import catalog, expand_selector

    codes = set(catalog())
    for layer in layers:
        updates: dict[str, bool] = {}
        picks = [(s, True) for s in (layer.select or ()) + layer.extend_select] + [(s, False) for s in layer.ignore]
        # ascending specificity, select before ignore at equal specificity: later updates win
        for sel, on in sorted(picks, key=lambda p: (_specificity(p[0]), not p[1])):
            for code in expand_selector(sel) or ():
                updates[code] = on
        if layer.select is not None:
            codes = {c for c, on in updates.items() if on}
        else:
            codes |= {c for c, on in updates.items() if on}
            codes -= {c for c, on in updates.items() if not on}
    for sel in per_file_ignores:
        codes -= expand_selector(sel) or set()
    return frozenset(codes)


@dataclass
class Settings:
    """The effective settings for one file. ``origin`` names the configuration file (or '');
    ``selections`` are the configuration's selection layers that apply to the file, in order;
    ``per_file_ignores`` the codes its ``per-file-ignores`` globs remove."""

    target_gpus: list[str] = field(default_factory=list)
    sglang_version: str | None = None
    models: dict[str, str] = field(default_factory=dict)
    selections: list[Selection] = field(default_factory=list)
    per_file_ignores: list[str] = field(default_factory=list)
    origin: str = ""


@dataclass
class Config:
    """One parsed configuration file."""

    path: Path | None
    root: Path
    base: dict = field(default_factory=dict)
    overrides: list[dict] = field(default_factory=list)

    @property
    def exclude(self) -> list[str]:
        return list(self.base.get("exclude", [])) + list(self.base.get("extend-exclude", []))

    def excluded(self, path: Path | str, is_dir: bool) -> bool:
        """True when ``path`` matches ``exclude``/``extend-exclude`` (or those of an override whose
        ``paths`` match it). Patterns are gitignore-style, relative to the configuration's folder."""
        if not self.exclude and not any(ov.get("exclude") or ov.get("extend-exclude") for ov in self.overrides):
            return False
        try:
            rel = Path(path).resolve().relative_to(self.root).as_posix()
        except ValueError:
            return False
        if is_dir:
            rel += "/"
        if any(_glob_match(rel, pat) for pat in self.exclude):
            return True
        for ov in self.overrides:
            pats = list(ov.get("exclude", [])) + list(ov.get("extend-exclude", []))
            if pats and any(_glob_match(rel, p) for p in ov["paths"]) and any(_glob_match(rel, p) for p in pats):
                return True
        return False

    def _within_stop(self, candidate: Path) -> bool:
        if self.stop is None or not os.path.islink(candidate):
            return True
        from linter.boundary import is_within

        return is_within(os.path.realpath(candidate), str(self.stop))

    def settings_for(self, file: Path) -> Settings:
        """Settings for ``file``: the base keys, then every override whose ``paths`` match."""
        s = Settings(origin=self.path.name if self.path else "")
        _apply(s, self.base)
        try:
            rel = file.resolve().relative_to(self.root).as_posix()
        except ValueError:
            rel = file.as_posix()
        for ov in self.overrides:
            if any(_glob_match(rel, pat) for pat in ov["paths"]):
                _apply(s, ov)
        for pattern, codes in self.base.get("per-file-ignores", {}).items():
            if _glob_match(rel, pattern):
                s.per_file_ignores.extend(codes)
        return s

    @property
    def baseline(self) -> Path | None:
        """The ``baseline`` file, resolved against the configuration's folder (None when not set)."""
        value = self.base.get("baseline")
        return self.root / value if value else None


def _glob_match(rel: str, pattern: str) -> bool:
    """gitignore-style glob (as ruff's per-file settings): ``**/`` matches zero or more folders, a
    pattern without ``/`` matches at any depth, ``dir/`` or ``dir/**`` everything below ``dir``."""
    return _spec(pattern).match_file(rel)


@functools.cache
def _spec(pattern: str):
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines([pattern.removeprefix("./")])


def _apply(s: Settings, table: dict) -> None:
    """Lay ``table`` (the top-level keys or one override) over ``s`` as :data:`KEY_TABLE` says."""
    if "target-gpus" in table:
        s.target_gpus = list(table["target-gpus"])
    s.target_gpus += [g for g in table.get("extend-target-gpus", []) if g not in s.target_gpus]
    if "sglang-version" in table:
        s.sglang_version = table["sglang-version"]
    if "models" in table:
        s.models = {**s.models, **table["models"]}
    layer = Selection.of(table)
    if layer is not None:
        s.selections.append(layer)


def _str_list(value, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings, got {value!r}")
    return value


def _validate(table: dict, where: str, allowed: tuple[str, ...]) -> dict:
    """``table`` (the top-level table or one override, named ``where`` in messages) checked key by key
    with :data:`_CHECKS` and normalised (a release string to the known release, lists copied as
    lists); raises :class:`ConfigError` at the first unknown key (outside ``allowed``) or bad value."""
    out: dict = {}
    for key, value in table.items():
        if key not in allowed:
            raise ConfigError(f"{where}: unknown key {key!r}; {_did_you_mean(key, allowed)}allowed keys are: "
                              f"{', '.join(allowed)}")
        out[key] = _CHECKS[key](value, f"{where}: {key!r}", where)
    return out


def _gpu_names(value, k: str, where: str) -> list[str]:
    """``target-gpus``/``extend-target-gpus``: GPU names the catalog knows."""
    from linter.gpus.catalog import lookup, why_unknown

    names = _str_list(value, k)
    for name in names:
        if lookup(name) is None:
            raise ConfigError(f"{k}: unknown GPU {name!r}: {why_unknown(name)}")
    return names


def _release(value, k: str, where: str) -> str:
    """``sglang-version``: a release with an option table (its canonical spelling)."""
    from linter.sglang.options import known_release

    if not isinstance(value, str):
        raise ConfigError(f"{k}: expected a version string such as \"0.5.18\" or \"0.4.5.post2\", "
                          f"got {value!r}")
    try:
        return known_release(value)
    except ValueError as exc:
        raise ConfigError(f"{k}: {exc}") from None


def _models(value, k: str, where: str) -> dict:
    """``models``: model path -> architecture name (a known architecture in another case is refused:
    SGLang's names are case-sensitive)."""
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ConfigError(f"{k}: expected a table of model path = \"ArchitectureName\"")
    for path, arch in value.items():
        near = _known_architecture_case(arch)
        if near is not None and near != arch:
            raise ConfigError(f"{k}: {path!r} = {arch!r}: architecture names are case-sensitive in "
                              f"SGLang; did you mean {near!r}?")
    return dict(value)


def _selectors(value, k: str, where: str) -> list[str]:
    """``select``/``extend-select``/``ignore``/``extend-ignore``: rule codes, names or prefixes."""
    return _codes(value, k)


def _per_file_ignores(value, k: str, where: str) -> dict:
    """``per-file-ignores``: glob -> rule selectors."""
    if not isinstance(value, dict):
        raise ConfigError(f"{k}: expected a table of glob = [codes]")
    return {glob: _codes(codes, f"{k}: {glob!r}") for glob, codes in value.items()}


def _baseline(value, k: str, where: str) -> str:
    """``baseline``: a non-empty path."""
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{k}: expected a path such as \".lint-configs-baseline.json\", got {value!r}")
    return value


def _globs(value, k: str, where: str) -> list[str]:
    """``exclude``/``extend-exclude``/``paths``: gitignore-style globs pathspec accepts."""
    patterns = _str_list(value, k)
    for pattern in patterns:
        problem = glob_problem(pattern)
        if problem:
            raise ConfigError(f"{k}: invalid glob {pattern!r}: {problem}")
    return patterns


def glob_problem(pattern: str) -> str:
    """Why pathspec cannot read the gitignore-style ``pattern``, or ``""`` when it can."""
    try:
        _spec(pattern)
    except Exception as exc:  # noqa: BLE001 - pathspec raises several kinds for a bad glob
        return str(exc) or type(exc).__name__
    return ""


def _overrides(value, k: str, where: str) -> list[dict]:
    """``overrides``: an array of tables, each validated with :data:`OVERRIDE_KEYS` and required to
    have ``paths``."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ConfigError(f"{k}: expected an array of tables ([[tool.lint-configs.overrides]])")
    out = []
    for i, ov in enumerate(value):
        ov = _validate(ov, f"{where}: overrides[{i}]", OVERRIDE_KEYS)
        if "paths" not in ov:
            raise ConfigError(f"{where}: overrides[{i}]: missing 'paths' (a list of globs)")
        out.append(ov)
    return out


_CHECKS = {
    "target-gpus": _gpu_names, "extend-target-gpus": _gpu_names,
    "sglang-version": _release,
    "models": _models,
    "select": _selectors, "extend-select": _selectors, "ignore": _selectors, "extend-ignore": _selectors,
    "per-file-ignores": _per_file_ignores,
    "baseline": _baseline,
    "exclude": _globs, "extend-exclude": _globs, "paths": _globs,
    "overrides": _overrides,
}
"""How each key of :data:`KEY_TABLE` is checked: ``check(value, "where: 'key'", where) -> value``."""



def _did_you_mean(key: str, allowed: tuple[str, ...]) -> str:
    """``did you mean 'target-gpus'? `` for a near miss (difflib), else ''."""
    import difflib

    near = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    return f"did you mean {near[0]!r}? " if near else ""


def _codes(value, where: str) -> list[str]:
    from linter.codes import expand_selector

    codes = _str_list(value, where)
    for c in codes:
        if expand_selector(c) is None:
            raise ConfigError(f"{where}: unknown rule {c!r}; use a code such as SGL101 or a name such as "
                              "fa4-deterministic-mla-needs-sm100 (lint-configs --list-rules)")
    return codes


def _known_architecture_case(arch: str) -> str | None:
    """The spelling of a known architecture that equals ``arch`` ignoring case (None if none)."""
    from linter import datafiles
    from linter.sglang.decision import semantics
    from linter.sglang.options import available_versions, load_table

    known = set(semantics()["mla_architectures"]["value"]) | set(
        semantics()["deepseek_family_override_architectures"]["value"])
    known |= set(load_table(available_versions()[-1]).list("absorbed_mla_architectures"))
    raw = datafiles.load_json("linter.sglang.data", "models.json")
    known |= {m["architecture"] for m in raw["models"] + raw.get("patterns", [])}
    return next((k for k in sorted(known) if k.lower() == arch.lower()), None)


def load(path: Path) -> Config | None:
    """Parse a configuration file; None for a ``pyproject.toml`` without ``[tool.lint-configs]``."""
    # Parsed only when a configuration file exists (tomllib is not needed otherwise).
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    try:
        raw = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: nested too deeply to read") from None
    if path.name == "pyproject.toml":
        tool = raw.get("tool", {})
        if not isinstance(tool, dict):
            # Not ours to judge, but [tool.lint-configs] cannot be inside it.
            raise ConfigError(f"{path}: 'tool' must be a table ([tool.NAME] sections), got {tool!r:.60}")
        table = tool.get("lint-configs")
        if table is None:
            return None
        where = f"{path} [tool.lint-configs]"
    else:
        table, where = raw, str(path)
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table")
    valid = _validate(table, where, KEYS)
    return Config(path=path, root=path.parent.resolve(), base={k: v for k, v in valid.items() if k != "overrides"},
                  overrides=valid.get("overrides", []))


_UNSEEN = object()


class ConfigResolver:
    """Finds the closest configuration for each folder (cached), or uses a forced one."""

    def __init__(self, forced: Path | None = None, isolated: bool = False) -> None:
        self.forced = load(forced) if forced is not None else None
        if forced is not None and self.forced is None:
            raise ConfigError(f"{forced}: no [tool.lint-configs] table")
        self.isolated = isolated
        """No configuration file is read at all (the text seams of the engine and the tests)."""
        self._cache: dict[str, Config | None] = {}  # folder (as given, and real) -> its configuration
        self._real: dict[str, str] = {}  # folder as given -> its real path
        self.stop: Path | None = None
        """The run's root (real path): the search goes no higher, and a configuration file there that is
        a link out of it is not read (a pull request must not make the linter read outside its tree)."""

    def _resolve(self, folder: str) -> str:
        # A folder whose parent was resolved and that is no symbolic link is its parent's real path
        # joined with its name: one lstat instead of one per component (the walk goes top-down).
        real = self._real.get(folder)
        if real is None:
            head, name = os.path.split(folder)
            parent = self._real.get(head)
            if parent is not None and name not in ("", ".", "..") and not os.path.islink(folder):
                real = os.path.join(parent, name)
            else:
                real = os.path.realpath(folder)
            self._real[folder] = real
        return real

    def for_dir(self, folder: Path | str, listing=None) -> Config | None:
        """The configuration that applies to the files in ``folder`` (the closest ``.lint-configs.toml``
        or ``pyproject.toml`` with a ``[tool.lint-configs]`` table at or above it, no higher than
        :attr:`stop`), None when there is none. Raises ConfigError for an invalid one. ``listing``: the names
        in ``folder`` when the caller just listed it (a configuration file not among them is not looked
        for). Strings inside, not :class:`~pathlib.Path`: the walk asks for every folder of a tree, and a
        Path costs more than the look."""
        if self.forced is not None:
            return self.forced
        if self.isolated:
            return None
        # The cache is keyed by the folder as given first: resolving a real path costs an lstat per
        # component, and the walk asks for every file's folder.
        given = os.fspath(folder)
        found = self._cache.get(given, _UNSEEN)
        if found is not _UNSEEN:
            return found
        real = self._resolve(given)
        found = self._cache.get(real, _UNSEEN)
        if found is not _UNSEEN:
            self._cache[given] = found
            return found
        found = None
        for name in (".lint-configs.toml", "pyproject.toml"):
            if listing is not None and name not in listing:
                continue
            candidate = os.path.join(real, name)
            if os.path.isfile(candidate) and self._within_stop(candidate):
                found = load(Path(candidate))
                if found is not None:
                    break
        parent = os.path.dirname(real)
        if found is None and parent != real and (self.stop is None or real != os.fspath(self.stop)):
            self._real.setdefault(parent, parent)  # a real path's parent is real
            found = self.for_dir(parent)
        self._cache[real] = found
        self._cache[given] = found
        return found

    def _within_stop(self, candidate: Path | str) -> bool:
        if self.stop is None or not os.path.islink(candidate):
            return True
        from linter.boundary import is_within

        return is_within(os.path.realpath(candidate), str(self.stop))

    def settings_for(self, file: Path) -> Settings:
        cfg = self.for_dir(file.parent)
        return cfg.settings_for(file) if cfg is not None else Settings()
