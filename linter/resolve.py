"""Launch → :class:`LaunchContext`: everything a rule (and ``--explain``) needs, resolved once.

For one launch: the SGLang release and torch's CUDA build (:mod:`linter.sglang.release`), its
server arguments read as that release's parser reads them (:mod:`linter.sglang.options`), the model
and where its architecture came from (:mod:`linter.sglang.models`), the target GPUs and where each
was declared (:mod:`linter.gpus.targets`), and SGLang's outcome on every target
(:mod:`linter.sglang.analysis`). The context is read-only: rules read it, nothing writes to it.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from linter.boundary import referenced_at
from linter.gpus.given import Given, given
from linter.gpus.targets import Target, choose
from linter.launch import UNKNOWN, GpuDecl, KwArgs, Launch
from linter.records import dataclass
from linter.sglang import release as release_mod
from linter.sglang.analysis import StartupAnalysis, Verdict, hardware_of, startup_analysis, verdicts
from linter.sglang.dialects import hydra_by_program, hydra_kwargs
from linter.sglang.models import ModelInfo, resolve_model
from linter.sglang.options import OptionTable, ParsedArgs, Setting, parse_args, settings_from_kwargs
from linter.workspace import lexists

TYPE_CHECKING = False  # typing is imported only by type checkers: a compose file's run need not load it (8 ms)
if TYPE_CHECKING:
    from typing import Protocol
else:
    Protocol = object


class Settings(Protocol):
    """What resolution reads of the configuration for a launch's file (:class:`linter.config.Settings`
    has these and more): the pinned ``sglang_version`` (None when not set), ``target_gpus`` (GPU names),
    ``models`` (model name -> architecture) and ``origin`` (where they were written, for messages).
    Resolution is handed them; it never reads the configuration itself."""

    sglang_version: str | None
    target_gpus: list[str]
    models: dict[str, str]
    origin: str


@dataclass(frozen=True)
class LaunchContext:
    """One launch, resolved.

    ``identity`` is the launch's line-independent name (scope + model + number) used by baselines
    and SARIF fingerprints; ``cuda_build`` is torch's CUDA build read from the image tag, or None
    (then 12.8+ is assumed); ``version_origin`` and ``target_origin`` say in words where the release
    and targets came from; ``startup`` is the deterministic start-up analysis (None when deterministic
    inference is off or unknown); ``verdicts`` SGLang's outcome per known target and, when a target
    is unknown, per hypothetical GPU class.
    """

    launch: Launch
    table: OptionTable
    parsed: ParsedArgs
    model: ModelInfo
    targets: tuple[Target, ...]
    target_origin: str
    cuda_build: tuple[int, int] | None = None
    version_origin: str = ""
    version_written: str | None = None  # the release named in/beside the file or config (None: none)
    identity: str = ""
    startup: StartupAnalysis | None = None
    verdicts: tuple[Verdict, ...] = ()
    given: Given | None = None
    """The hardware the launch is given: GPUs per node, nodes, memory per GPU (:mod:`linter.gpus.given`)."""
    colocated: tuple = ()
    weights: object = None
    """The model's weights (:class:`linter.sglang.weights.ModelWeights`) or None when not known."""
    weights_origin: str = ""
    """Where :attr:`weights` come from, or why they are not known."""
    """Launches that run at the same time in the same container or script as this one
    (:class:`linter.sglang.colocate.Neighbour` values; set by the engine once the file's launches are resolved)."""

    @property
    def assumed_cuda(self) -> tuple[int, int]:
        """torch's CUDA build: the image's, else 13.0 ("12.8 or newer"; 13.0 keeps Jetson Thor at sm_110)."""
        return self.cuda_build or (13, 0)

    @property
    def known_targets(self) -> list[Target]:
        return [t for t in self.targets if t.gpu is not None]

    @property
    def has_unknown_target(self) -> bool:
        return not self.targets or any(t.gpu is None for t in self.targets)

    def hardware(self, target: Target):
        """The :class:`~linter.sglang.decision.Hardware` SGLang sees for ``target`` with this launch's CUDA build."""
        return hardware_of(target, self.assumed_cuda)

    def target_verdicts(self) -> list[Verdict]:
        """The verdicts on declared, known targets (not the hypothetical classes)."""
        return [v for v in self.verdicts if v.target is not None]

    def deterministic(self) -> tuple[object, Setting | None]:
        """Whether deterministic inference is on — True, False or ``UNKNOWN`` — and the setting that
        decides it (:func:`linter.sglang.decision.deterministic`)."""
        from linter.sglang.decision import deterministic

        return deterministic(self.parsed)

    @property
    def parser_only_note(self) -> str | None:
        """For a release whose start-up checks are not documented: a sentence saying only its argument
        parser is checked (:func:`linter.sglang.decision.parser_only_note`); None otherwise."""
        from linter.sglang.decision import parser_only_note

        return parser_only_note(self.table)

    def outcome_if(self, hardware, architecture: str | None = None, dsa: bool = False):
        """SGLang's start-up outcome for this launch with deterministic inference on, on ``hardware``
        (a :class:`~linter.sglang.decision.Hardware`, e.g. a verdict's), were the model's architecture
        ``architecture`` (``dsa``: with DeepSeek sparse attention); an
        :class:`~linter.sglang.decision.Outcome`, or None when an input it needs is unknown
        (:func:`linter.sglang.decision.evaluate`)."""
        from linter.sglang.decision import evaluate

        return evaluate(self.parsed, self.table, architecture, dsa, hardware)


def resolve(launch: Launch, *, settings: Settings, file_decls: list[GpuDecl], cli_targets: list[str],
            cli_version: str | None, read_text, read_json, cwd, identity: str = "",
            read_source=None, file_counts: list | None = None) -> LaunchContext:
    """Resolve one launch. ``settings`` is the configuration for its file; ``file_decls`` the file's own
    target declarations (directives, ``#SBATCH`` …) and ``file_counts`` its GPU and node counts
    (:class:`~linter.launch.GpuCount`); ``cli_targets``/``cli_version`` come from the
    command line; ``read_text(path)``/``read_json(path)`` read files beside it (None when missing);
    ``cwd`` is the working directory (a relative model path is looked up there too); ``read_source(path)``
    reads a ``--config`` file (a :class:`~linter.source.SourceFile`, None when missing)."""
    source = launch.source
    image = launch.image.text if launch.image is not None and launch.image.known else None
    rel = release_mod.detect(
        cli_version=cli_version, config_version=settings.sglang_version, config_origin=settings.origin,
        image=image, file_text=source.text, folder=source.path.parent, read_text=read_text,
    )
    table = rel.table
    hydra = hydra_by_program(launch.program)
    payload = launch.payload
    if isinstance(payload, KwArgs):
        parsed = settings_from_kwargs(table, payload.kwargs)
    elif hydra is not None:
        parsed = settings_from_kwargs(table, hydra_kwargs(hydra, list(payload.tokens)))
    else:
        parsed = parse_args(table, payload.tokens, launch.program,
                            open_config=_config_opener(launch, read_source, cwd))
    for kw in launch.overrides:  # a framework's per-engine settings win over the command line
        parsed.settings.append(Setting(kw.name, kw.value, kw.name, len(parsed.settings), kwarg=kw))
    model = _model(launch, parsed, settings, read_json, cwd)
    cli = [GpuDecl(n, None, "given with --target-gpu") for n in cli_targets]
    config = [GpuDecl(n, None, f"'target-gpus' in {settings.origin}") for n in settings.target_gpus]
    declared = file_decls + launch.gpu_decls
    targets, origin = choose(cli, [d for d in declared if not d.weak], config)
    if not targets:
        # weaker declarations (a Karpenter NodePool, an image built for one architecture, a heading
        # in documentation) when nothing states the GPU
        from linter.gpus.inferred import context_targets, image_targets
        from linter.gpus.targets import make_targets

        weak = [d for d in declared if d.weak] or image_targets(launch.image) or \
            context_targets(launch.context)
        if weak:
            targets, origin = make_targets(weak), "inferred"
    cuda = rel.cuda_build or (13, 0)
    startup = startup_analysis(parsed, table, model, targets, cuda)
    return LaunchContext(launch=launch, table=table, parsed=parsed, model=model, targets=tuple(targets),
                         target_origin=origin, cuda_build=rel.cuda_build, version_origin=rel.origin,
                         version_written=rel.written,
                         identity=identity or launch.key, startup=startup,
                         verdicts=verdicts(parsed, table, model, targets, cuda, startup),
                         given=given(launch.gpu_counts, list(file_counts or ()), targets),
                         **_weights(model, parsed, launch, read_json, cwd))


def _config_opener(launch: Launch, read_source, cwd):
    """``open_config(path)`` for a launch's ``--config FILE``: SGLang opens the path from its working
    folder. Where the file states it (a shell ``cd``, :attr:`Launch.workdir`) only that folder is
    looked in; otherwise a relative path is looked up from the linted file's folder, then the
    repository root (the nearest folder above with ``.git``), then the working directory."""
    if read_source is None:
        return None
    folder = launch.source.path.parent

    def open_config(path: str):
        p = Path(path)
        if not p.is_absolute() and launch.workdir and launch.workdir.startswith("/"):
            p = Path(launch.workdir) / p
        if p.is_absolute():
            host = _mounted(Path(os.path.normpath(p)), launch.mounts)
            # an absolute path no bind mount maps names the machine the server runs on, not this one:
            # not read, and not an outside-root finding (a mapped one is a host path of the repository)
            return read_source(host, quiet=host == p)
        elif launch.workdir == "":
            return None  # a cd to a folder the file does not name: where the path points is unknown
        elif launch.workdir is not None:
            bases = [folder / launch.workdir]  # relative to the file's folder (a cd "$(dirname "$0")/..")
        else:
            bases = [folder] + [b for b in (_repo_root(folder), Path(cwd) if cwd else None) if b is not None]
        for base in bases:
            found = read_source(Path(os.path.normpath(base / p)))
            if found is not None:
                return found
        return None

    return open_config


def _mounted(path: Path, mounts) -> Path:
    """``path`` inside a container, as the host path a bind mount shows it at (itself when none does)."""
    for target, host in sorted(mounts, key=lambda m: -len(m[0])):
        try:
            rest = path.relative_to(target)
        except ValueError:
            continue
        return Path(host) / rest
    return path


def _repo_root(folder: Path) -> Path | None:
    from linter.gitignore import find_top

    return find_top(folder, lexists)  # (each look for .git noted: a cached result depends on it)


def _weights(model: ModelInfo, parsed: ParsedArgs, launch: Launch, read_json, cwd) -> dict:
    """``weights`` and ``weights_origin`` of a launch (:func:`linter.sglang.weights.weights_for`)."""
    if model.skip_checks:
        return {"weights": None, "weights_origin": model.origin}
    from linter.sglang.weights import weights_for

    override = parsed.get("json_model_override_args")
    if read_json is not None:
        # the model's folder is looked in again for its size: a refusal to read it out of the root is
        # the model resolution's to report (:func:`_model`), not a second finding
        read_json = functools.partial(read_json, quiet=True)
    got, why = weights_for(model.path, architecture=model.architecture, read_json=read_json,
                           base_dirs=[b for b in (launch.source.path.parent, cwd) if b is not None],
                           override_json=override.value if override is not None and isinstance(override.value, str)
                           else None)
    return {"weights": got, "weights_origin": why}


def _model(launch: Launch, parsed: ParsedArgs, settings: Settings, read_json, cwd) -> ModelInfo:
    model_setting = parsed.get("model_path")
    model_path = None
    if model_setting is not None and isinstance(model_setting.value, str):
        model_path = model_setting.value
    override = parsed.get("json_model_override_args")
    override_json = override.value if override is not None and isinstance(override.value, str) else None
    hint = launch.model_hint
    if model_path is not None and os.path.isabs(model_path):
        # a model folder on the machine the server runs on: outside the root it is not read, and not
        # an outside-root finding (every absolute /models/... would be one)
        read_json = functools.partial(read_json, quiet=True)
    span = model_setting.value_location() if model_setting is not None else None
    with referenced_at(span):  # a relative model path out of the root is refused there (SGL005)
        model = resolve_model(
            model_path, base_dirs=[b for b in (launch.source.path.parent, cwd) if b is not None],
            override_json=override_json,
            user_models=settings.models, read_json=read_json, span=span,
            declared=(hint.architecture, f"declared by {hint.how}", hint.span) if hint is not None else None,
        )
    if model_setting is not None and model_setting.value is UNKNOWN:
        declared = hint is not None and model.architecture == hint.architecture
        model = ModelInfo(None, model.architecture, model.dsa,
                          model.origin if declared else "the model path comes from a value that is not known statically",
                          model.span)
    return model
