"""The format registry: one row per file format lint-configs reads.

A row says how a file of that format is recognised — file-name extensions and patterns, shebang
interpreters, and a cheap look at the content (a YAML file with a top-level ``services:`` is compose)
— which module extracts it (imported only when a file needs it) and whether that module's parser is
heavy to import. Discovery, the engine, the skip messages, the pre-commit hooks' ``files`` pattern
(a test keeps ``.pre-commit-hooks.yaml`` in agreement) and the per-format test templates all read
this table: adding a format is one row here plus one module under ``linter/extract/``.

A format module exposes ``extract(source, ws) -> Extraction``. Each row also carries ``sample``: a
minimal file of the format with ``{head}`` where a comment line goes, ``{image}`` where a container
image goes and ``{command}`` where an SGLang command line goes; the per-format tests render every
rule's examples into it (``tests/test_rules_every_format.py``).
"""

from __future__ import annotations

import fnmatch
import functools
import re
from pathlib import PurePath

from linter.records import FrozenRecord

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from typing import Callable


class Format(FrozenRecord):
    """One file format.

    ``extensions`` are lower-case suffixes (``.yaml``); ``filenames`` are glob patterns on the file
    name (``Dockerfile.*``); ``shebangs`` are regular expressions for the interpreter a ``#!`` line
    names (for files without a known extension); ``sniff`` is a cheap test on the text that must hold
    (several YAML formats share ``.yaml``: the first row whose sniff holds wins); ``heavy`` is True when
    the module imports a parser that is slow to load (markdown-it).

    What the rest of the product knows about a format is here too, so that adding one touches this row
    and its module only: ``companions`` are name globs of files read *with* files of this format (a
    compose ``.env``): a companion named on the command line stands for the files of the format beside
    it, and the hooks select companions too; ``unmentioned`` are file names read even when they do not
    mention SGLang (compose override files change their base's launch through the environment);
    ``read_with`` is ``"module:function"``, called as ``function(source, ws) -> bool`` for a file that
    does not mention SGLang, True when files read with it do (a compose file whose stack does);
    ``size_limit`` names the constant of :mod:`linter.limits` that bounds the file's length in
    characters, and ``line_limit`` is False when long lines cannot reach a parser (a notebook's are its
    outputs, which are never read); ``languages`` are the editor language identifiers (VS Code's
    "Known language identifiers") whose unsaved documents the language server lints as this format.
    """

    name: str
    module: str
    summary: str
    extensions: tuple[str, ...]
    filenames: tuple[str, ...]
    shebangs: tuple[str, ...]
    sniff: Callable[[str], bool] | None
    heavy: bool
    sample: str
    sample_name: str
    companions: tuple[str, ...]
    unmentioned: tuple[str, ...]
    read_with: str
    size_limit: str
    line_limit: bool
    languages: tuple[str, ...]
    _fields = ("name", "module", "summary", "extensions", "filenames", "shebangs", "sniff", "heavy", "sample",
               "sample_name", "companions", "unmentioned", "read_with", "size_limit", "line_limit", "languages")

    def __init__(self, name: str, module: str, summary: str, extensions: tuple[str, ...] = (),
                 filenames: tuple[str, ...] = (), shebangs: tuple[str, ...] = (),
                 sniff: Callable[[str], bool] | None = None, heavy: bool = False, sample: str = "",
                 sample_name: str = "", companions: tuple[str, ...] = (), unmentioned: tuple[str, ...] = (),
                 read_with: str = "", size_limit: str = "MAX_PARSED_CHARS", line_limit: bool = True,
                 languages: tuple[str, ...] = ()) -> None:
        self.__dict__.update(name=name, module=module, summary=summary, extensions=extensions, filenames=filenames,
                             shebangs=shebangs, sniff=sniff, heavy=heavy, sample=sample, sample_name=sample_name,
                             companions=companions, unmentioned=unmentioned, read_with=read_with,
                             size_limit=size_limit, line_limit=line_limit, languages=languages)

    def untitled_name(self) -> str:
        """A file name this format claims, for an unsaved editor document of one of its ``languages``
        (the language server lints it as a file of that name): its first plain file name, else
        ``untitled`` with its first extension."""
        plain = [n for n in self.filenames if not any(c in n for c in "*?[")]
        return plain[0] if plain else "untitled" + self.extensions[0]

    def matches_name(self, path: PurePath) -> bool:
        """True when the file's name or extension belongs to this format (before any sniffing)."""
        name = path.name
        if path.suffix.lower() in self.extensions:
            return True
        return any(fnmatch.fnmatchcase(name, p) for p in self.filenames)


COMPOSE_OVERRIDE_FILES = ("compose.override.yml", "compose.override.yaml", "docker-compose.override.yml",
                          "docker-compose.override.yaml")
"""The override files docker compose reads beside a base (compose-go ``DefaultOverrideFileNames``): one
may change a launch without naming SGLang (an environment value), so the mention filter lets them pass
and the compose format judges them with their stack."""


class _Lazy:
    """A regular expression compiled on its first use (``search``, ``match``, ``finditer`` …): a run
    answered from the result cache imports the registry (the walk asks it which named files are
    companions) but sniffs nothing."""

    __slots__ = ("_args", "_rx")

    def __init__(self, *args) -> None:
        self._args, self._rx = args, None

    def __getattr__(self, name: str):
        if self._rx is None:
            self._rx = re.compile(*self._args)
        return getattr(self._rx, name)


_TOP_SERVICES = _Lazy(r"(?:^|(?<=\r))services[ \t]*:", re.MULTILINE)  # CR-only files too


_TOP_SGLANG = _Lazy(r"^sglang[ \t]*:[ \t]*(?:#.*)?$", re.MULTILINE)
_TOP_AREAL = _Lazy(r"^(?:actor|rollout|experiment_name|allocation_mode|cluster)[ \t]*:", re.MULTILINE)


def looks_like_areal(text: str) -> bool:
    """An AReaL experiment config: a top-level ``sglang:`` mapping beside AReaL's own top-level keys."""
    return _TOP_SGLANG.search(text) is not None and _TOP_AREAL.search(text) is not None


_FRAMEWORK_BACKEND = _Lazy(
    r"^[ \t]*(?:strategy_name|backend|infer_backend|server_type|judge_server_type)[ \t]*:[ \t]*[\"']?(?:sglang\b|\$\{)",
    re.MULTILINE)


_DEFAULTS_FILE = _Lazy(r"^defaults[ \t]*:[ \t]*(?:\[[ \t]*)?[\"']?[^\s#\"'\[\]]+\.ya?ml\b"
                            r"|^defaults[ \t]*:[ \t]*(?:#.*)?\r?\n(?:[ \t]*(?:#.*)?\r?\n)*[ \t]*-[ \t]+[\"']?[^\s#\"']+\.ya?ml\b",
                            re.MULTILINE)


def looks_like_framework_config(text: str) -> bool:
    """A framework config that picks SGLang: AReaL's (:func:`looks_like_areal`), or a YAML mapping key
    that names SGLang as a framework's engine — ROLL's ``strategy_name: sglang``, NeMo-RL's and SkyRL's
    ``backend: sglang``, LLaMA-Factory's and ms-swift's ``infer_backend: sglang``, NeMo-Skills'
    ``server_type: sglang`` (linter/sglang/data/frameworks.json) — or an OmegaConf interpolation there
    (``backend: ${oc.env:ENGINE}``, an engine chosen at run time, which ``--explain`` reports); or a
    NeMo-RL child config, whose top-level ``defaults:`` names parent YAML files (NeMo-RL @7ea279ab
    nemo_rl/utils/config.py:51-95, ``load_config_with_inheritance``) that may pick SGLang for it. The mention filter has
    already required that the file names SGLang."""
    return (looks_like_areal(text) or _FRAMEWORK_BACKEND.search(text) is not None
            or _DEFAULTS_FILE.search(text) is not None)


def looks_like_compose(text: str) -> bool:
    """A YAML file whose top level has ``services:`` (Compose Specification, "Services top-level element")."""
    return _TOP_SERVICES.search(text) is not None


_TOP_K8S_KEY = _Lazy(r"^(apiVersion|kind)[ \t]*:[ \t]*\S", re.MULTILINE)


def looks_like_kubernetes(text: str) -> bool:
    """A YAML file whose top level (of some document) has both ``apiVersion:`` and ``kind:`` (a
    Kubernetes object, kubernetes.io "Objects In Kubernetes": required fields)."""
    return {m.group(1) for m in _TOP_K8S_KEY.finditer(text)} == {"apiVersion", "kind"}


_GO_TEMPLATE = _Lazy(r"\{\{-?\s*(?:\.[A-Za-z$]|\$|include\b|template\b|define\b|toYaml\b|if\b|with\b|range\b"
                          r"|end\b|/\*)")


def looks_like_helm_template(text: str) -> bool:
    """Text with Go-template actions as Helm charts write them (``{{ .Values.x }}``, ``{{- include``,
    ``{{ end }}`` …); Jinja's ``{{ var }}`` does not count."""
    return _GO_TEMPLATE.search(text) is not None


_K8S_SAMPLE = ("{head}apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: sglang\nspec:\n"
               "  template:\n    spec:\n      containers:\n        - name: sglang\n          image: {image}\n"
               "          command: [\"/bin/sh\", \"-c\"]\n"
               "          args:\n            - |\n              {command}\n")

_TOP_ON = _Lazy(r"^(?:on|\"on\"|'on'|true)[ \t]*:", re.MULTILINE)
_TOP_JOBS = _Lazy(r"^jobs[ \t]*:", re.MULTILINE)
_TOP_DSTACK = _Lazy(r"^type[ \t]*:[ \t]*[\"']?(?:service|task|dev-environment)\b", re.MULTILINE)
_TOP_TRUSS = _Lazy(r"^(?:docker_server|base_image|model_name|truss_server)[ \t]*:", re.MULTILINE)
_TOP_TRUSS_SERVER = _Lazy(r"^docker_server[ \t]*:", re.MULTILINE)
_TOP_SKY_SCRIPT = _Lazy(r"^(?:run|setup)[ \t]*:", re.MULTILINE)
_TOP_SKY_OTHER = _Lazy(r"^(?:resources|envs|num_nodes|service|file_mounts|workdir|secrets|setup)[ \t]*:",
                            re.MULTILINE)


def looks_like_github_workflow(text: str) -> bool:
    """A GitHub Actions workflow: top-level ``on:`` and ``jobs:`` (docs.github.com, "Workflow syntax").
    ``on`` is YAML 1.1's true, so a quoted ``"on":`` or ``true:`` counts too."""
    return _TOP_JOBS.search(text) is not None and _TOP_ON.search(text) is not None


def looks_like_dstack(text: str) -> bool:
    """A dstack configuration: top-level ``type: service|task|dev-environment`` (dstack .dstack.yml reference)."""
    return _TOP_DSTACK.search(text) is not None


def looks_like_truss(text: str) -> bool:
    """A Truss ``config.yaml`` with a custom server: top-level ``docker_server:`` (Baseten config reference)."""
    return _TOP_TRUSS_SERVER.search(text) is not None and _TOP_TRUSS.search(text) is not None


def looks_like_skypilot(text: str) -> bool:
    """A SkyPilot task: top-level ``run:`` or ``setup:`` beside another SkyPilot task key
    (``resources:``, ``envs:``, ``num_nodes:``, ``service:`` … ; SkyPilot YAML spec)."""
    return _TOP_SKY_SCRIPT.search(text) is not None and _TOP_SKY_OTHER.search(text) is not None


REGISTRY: tuple[Format, ...] = (
    Format("helm", "linter.extract.helm", "Helm chart templates, rendered over the chart's values.yaml",
           extensions=(".yml", ".yaml", ".tpl"), sniff=looks_like_helm_template),
    # no sample: a template is read only inside a chart folder (Chart.yaml, values.yaml); tests/test_helm.py
    Format("kubernetes", "linter.extract.kubernetes",
           "Kubernetes manifests and LLM-serving CRDs (LeaderWorkerSet, RoleBasedGroup, OME, KServe, Dynamo)",
           extensions=(".yml", ".yaml"), sniff=looks_like_kubernetes, sample_name="deployment.yaml",
           sample=_K8S_SAMPLE),
    Format("github-actions", "linter.extract.github_actions", "GitHub Actions workflows (run: steps)",
           extensions=(".yml", ".yaml"), sniff=looks_like_github_workflow, sample_name="serve.yml",
           sample="{head}on: push\njobs:\n  serve:\n    runs-on: [self-hosted, gpu]\n    container: {image}\n"
                  "    steps:\n      - run: |\n          {command}\n"),
    Format("gitlab-ci", "linter.extract.gitlab_ci", "GitLab CI pipelines (jobs' scripts)",
           filenames=(".gitlab-ci.yml", ".gitlab-ci.yaml", "*.gitlab-ci.yml", "*.gitlab-ci.yaml"),
           sample_name=".gitlab-ci.yml",
           sample="{head}serve:\n  image: {image}\n  tags: [gpu]\n  script:\n    - |\n      {command}\n"),
    Format("dstack", "linter.extract.dstack", "dstack tasks, services and dev environments (commands:)",
           extensions=(".yml", ".yaml"), sniff=looks_like_dstack, sample_name="serve.dstack.yml",
           sample="{head}type: task\nimage: {image}\ncommands:\n  - |\n    {command}\n"),
    Format("truss", "linter.extract.truss", "Baseten Truss config.yaml (docker_server.start_command)",
           extensions=(".yml", ".yaml"), sniff=looks_like_truss, sample_name="config.yaml",
           sample="{head}base_image:\n  image: {image}\ndocker_server:\n  start_command: |\n    {command}\n"),
    Format("skypilot", "linter.extract.skypilot", "SkyPilot tasks and SkyServe services (setup:/run:)",
           extensions=(".yml", ".yaml"), sniff=looks_like_skypilot, sample_name="task.yaml",
           sample="{head}# image: {image}\nresources:\n  ports: 30000\nrun: |\n  {command}\n"),
    Format("compose", "linter.extract.compose", "docker compose files (services' entrypoint and command)",
           extensions=(".yml", ".yaml"), sniff=looks_like_compose, sample_name="compose.yaml",
           sample="{head}services:\n  sglang:\n    image: {image}\n    command: {command}\n",
           # compose-go DefaultOverrideFileNames; the .env a project reads (docs.docker.com, "Set
           # environment variables": .env beside the compose file; env_file: NAME.env by convention)
           companions=(".env", "*.env"), unmentioned=COMPOSE_OVERRIDE_FILES,
           read_with="linter.extract.compose_stack:stack_mentions", languages=("dockercompose",),
           size_limit="MAX_YAML_CHARS"),  # read by libyaml, ten times faster than the other parsers
    Format("framework-config", "linter.extract.framework_config",
           "framework configs that start SGLang (AReaL, ROLL, NeMo-RL, LLaMA-Factory, ms-swift, NeMo-Skills, SkyRL)",
           extensions=(".yml", ".yaml"), sniff=looks_like_framework_config),
    Format("shell", "linter.extract.shell", "shell and Slurm batch scripts",
           extensions=(".sh", ".bash", ".zsh", ".ksh", ".slurm", ".sbatch"),
           shebangs=(r"(?:ba|z|k|da|a|mk)?sh",), sample_name="serve.sh",
           languages=("shellscript",), size_limit="MAX_SHELL_CHARS",  # the shell path is linear and keeps origins as ranges
           sample="#!/bin/bash\n{head}# image: {image}\nset -euo pipefail\n{command}\n"),
    Format("notebook", "linter.extract.notebook", "Jupyter notebooks (code cells, ! lines, %%bash cells)",
           extensions=(".ipynb",),
           # its size and long lines are its outputs, which are never read (only code cells are); its
           # JSON reader has its own bounds (MAX_JSON_BYTES, MAX_JSON_DEPTH)
           size_limit="MAX_NOTEBOOK_CHARS", line_limit=False, languages=("jupyter",)),
    Format("markdown", "linter.extract.markdown", "Markdown runbooks (bash, console, python, yaml … fences)",
           extensions=(".md", ".markdown"), heavy=True, sample_name="RUNBOOK.md", languages=("markdown",),
           sample="# Serving\n\n```bash\n{head}# image: {image}\n{command}\n```\n"),
    Format("rst", "linter.extract.rst", "reStructuredText pages (Sphinx code-block, code, literal blocks)",
           extensions=(".rst",), heavy=True, sample_name="serving.rst", languages=("restructuredtext",),
           sample="Serving\n=======\n\n.. code-block:: bash\n\n   {head}   # image: {image}\n   {command}\n"),
    Format("python", "linter.extract.python", "Python launch code (subprocess, Engine/ServerArgs, Modal)",
           extensions=(".py",), shebangs=(r"python(?:\d+(?:\.\d+)*)?",), sample_name="launch.py",
           languages=("python",), read_with="linter.extract.python.launchers:read_with_imports",
           sample="{head}# image: {image}\nimport shlex\nimport subprocess\n\n\ndef start():\n"
                  "    return subprocess.Popen(shlex.split(\"{command}\"))\n"),
    Format("dockerfile", "linter.extract.dockerfile", "Dockerfiles (the last stage's ENTRYPOINT and CMD)",
           extensions=(".dockerfile", ".containerfile"),
           filenames=("Dockerfile", "Dockerfile.*", "*.Dockerfile", "Containerfile", "Containerfile.*",
                      "*.Containerfile", "dockerfile"),
           sample_name="Dockerfile", sample="FROM {image}\n{head}CMD {command}\n", languages=("dockerfile",)),
)
"""Every format, in detection order."""

BY_NAME: dict[str, Format] = {f.name: f for f in REGISTRY}

_SHEBANG = _Lazy(r"^#![ \t]*(?:\S*/)?(?:env[ \t]+(?:-\S+[ \t]+)*)?(?P<prog>[A-Za-z0-9_.+-]+)")


def by_name(name: str) -> Format:
    """The row of a format. Raises KeyError for an unknown name."""
    return BY_NAME[name]


@functools.lru_cache(maxsize=4096)
def _named(name: str) -> tuple[Format, ...]:
    # By the file name alone (a tree repeats a few names: values.yaml, README.md …).
    path = PurePath(name)
    return tuple(f for f in REGISTRY if f.matches_name(path))


def named(path: PurePath) -> tuple[Format, ...]:
    """The formats that may claim a file of this name, before its content is read (in detection order)."""
    return _named(path.name)


def claims_name(path: PurePath) -> bool:
    """True when some format may claim a file of this name (before its content is read)."""
    return bool(_named(path.name))


def detect(path: PurePath, text: str) -> Format | None:
    """The format of a file from its name and text, or None when no format claims it."""
    named = _named(path.name)
    for fmt in named:
        if fmt.sniff is None or fmt.sniff(text):
            return fmt
    if named:
        return None
    m = _SHEBANG.match(text)
    if m:
        prog = m.group("prog")
        for fmt in REGISTRY:
            if any(re.fullmatch(p, prog) for p in fmt.shebangs):
                return fmt
    return None


def companion_of(path: PurePath) -> Format | None:
    """The format a file is a companion of (a ``.env`` → compose), or None."""
    return next((f for f in REGISTRY if any(fnmatch.fnmatchcase(path.name, p) for p in f.companions)), None)


def unmentioned_names() -> frozenset[str]:
    """File names the mention filter lets pass although they may not name SGLang (every row's
    ``unmentioned``)."""
    return frozenset(n for f in REGISTRY for n in f.unmentioned)


def untitled_name(language: str) -> str:
    """The file name an unsaved editor document of ``language`` is linted as: the name its format
    claims (:meth:`Format.untitled_name`); a YAML document (or an unknown language) is
    ``untitled.yaml``, which every YAML format may claim by its content."""
    row = next((f for f in REGISTRY if language in f.languages), None)
    return row.untitled_name() if row is not None else "untitled.yaml"


def names_text() -> str:
    """``compose, shell or python`` — the formats, for messages."""
    names = [f.name for f in REGISTRY]
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def precommit_files_pattern() -> str:
    """The ``files`` regular expression of the pre-commit hooks: every registered extension and file
    name, every row's companions (``.env``/``NAME.env``, which stand for the compose files beside
    them) and names without a dot (scripts that have only a shebang)."""
    companions = sorted({p for f in REGISTRY for p in f.companions})
    exts = sorted({e.lstrip(".") for f in REGISTRY for e in f.extensions}
                  | {p[2:] for p in companions if p.startswith("*.") and "*" not in p[2:]})
    # yml/yaml are written as ya?ml, as people expect to read it
    if "yml" in exts and "yaml" in exts:
        exts = ["ya?ml"] + [e for e in exts if e not in ("yml", "yaml")]
    names = sorted({_glob_to_regex(p) for f in REGISTRY for p in f.filenames})
    plain = [re.escape(p) for p in companions if not any(c in p for c in "*?[")]
    alternatives = plain + [r"[^/.]+"] + names + [r"[^/]+\.(" + "|".join(exts) + ")"]
    return "(^|/)(" + "|".join(alternatives) + ")$"


def git_pathspecs() -> list[str]:
    """The git pathspecs of the plain hook (hooks/pre-commit) for the same files, in the order it
    lists them: ``*.EXT`` for every extension, each file-name glob at the top and in any folder,
    then the companions (``.env`` and ``*.env``). Names without a dot are selected by the hook separately."""
    exts = sorted({e.lstrip(".") for f in REGISTRY for e in f.extensions})
    specs = [f"*.{e}" for e in exts]
    for name in sorted({p for f in REGISTRY for p in f.filenames}):
        # a glob that starts with * already matches in every folder (git's * crosses /)
        specs += [name] if name.startswith("*") else [name, f"*/{name}"]
    return specs + list(dict.fromkeys(p for f in REGISTRY for p in f.companions))


def _glob_to_regex(pattern: str) -> str:
    out = []
    for ch in pattern:
        out.append("[^/]*" if ch == "*" else "[^/]" if ch == "?" else re.escape(ch))
    return "".join(out)
