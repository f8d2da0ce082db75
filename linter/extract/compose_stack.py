"""The compose files ``docker compose`` reads together, and each service as their merge defines it.

A compose file is rarely run alone. What this module reproduces (compose-go v2, the loader of
``docker compose``; Compose Specification, "Merge and override", "Extend", "Include"):

* **which files** (compose-go ``cli/options.go``, ``ProjectOptions.getConfigPaths``): ``COMPOSE_FILE``
  in the project's ``.env`` names them (split on ``COMPOSE_PATH_SEPARATOR``, default ``:``; relative
  to the project folder); without it, the first of ``compose.yaml``, ``compose.yml``,
  ``docker-compose.yml``, ``docker-compose.yaml`` in the folder (``DefaultFileNames``) followed by
  the first of ``compose.override.yml``, ``compose.override.yaml``, ``docker-compose.override.yml``,
  ``docker-compose.override.yaml`` (``DefaultOverrideFileNames``) when there is one. A file in no
  such stack is taken alone (``docker compose -f FILE``), an override file with its base;
* **each file** is loaded with its ``include:`` (every listed file's services are added, loaded from
  that file's folder with the ``.env`` there) and its services' ``extends:`` (``extends: NAME`` in the
  same file, ``extends: {service: NAME, file: PATH}`` from another file relative to this one; the
  extended service is merged under the extending one; a cycle is an error);
* then the files are **merged in order**, each over the ones before: ``command`` and ``entrypoint``
  (and every scalar such as ``image``) are replaced, ``environment`` is merged by key, ``env_file``
  entries are appended. A service is therefore a list of *layers* (one service mapping per file or
  extends step, earliest first); a value is read from the last layer that sets it, so a finding is
  located in the file that wrote the value.

Interpolation uses the ``.env`` of the project folder (the first file's) for every file of a stack
and of its ``extends``; an included file uses the ``.env`` of its own folder.
"""

from __future__ import annotations

from pathlib import Path

from linter import limits
from linter.extract.compose_env import parse_dotenv
from linter.formats import COMPOSE_OVERRIDE_FILES
from linter.launch import MStr, Problem
from linter.records import dataclass, field
from linter.source import SourceFile, Span
from linter.workspace import Workspace

DEFAULT_FILES = ("compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml")
OVERRIDE_FILES = COMPOSE_OVERRIDE_FILES


@dataclass
class Layer:
    """One service mapping of one file: ``node`` (a MappingNode) in ``source``, interpolated
    with ``env``; relative paths in it resolve from ``folder``."""

    node: object
    source: SourceFile
    env: dict[str, MStr]
    folder: Path


@dataclass
class Service:
    """A service as the stack runs it: ``layers`` earliest first (a base, then what overrides it)."""

    name: str
    layers: list[Layer] = field(default_factory=list)

    def get(self, key: str):
        """``(key node, value node, layer)`` of the last layer that sets ``key``, or ``(None, None, None)``."""
        from linter.extract import yamltree

        for layer in reversed(self.layers):
            k, v = yamltree.get(layer.node, key)
            if k is not None:
                return k, v, layer
        return None, None, None


@dataclass
class Stack:
    """The files compose reads together (``how`` says why, in words) and the services they define."""

    files: list[SourceFile]
    how: str
    services: dict[str, Service] = field(default_factory=dict)
    related: list[SourceFile] = field(default_factory=list)
    incomplete: bool = False
    """An override whose base is missing: a base would supply values the linter cannot see."""


class _Loader:
    """Reads and parses compose files once per extraction; collects problems at ``origin`` (the linted
    file) when the problem lies in another file that cannot be parsed."""

    def __init__(self, ws: Workspace, origin: SourceFile, origin_root, problems: list[Problem]) -> None:
        self.ws = ws
        self.origin = origin
        self.problems = problems
        self.roots: dict[Path, tuple[SourceFile, object]] = {Path(_norm(origin.path)): (origin, origin_root)}
        self.related: list[SourceFile] = []
        self.envs: dict[Path, dict[str, MStr]] = {}
        self.included: dict[str, dict[str, Service]] = {}
        """The services of each file included so far: a file included twice (a diamond, or a list
        naming it four times) is expanded once."""
        self.budget = limits.budget()

    def relate(self, f: SourceFile) -> None:
        if f is not self.origin and all(r.path != f.path for r in self.related):
            self.related.append(f)

    def load(self, path: Path, where: Span | None):
        """(source, root node) of a compose file, or None (reported at ``where``)."""
        from linter.boundary import referenced_at
        from linter.extract import yamltree
        from linter.extract.yamlload import InvalidYaml

        path = Path(_norm(path))
        if path in self.roots:
            return self.roots[path]
        with referenced_at(where):
            if self.ws.refuse(path):  # outside the root: SGL005 at the reference, nothing read
                self.roots[path] = None
                return None
        source = self.ws.try_read(path)
        if source is None:
            self.problems.append(Problem(f"{_show(self.ws, path)} cannot be read (missing or not text); the services "
                                         "it defines are not checked", where or Span(self.origin, 0, 0)))
            self.roots[path] = None
            return None
        try:
            root = yamltree.load_tree(source)
        except (InvalidYaml, RecursionError, ValueError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else ""
            self.problems.append(Problem(f"{source.display} is not valid YAML ({first}); the services it defines "
                                         "are not checked", where or Span(self.origin, 0, 0)))
            self.roots[path] = None
            return None
        if root is None:  # nested past the limit (SGL004 recorded)
            self.roots[path] = None
            return None
        self.roots[path] = (source, root)
        self.relate(source)
        return source, root

    def dotenv(self, folder: Path) -> dict[str, MStr]:
        folder = Path(_norm(folder))
        if folder not in self.envs:
            f = None if self.ws.refuse(folder / ".env") else self.ws.try_read(folder / ".env")
            self.envs[folder] = parse_dotenv(f) if f is not None else {}
            if f is not None:
                self.relate(f)
        return self.envs[folder]


def _norm(path: Path) -> str:
    import os

    return os.path.normpath(str(path))


def _norm_str(folder: str, written: str) -> str:
    """:func:`_norm` of ``folder / written``, on strings (an include graph resolves many of them)."""
    import os

    return os.path.normpath(os.path.join(folder, written))


def _show(ws: Workspace, path: Path) -> str:
    return ws.display(Path(_norm(path)))


def stack_paths(source: SourceFile, ws: Workspace) -> tuple[list[list[Path]], str, list[str]]:
    """The stacks ``source`` belongs to, as lists of paths (in merge order), a word on how they were
    found, and problems in words (an override with no base)."""
    folder = source.path.parent
    me = Path(_norm(source.path))
    ws.survey(folder)  # its .env and eight compose file names: one listing answers the missing ones
    dotenv = ws.try_read(folder / ".env")
    env = parse_dotenv(dotenv) if dotenv is not None else {}
    problems: list[str] = []
    compose_file = env.get("COMPOSE_FILE")
    if compose_file is not None and compose_file.known and compose_file.text.strip():
        sep_value = env.get("COMPOSE_PATH_SEPARATOR")
        sep = sep_value.text if sep_value is not None and sep_value.known and sep_value.text else ":"
        files = [Path(_norm(folder / p.strip())) for p in compose_file.text.split(sep) if p.strip()]
        if me in files:
            return [files], "COMPOSE_FILE in .env", problems
        # not in the project's stack: run with -f; an override still needs its base (below)
    base = next((folder / n for n in DEFAULT_FILES if _exists(ws, folder / n)), None)
    override = next((folder / n for n in OVERRIDE_FILES if _exists(ws, folder / n)), None)
    if source.path.name in OVERRIDE_FILES:
        if base is None:
            problems.append(f"{source.path.name} is an override file but there is no compose.yaml (or "
                            "docker-compose.yml) beside it: docker compose never reads it alone; its services "
                            "are checked on their own")
            return [[me]], "", problems
        return [[Path(_norm(base)), me]], "", problems
    if base is not None and Path(_norm(base)) == me and override is not None:
        return [[me, Path(_norm(override))]], "", problems
    return [[me]], "", problems


def _exists(ws: Workspace, path: Path) -> bool:
    # (a link out of the root is refused first: SGL005, never looked at)
    return ws.is_file(path) or ws.try_read(path) is not None


def build(source: SourceFile, root, ws: Workspace, problems: list[Problem]) -> list[Stack]:
    """The stacks of ``source`` (parsed as ``root``) with their services merged."""
    paths_list, how, words = stack_paths(source, ws)
    for w in words:
        problems.append(Problem(w, Span(source, 0, 0)))
    out = []
    for paths in paths_list:
        loader = _Loader(ws, source, root, problems)
        project = paths[0].parent
        env = loader.dotenv(project)
        stack = Stack(files=[], how=how or " + ".join(p.name for p in paths), incomplete=bool(words))
        for p in paths:
            got = loader.load(p, Span(source, 0, 0))
            if got is None:
                continue
            f, r = got
            stack.files.append(f)
            for name, svc in _file_services(loader, f, r, env, p.parent, depth=0, seen_files=(str(p),)).items():
                if name in stack.services:
                    stack.services[name].layers.extend(svc.layers)
                else:
                    stack.services[name] = svc
        stack.related = list(loader.related)
        out.append(stack)
    return out


def _file_services(loader: _Loader, source: SourceFile, root, env, folder: Path, depth: int,
                   seen_files: tuple) -> dict[str, Service]:
    """The services of one file: its ``include``s first, then its own (with ``extends`` resolved)."""
    from linter.extract import yamltree
    from linter.extract.yamlload import MappingNode, ScalarNode, SequenceNode

    services: dict[str, Service] = {}
    if not isinstance(root, MappingNode):
        return services
    _, include = yamltree.get(root, "include")
    folder_str = str(folder)
    if include is not None:
        items = include.value if isinstance(include, SequenceNode) else [include]
        for item in items:
            paths = []
            if isinstance(item, ScalarNode):
                paths = [item]
            elif isinstance(item, MappingNode):
                _, p = yamltree.get(item, "path")
                paths = p.value if isinstance(p, SequenceNode) else ([p] if p is not None else [])
            for pnode in paths:
                if not isinstance(pnode, ScalarNode) or not isinstance(pnode.value, str):
                    continue
                loader.budget.step("following compose includes", 5)
                where = Span(source, pnode.start_mark.index, pnode.end_mark.index)
                target = _norm_str(folder_str, pnode.value)
                if target in seen_files:
                    loader.problems.append(Problem(f"include of {pnode.value} loops back to a file already being "
                                                   "read (compose stops with an error)", where))
                    continue
                if depth >= limits.MAX_INCLUDE_DEPTH:
                    loader.budget.hit("MAX_INCLUDE_DEPTH", f"the include of {pnode.value}", where,
                                      "the services it defines are not checked")
                    continue
                got = loader.included.get(target)
                if got is None:
                    got = loader.included[target] = _included(loader, target, pnode.value, where, depth, seen_files)
                for name, svc in got.items():
                    if name not in services:
                        services[name] = Service(name, list(svc.layers))
    _, svcs = yamltree.get(root, "services")
    if not isinstance(svcs, MappingNode):
        return services
    for name_node, node in yamltree.items(svcs):
        if not isinstance(node, MappingNode):
            continue
        name = str(name_node.value)
        layers = _extends(loader, Layer(node, source, env, folder), name, svcs, depth, ((source.path, name),))
        services[name] = Service(name, layers)
    return services


def _included(loader: _Loader, target_str: str, written: str, where: Span, depth: int,
              seen_files: tuple) -> dict[str, Service]:
    """The services of the file an ``include`` names (``written``, resolved to ``target_str``)."""
    target = Path(target_str)
    got = loader.load(target, where) if _is_file(loader, target) else None
    if got is None:
        if not _is_file(loader, target):
            loader.problems.append(Problem(f"include of {written}: no such file (docker compose stops with an error); "
                                           "the rest is checked", where))
        return {}
    inc_source, inc_root = got
    inc_env = loader.dotenv(target.parent)
    return _file_services(loader, inc_source, inc_root, inc_env, target.parent, depth + 1,
                          seen_files + (target_str,))


def _is_file(loader: _Loader, path: Path) -> bool:
    if not loader.ws.may_read(path):
        return True  # outside the root: never looked at; ``_Loader.load`` refuses it at the reference (SGL005)
    return loader.ws.is_file(path) or loader.ws.try_read(path) is not None


def _extends(loader: _Loader, layer: Layer, name: str, svcs, depth: int, chain: tuple) -> list[Layer]:
    """``layer`` with the layers of the service it extends in front (recursively)."""
    from linter.extract import yamltree
    from linter.extract.yamlload import MappingNode, ScalarNode

    key, ext = yamltree.get(layer.node, "extends")
    if key is None:
        return [layer]
    target_name, file_node = None, None
    if isinstance(ext, ScalarNode):
        target_name = ext.value
    elif isinstance(ext, MappingNode):
        _, s = yamltree.get(ext, "service")
        _, file_node = yamltree.get(ext, "file")
        target_name = s.value if isinstance(s, ScalarNode) else None
    where = Span(layer.source, key.start_mark.index, ext.end_mark.index)
    loader.budget.step("following compose extends", 5)
    if not isinstance(target_name, str):
        loader.problems.append(Problem(f"service {name!r}: extends names no service", where))
        return [layer]
    source, folder, services_node = layer.source, layer.folder, svcs
    if isinstance(file_node, ScalarNode) and isinstance(file_node.value, str):
        path = Path(_norm(layer.folder / file_node.value))
        got = loader.load(path, where) if _is_file(loader, path) else None
        if got is None:
            if not _is_file(loader, path):
                loader.problems.append(Problem(f"service {name!r}: extends from {file_node.value}: no such file "
                                               "(docker compose stops with an error)", where))
            return [layer]
        source, root = got
        folder = path.parent
        _, services_node = yamltree.get(root, "services") if isinstance(root, MappingNode) else (None, None)
    if depth >= limits.MAX_INCLUDE_DEPTH and (source.path, target_name) not in chain:
        loader.budget.hit("MAX_INCLUDE_DEPTH", f"the extends chain of service {name!r}", where,
                          "the services it extends are not checked")
        return [layer]
    if (source.path, target_name) in chain:
        steps = " -> ".join(f"{Path(p).name}:{n}" for p, n in chain + ((source.path, target_name),))
        loader.problems.append(Problem(f"service {name!r}: extends makes a cycle ({steps}); docker compose stops "
                                       "with an error", where))
        return [layer]
    _, base = yamltree.get(services_node, target_name) if isinstance(services_node, MappingNode) else (None, None)
    if not isinstance(base, MappingNode):
        loader.problems.append(Problem(f"service {name!r}: extends {target_name!r}, which "
                                       f"{source.display} does not define (docker compose stops with an error)", where))
        return [layer]
    base_layer = Layer(base, source, layer.env, folder)
    return _extends(loader, base_layer, target_name, services_node, depth + 1,
                    chain + ((source.path, target_name),)) + [layer]


__all__ = ["Layer", "Service", "Stack", "build", "stack_paths", "DEFAULT_FILES", "OVERRIDE_FILES"]


def stack_mentions(source: SourceFile, ws: Workspace) -> bool:
    """True when a compose file that does not mention SGLang runs with files that do (an override
    that only changes the environment of its base's SGLang service). The compose row's ``read_with``
    (:mod:`linter.formats`)."""
    from linter.mentions import mentions_sglang

    for paths in stack_paths(source, ws)[0]:
        for p in paths:
            other = ws.try_read(p) if p != source.path else None
            if other is not None and mentions_sglang(other.text):
                return True
    return False
