"""Configuration: ``[tool.lint-configs]`` in ``pyproject.toml``, or ``.lint-configs.toml``.

The configuration file closest to the linted file wins (as in ruff): each folder from the file's
own up to the filesystem root is searched for ``.lint-configs.toml`` (a top-level table) and then
``pyproject.toml`` with a ``[tool.lint-configs]`` table. ``--config FILE`` forces one file for all.

Keys: ``target-gpus`` (list of GPU names), ``sglang-version``, ``models`` (table: model path ->
``architectures[0]``), ``select``, ``ignore`` (codes or names), ``exclude``, ``extend-exclude``
(gitignore-style globs relative to the configuration's folder), and ``[[tool.lint-configs.overrides]]``
tables with ``paths`` (globs relative to the configuration's folder) and any of ``target-gpus``,
``sglang-version``, ``models``, ``select``, ``ignore``, ``exclude``, ``extend-exclude``. Later
overrides win; an override's excludes apply to the files its ``paths`` match. An invalid file, an unknown
key or an unknown GPU name raises :class:`ConfigError` (the CLI exits 2).
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

KEYS = ("target-gpus", "sglang-version", "models", "select", "ignore", "exclude", "extend-exclude", "overrides")
OVERRIDE_KEYS = ("paths", "target-gpus", "sglang-version", "models", "select", "ignore", "exclude", "extend-exclude")


class ConfigError(Exception):
    """A configuration problem; the message names the file, the key and what is allowed."""


@dataclass
class Settings:
    """The effective settings for one file. ``origin`` names the configuration file (or '')."""

    target_gpus: list[str] = field(default_factory=list)
    sglang_version: str | None = None
    models: dict[str, str] = field(default_factory=dict)
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
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

    def excluded(self, path: Path, is_dir: bool) -> bool:
        """True when ``path`` matches ``exclude``/``extend-exclude`` (or those of an override whose
        ``paths`` match it). Patterns are gitignore-style, relative to the configuration's folder."""
        try:
            rel = path.resolve().relative_to(self.root).as_posix()
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
        return s


def _glob_match(rel: str, pattern: str) -> bool:
    """gitignore-style glob (as ruff's per-file settings): ``**/`` matches zero or more folders, a
    pattern without ``/`` matches at any depth, ``dir/`` or ``dir/**`` everything below ``dir``."""
    return _spec(pattern).match_file(rel)


@functools.cache
def _spec(pattern: str):
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines([pattern.removeprefix("./")])


def _apply(s: Settings, table: dict) -> None:
    if "target-gpus" in table:
        s.target_gpus = list(table["target-gpus"])
    if "sglang-version" in table:
        s.sglang_version = table["sglang-version"]
    if "models" in table:
        s.models = {**s.models, **table["models"]}
    if "select" in table:
        s.select = list(table["select"])
    if "ignore" in table:
        s.ignore = list(table["ignore"])


def _str_list(value, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings, got {value!r}")
    return value


def _validate(table: dict, where: str, allowed: tuple[str, ...]) -> dict:
    from linter.gpus.catalog import lookup, why_unknown
    from linter.rules import expand_selector
    from linter.sglang.options import known_release

    out: dict = {}
    for key, value in table.items():
        if key not in allowed:
            raise ConfigError(f"{where}: unknown key {key!r}; allowed keys are: {', '.join(allowed)}")
        k = f"{where}: {key!r}"
        if key == "target-gpus":
            names = _str_list(value, k)
            for name in names:
                if lookup(name) is None:
                    raise ConfigError(f"{k}: unknown GPU {name!r}: {why_unknown(name)}")
            out[key] = names
        elif key == "sglang-version":
            if not isinstance(value, str):
                raise ConfigError(f"{k}: expected a version string such as \"0.5.18\" or \"0.4.5.post2\", "
                                  f"got {value!r}")
            try:
                out[key] = known_release(value)
            except ValueError as exc:
                raise ConfigError(f"{k}: {exc}") from None
        elif key == "models":
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                raise ConfigError(f"{k}: expected a table of model path = \"ArchitectureName\"")
            for path, arch in value.items():
                near = _known_architecture_case(arch)
                if near is not None and near != arch:
                    raise ConfigError(f"{k}: {path!r} = {arch!r}: architecture names are case-sensitive in "
                                      f"SGLang; did you mean {near!r}?")
            out[key] = dict(value)
        elif key in ("select", "ignore"):
            codes = _str_list(value, k)
            for c in codes:
                if expand_selector(c) is None:
                    raise ConfigError(f"{k}: unknown rule {c!r}; use a code such as SGL101 or a name such as "
                                      "fa4-deterministic-mla-needs-sm100 (lint-configs --list-rules)")
            out[key] = codes
        elif key in ("exclude", "extend-exclude", "paths"):
            out[key] = _str_list(value, k)
        elif key == "overrides":
            if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                raise ConfigError(f"{k}: expected an array of tables ([[tool.lint-configs.overrides]])")
            out[key] = []
            for i, ov in enumerate(value):
                ov = _validate(ov, f"{where}: overrides[{i}]", OVERRIDE_KEYS)
                if "paths" not in ov:
                    raise ConfigError(f"{where}: overrides[{i}]: missing 'paths' (a list of globs)")
                out[key].append(ov)
    return out


def _known_architecture_case(arch: str) -> str | None:
    """The spelling of a known architecture that equals ``arch`` ignoring case (None if none)."""
    import json
    from importlib import resources

    from linter.sglang.decision import semantics
    from linter.sglang.options import available_versions, load_table

    known = set(semantics()["mla_architectures"]["value"]) | set(
        semantics()["deepseek_family_override_architectures"]["value"])
    known |= set(load_table(available_versions()[-1]).list("absorbed_mla_architectures"))
    raw = json.loads(resources.files("linter.sglang.data").joinpath("models.json").read_text("utf-8"))
    known |= {m["architecture"] for m in raw["models"] + raw.get("patterns", [])}
    return next((k for k in sorted(known) if k.lower() == arch.lower()), None)


def load(path: Path) -> Config | None:
    """Parse a configuration file; None for a ``pyproject.toml`` without ``[tool.lint-configs]``."""
    try:
        raw = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    if path.name == "pyproject.toml":
        table = raw.get("tool", {}).get("lint-configs")
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


class ConfigResolver:
    """Finds the closest configuration for each folder (cached), or uses a forced one."""

    def __init__(self, forced: Path | None = None, isolated: bool = False) -> None:
        self.forced = load(forced) if forced is not None else None
        if forced is not None and self.forced is None:
            raise ConfigError(f"{forced}: no [tool.lint-configs] table")
        self.isolated = isolated
        """No configuration file is read at all (the text seams of the engine and the tests)."""
        self._cache: dict[Path, Config | None] = {}

    def for_dir(self, folder: Path) -> Config | None:
        if self.forced is not None:
            return self.forced
        if self.isolated:
            return None
        folder = folder.resolve()
        if folder in self._cache:
            return self._cache[folder]
        found = None
        for candidate in (folder / ".lint-configs.toml", folder / "pyproject.toml"):
            if candidate.is_file():
                found = load(candidate)
                if found is not None:
                    break
        if found is None and folder.parent != folder:
            found = self.for_dir(folder.parent)
        self._cache[folder] = found
        return found

    def settings_for(self, file: Path) -> Settings:
        cfg = self.for_dir(file.parent)
        return cfg.settings_for(file) if cfg is not None else Settings()
