"""Command → launches: the one step from "a command some format runs" to "an SGLang launch".

Every format hands its commands here — a compose ``command:`` list or string, a shell simple command,
a Python argv list, a Kubernetes container, a Dockerfile ``CMD`` — so the same argv gives the same
launch whatever file it was written in. A command is an argv of :class:`~linter.launch.Token` values
(each character keeps its origin).

Wrappers (programs that run another command: ``env``, ``numactl``, ``srun``, ``docker run`` …) are
data, ``linter/data/wrappers.json``: per wrapper the options that take a value, the positional words
it takes before the command and its *behaviour* (how the rest runs). The behaviours are the code
below: ``prefix`` (the rest is the command), ``env``/``sudo`` (``NAME=VALUE`` words set variables,
``env -i`` clears them), ``container`` (``docker run … IMAGE ARGS``: the image gives the release;
``-e`` sets variables; ``--entrypoint`` prepends), ``apptainer``, ``slurm`` (its GPU options declare
targets; ``sbatch --wrap`` runs a shell string), ``python-launcher`` (``torchrun -m MODULE``),
``separator`` (the command follows ``--``), ``shell`` (``sh -c STRING``) and ``ssh`` (the remote
shell runs the words joined by blanks).

SGLang's entry points are SGLang knowledge and live in :mod:`linter.sglang.entrypoints`; the
frameworks that start SGLang from their own command lines (``swift infer``, ``ns eval``, ``lm_eval``,
``python -m skyrl_train…``, ``python SCRIPT.py --config X.yaml``) are recognised by
:func:`linter.sglang.frameworks.match_cli` and read once the file's launches are known
(:mod:`linter.extract.framework_cli`). A command that names a framework's SGLang backend but does not
start it (an engine chosen at run time) is noted for ``--explain`` (:func:`note_passed_over`).

:func:`unwrap` says what a command runs: a launch, or a shell string a wrapper runs (``bash -c``,
``ssh``, ``sbatch --wrap``). Recognition never reads shell itself: :func:`linter.extract.recognized.launches`
hands such a string to the shell format, with every character mapped back; a carrier format never
parses shell itself.
"""

from __future__ import annotations

import contextlib
import contextvars
import enum
import functools
import re

from linter import datafiles
from linter.argv import skip_options
from linter.launch import UNKNOWN, GpuCount, GpuDecl, MStr, Token
from linter.records import dataclass, field
from linter.sglang.dialects import match as match_dialect
from linter.sglang.dialects import match_hydra, passed_over_hydra
from linter.sglang.entrypoints import entry_program, match_entry_point
from linter.sglang.frameworks import match_cli
from linter.source import Span

_ASSIGN_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Wrapper:
    """One row of ``linter/data/wrappers.json``."""

    names: tuple[str, ...]
    behaviour: str
    values: frozenset[str]
    two: frozenset[str] = frozenset()
    subcommand: tuple[str, ...] = ()
    positionals: int = 0
    stop_if: frozenset[str] = frozenset()
    extra: dict = field(default_factory=dict, hash=False, compare=False)
    source: str = ""


@functools.cache
def wrappers() -> dict[str, Wrapper]:
    """Program base name → :class:`Wrapper`, from ``linter/data/wrappers.json``."""
    raw = datafiles.load_json("linter.data", "wrappers.json")
    out: dict[str, Wrapper] = {}
    known = {"names", "behaviour", "options_with_value", "options_with_two_values", "subcommand", "positionals",
             "stop_if", "source"}
    for row in raw["wrappers"]:
        w = Wrapper(tuple(row["names"]), row["behaviour"], frozenset(row.get("options_with_value", ())),
                    frozenset(row.get("options_with_two_values", ())),
                    tuple(row.get("subcommand", "").split()), int(row.get("positionals", 0)),
                    frozenset(row.get("stop_if", ())), {k: v for k, v in row.items() if k not in known},
                    row.get("source", ""))
        for name in w.names:
            out[name] = w
    return out


@functools.cache
def _images() -> list[dict]:
    return datafiles.load_json("linter.data", "images.json")["images"]


def image_entrypoint(image: str | None) -> tuple[list[str], bool] | None:
    """The ENTRYPOINT of a known image and whether it runs its arguments as a command
    (``linter/data/images.json``); None for an image the table does not know."""
    if not image:
        return None
    name = image.split("@", 1)[0]
    repo = name.rsplit(":", 1)[0] if ":" in name.rsplit("/", 1)[-1] else name
    for row in _images():
        if repo.lower() in row["match"]:
            return list(row["entrypoint"]), bool(row["runs_args"])
    return None


@dataclass(frozen=True)
class Passthrough:
    """``docker run -e NAME``: the variable takes the value it has where the wrapper runs."""

    name: str


class UnwrapKind(str, enum.Enum):
    """What :func:`unwrap` found under the wrappers: an SGLang ``LAUNCH`` or a shell ``SCRIPT`` that
    the wrappers run. Compares equal to its value."""

    LAUNCH = "launch"
    SCRIPT = "script"

    __str__ = str.__str__
    __format__ = str.__format__


@dataclass
class Unwrapped:
    """What a command runs once its wrappers are taken off.

    ``kind`` is :attr:`UnwrapKind.LAUNCH` (``program`` and the server-argument tokens ``args``), :attr:`UnwrapKind.SCRIPT` (a shell
    string ``script`` that ``how`` runs: ``sh``, ``bash``, ``ssh``, ``sbatch --wrap``) or None (no
    SGLang launch). ``inherit`` is False when a wrapper starts the command with a fresh environment
    (``env -i``, ``docker run``); ``env`` holds the variables the wrappers set (name → :class:`MStr`,
    :data:`~linter.launch.UNKNOWN` or :class:`Passthrough`); ``image`` is a container image that runs
    the command; ``gpu_decls`` are target GPUs the wrappers name (Slurm ``--gres`` …); ``gpu_counts``
    the GPU and node counts they give (``docker run --gpus 2``, ``srun --gpus-per-node 8``); ``chain``
    the wrapper programs in order.
    """

    kind: UnwrapKind | None = None
    program: str = ""
    args: list[Token] = field(default_factory=list)
    script: Token | None = None
    how: str = ""
    inherit: bool = True
    env: dict[str, object] = field(default_factory=dict)
    image: MStr | None = None
    gpu_decls: list[GpuDecl] = field(default_factory=list)
    gpu_counts: list[GpuCount] = field(default_factory=list)
    chain: list[str] = field(default_factory=list)


def inert_program(program: str) -> bool:
    """True when :func:`unwrap` finds nothing (no launch, shell string nor GPU declaration) in any
    command whose first word is ``program`` (its known value): no wrapper, entry point, dialect or
    framework CLI starts with it. Lets a format skip building the words of commands such as ``echo``."""
    from linter.sglang.frameworks import programs

    base = program.rsplit("/", 1)[-1]
    return base not in wrappers() and not entry_program(program) and base not in programs()


_passed: contextvars.ContextVar[list | None] = contextvars.ContextVar("lint_configs_passed_over", default=None)


def note_passed_over(span: Span | None, message: str) -> None:
    """Note a command or setting that names a framework's SGLang backend but is not an SGLang launch
    (another engine, an engine chosen at run time, a server only used), with why; ``--explain`` shows
    it. Outside :func:`collect_passed_over` this does nothing."""
    got = _passed.get()
    if got is not None and (span, message) not in got:
        got.append((span, message))


@contextlib.contextmanager
def collect_passed_over():
    """Collect :func:`note_passed_over` calls made inside the block: yields the list of (span, message)."""
    got: list = []
    token = _passed.set(got)
    try:
        yield got
    finally:
        _passed.reset(token)


def unwrap(words: list[Token], span: Span | None = None, image: MStr | None = None) -> Unwrapped:
    """Take the wrappers off ``words`` and say what runs. ``span`` locates made-up words (``torchrun -m``
    becomes ``python -m``); ``image`` is the image the command already runs in.

    Each pass looks at the first word: an SGLang entry point, dialect or framework CLI ends the walk
    with a launch; a wrapper's behaviour (one function each, :data:`_BEHAVIOURS`) takes it off and
    hands back the words it runs, or None when nothing under it can be known."""
    out = Unwrapped(image=image)
    table = wrappers()
    w: list[Token] | None = words
    while w:
        if _launch_here(w, out):
            return out
        head = w[0].value
        if head is None:
            return out
        base = head.rsplit("/", 1)[-1]
        wrapper = table.get(base)
        if wrapper is None:
            for span_, message in passed_over_hydra(w):
                note_passed_over(span_, message)
            return out
        j = _after_subcommand(w, wrapper)
        if j is None:
            return out
        out.chain.append(base)
        step = _BEHAVIOURS.get(wrapper.behaviour)
        if step is None:  # pragma: no cover - a behaviour named in the data file that has no code
            return out
        w = step(_Step(w, j, wrapper, base, span), out)
    return out


def _launch_here(w: list[Token], out: Unwrapped) -> bool:
    """Fill ``out`` with the launch ``w`` starts — an SGLang entry point, a dialect (``--sglang-*``
    trainer options, Hydra overrides) or a framework CLI — and say whether there was one."""
    entry = match_entry_point(w)
    if entry is not None:
        out.kind, out.program, out.args = UnwrapKind.LAUNCH, entry.program, w[entry.args_start:]
        return True
    if w[0].value is None or w[0].value.rsplit("/", 1)[-1] in wrappers():
        return False
    dialect = match_dialect(w) or match_hydra(w)
    if dialect is not None:
        out.kind, out.program, out.args = UnwrapKind.LAUNCH, dialect[0].program, w[dialect[1]:]
        return True
    framework = match_cli(w)
    if framework is not None:
        # which engine it starts is read from its arguments (and config file) once the file's
        # launches are known (linter.extract.framework_cli)
        out.kind, out.program, out.args = UnwrapKind.LAUNCH, framework[0], w[framework[1]:]
        return True
    return False


def _after_subcommand(w: list[Token], wrapper: Wrapper) -> int | None:
    """Where a wrapper's own words start after its subcommand (``kubectl exec``, ``uv run``), or None
    when the command does not use the subcommand that runs another command."""
    if not wrapper.subcommand:
        return 1
    sub = list(wrapper.subcommand)
    if wrapper.behaviour == "separator":
        # global options may come first (kubectl -n NS exec POD -- …)
        values = [t.value for t in w]
        return 1 if any(values[k:k + len(sub)] == sub for k in range(1, len(values))) else None
    if [t.value for t in w[1:1 + len(sub)]] != sub:
        return None
    return 1 + len(sub)


@dataclass(frozen=True)
class _Step:
    """One wrapper to take off: the words ``w`` (the wrapper first), where its options start ``j``,
    its table row, its program name ``base`` and the span that locates made-up words."""

    w: list[Token]
    j: int
    wrapper: Wrapper
    base: str
    span: Span | None


def _prefix(s: _Step, out: Unwrapped) -> list[Token] | None:
    """``nohup``, ``numactl``, ``uv run`` …: options, fixed positionals, then the command."""
    w, wrapper = s.w, s.wrapper
    if any(t.value in wrapper.stop_if for t in w[s.j:s.j + 1]):
        return None
    module = wrapper.extra.get("module_options", ())
    j, opts = skip_options(w, s.j, wrapper.values | frozenset(module), wrapper.two)
    if any(name in wrapper.stop_if for name, _, _ in opts):
        return None
    run = next((value for name, value, _ in opts if name in module and value is not None), None)
    if run is not None:
        # ``uv run -m MODULE ARGS``: the tool runs ``python -m MODULE ARGS`` (what follows MODULE
        # is the module's, not the tool's)
        made = s.span if s.span is not None else run.location()
        k = next(k for k in range(len(w)) if w[k] is run)
        return [Token(MStr.plain("python", made)), Token(MStr.plain("-m", made)), run] + w[k + 1:]
    return w[j + wrapper.positionals:]


def _env(s: _Step, out: Unwrapped) -> list[Token] | None:
    """``env``/``sudo``: ``NAME=VALUE`` words set variables; ``env -i`` clears them, ``-u`` unsets."""
    w, wrapper = s.w, s.wrapper
    is_env = wrapper.behaviour == "env"
    j, opts = skip_options(w, s.j, wrapper.values)
    names = {name for name, _, _ in opts}
    if is_env and names & {"-i", "--ignore-environment", "-"}:
        out.inherit, out.env = False, {}
    if is_env and names & {"-S", "--split-string"}:
        return None
    for name, value, _ in opts:
        if is_env and name in ("-u", "--unset") and value is not None and value.value:
            out.env.pop(value.value, None)
    while j < len(w) and _ASSIGN_WORD.match(w[j].raw):
        name = w[j].raw.partition("=")[0]
        out.env[name] = w[j].text[len(name) + 1:] if w[j].value is not None else UNKNOWN
        j += 1
    return w[j:]


def _apptainer(s: _Step, out: Unwrapped) -> list[Token] | None:
    """``apptainer|singularity exec|run [options] IMAGE COMMAND…``."""
    w, wrapper = s.w, s.wrapper
    j, _ = skip_options(w, 1, wrapper.extra.get("global_options", ()))
    if j >= len(w) or w[j].value not in ("exec", "run"):
        return None
    j, opts = skip_options(w, j + 1, wrapper.values)
    if j >= len(w):
        return None
    out.image = w[j].text
    if any(name in ("-e", "--cleanenv", "-C", "--containall") for name, _, _ in opts):
        out.inherit, out.env = False, {}
    # ``run`` hands the words to the image's runscript; for an image built from a Docker image
    # (how SGLang's images reach Apptainer) that is the ENTRYPOINT, which runs them (apptainer
    # docs, "Support for Docker and OCI Containers": %runscript from ENTRYPOINT/CMD).
    return w[j + 1:]


def _slurm(s: _Step, out: Unwrapped) -> list[Token] | None:
    """``srun``/``sbatch``/``salloc``: GPU options declare targets and counts; ``sbatch --wrap`` runs
    a shell string; ``sbatch SCRIPT`` runs a file of its own (not followed here)."""
    from linter.gpus.counts import SLURM_COUNT_OPTIONS, slurm_counts
    from linter.gpus.slurm import GPU_OPTIONS, gpu_decls

    w, base = s.w, s.base
    j, opts = skip_options(w, 1, s.wrapper.values)
    for name, value, _ in opts:
        if value is not None and name in GPU_OPTIONS:
            out.gpu_decls.extend(gpu_decls(name, value, base))
        if name == "--container-image" and value is not None:
            out.image = value.text
    out.gpu_counts.extend(slurm_counts([(n, v) for n, v, _ in opts if n in SLURM_COUNT_OPTIONS], base))
    if base == "sbatch":
        wrap = next((v for n, v, _ in opts if n == "--wrap" and v is not None), None)
        if wrap is not None:
            out.kind, out.script, out.how = UnwrapKind.SCRIPT, wrap, "sbatch --wrap"
        return None
    if base == "salloc" and j >= len(w):
        return None
    return w[j:]


def _python_launcher(s: _Step, out: Unwrapped) -> list[Token] | None:
    """``torchrun``/``deepspeed`` …: ``-m MODULE`` runs ``python -m MODULE``; ``--no-python`` runs
    the command itself; a script of its own is not an SGLang module."""
    j, opts = skip_options(s.w, s.j, s.wrapper.values, normalise=True)
    names = {name.replace("_", "-") for name, _, _ in opts}
    rest = s.w[j:]
    if "--no-python" in names:
        return rest
    if ("-m" in names or "--module" in names) and rest:
        made = s.span if s.span is not None else (rest[0].location())
        return [Token(MStr.plain("python", made)), Token(MStr.plain("-m", made))] + rest
    return None


def _separator(s: _Step, out: Unwrapped) -> list[Token] | None:
    """``kubectl exec … -- COMMAND``, ``ray job submit -- COMMAND``: the command follows ``--``."""
    w = s.w
    k = next((k for k in range(s.j, len(w)) if w[k].value == "--"), None)
    if k is None:
        return None
    if s.wrapper.extra.get("isolate_env"):
        out.inherit, out.env = False, {}
    return w[k + 1:]


def _tmux(s: _Step, out: Unwrapped) -> list[Token] | None:
    """``tmux new-session -d 'COMMAND'``: one word is a shell string, several are the command."""
    w, wrapper = s.w, s.wrapper
    k = next((k for k in range(1, len(w)) if w[k].value in wrapper.extra.get("subcommands", ())), None)
    if k is None:
        return None
    j, _ = skip_options(w, k + 1, wrapper.values)
    rest = w[j:]
    if len(rest) == 1:
        out.kind, out.script, out.how = UnwrapKind.SCRIPT, rest[0], "tmux"  # one word: run by sh -c
        return None
    return rest


def _shell(s: _Step, out: Unwrapped) -> list[Token] | None:
    """``sh -c STRING``: the string is a shell script."""
    script = shell_c_script(s.w)
    if script is not None:
        out.kind, out.script, out.how = UnwrapKind.SCRIPT, script, s.base
    return None


def _ssh(s: _Step, out: Unwrapped) -> list[Token] | None:
    """``ssh [options] HOST WORDS…``: the remote shell runs the words joined by blanks."""
    j, _ = skip_options(s.w, 1, s.wrapper.values)
    rest = s.w[j + 1:]
    if not rest or (len(rest) == 1 and rest[0].splat):
        return None
    out.kind, out.script, out.how = UnwrapKind.SCRIPT, Token(_join_tokens(rest, s.span)), "ssh"
    out.inherit, out.env = False, {}  # the remote shell starts from the remote login environment
    return None


def _docker(s: _Step, out: Unwrapped) -> list[Token] | None:
    return _container(s.w, s.wrapper, out)


#: wrapper behaviour (``linter/data/wrappers.json``) → the function that takes such a wrapper off
_BEHAVIOURS = {
    "prefix": _prefix,
    "env": _env,
    "sudo": _env,
    "container": _docker,
    "apptainer": _apptainer,
    "slurm": _slurm,
    "python-launcher": _python_launcher,
    "separator": _separator,
    "tmux": _tmux,
    "shell": _shell,
    "ssh": _ssh,
}


def _container(w: list[Token], wrapper: Wrapper, out: Unwrapped) -> list[Token] | None:
    """``docker|podman [global options] [container] run|exec [options] IMAGE|CONTAINER COMMAND…``."""
    j, _ = skip_options(w, 1, wrapper.extra.get("global_options", ()))
    sub = w[j].value if j < len(w) else None
    if sub == "container" and j + 1 < len(w):
        j += 1
        sub = w[j].value
    if sub == "run":
        j, opts = skip_options(w, j + 1, wrapper.values)
        if j >= len(w):
            return None
        out.image = w[j].text
        rest = w[j + 1:]
        env: dict[str, object] = {}
        for name, value, _ in opts:
            if name in ("-e", "--env") and value is not None:
                _env_option(value, env)
            elif name == "--entrypoint" and value is not None and value.value != "":
                rest = [value] + rest
            elif name == "--gpus" and value is not None:
                from linter.gpus.counts import docker_gpus

                out.gpu_counts.append(docker_gpus(value, f"{w[0].value or 'docker'} run --gpus"))
        if not rest:
            return None  # the image's own CMD runs: not in the file
        out.inherit, out.env = False, env
        return rest
    if sub == "exec":
        j, opts = skip_options(w, j + 1, wrapper.extra.get("exec_options", ()))
        env = {}
        for name, value, _ in opts:
            if name in ("-e", "--env") and value is not None:
                _env_option(value, env)
        out.inherit, out.env = False, env
        return w[j + 1:]
    return None


def _env_option(value: Token, out: dict) -> None:
    raw = value.raw
    if "=" in raw:
        name = raw.split("=", 1)[0]
        if _NAME.match(name):
            out[name] = value.text[len(name) + 1:]
    elif value.value is not None and _NAME.match(value.value):
        out[value.value] = Passthrough(value.value)


def shell_c_script(words: list[Token]) -> Token | None:
    """The STRING of ``bash [options] -c STRING …`` (None without ``-c``); bash(1) INVOCATION."""
    j = 1
    command_mode = False
    while j < len(words):
        tok = words[j]
        raw = tok.raw
        if tok.splat:
            j += 1
            continue
        if raw in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            j += 2
            continue
        if raw == "--":
            j += 1
            break
        if raw.startswith("--"):
            j += 1
            continue
        if len(raw) > 1 and raw[0] in "-+":
            if raw[0] == "-" and "c" in raw[1:]:
                command_mode = True
            j += 2 if raw[-1] in "oO" else 1
            continue
        break
    if command_mode and j < len(words):
        return words[j]
    return None


def _join_tokens(tokens: list[Token], where: Span | None) -> MStr:
    parts: list[MStr] = []
    for k, t in enumerate(tokens):
        if k:
            parts.append(MStr.plain(" ", where))
        parts.append(t.text)
    return MStr.join(parts, where)


@dataclass
class Found:
    """A launch found in a command: ``program`` (the entry point), its server-argument ``args``, the
    container ``image`` it runs in (or None), the target GPUs the command's wrappers name, the GPU
    counts its wrappers and environment give (``gpu_counts``) and the wrapper ``chain``."""

    program: str
    args: list[Token]
    image: MStr | None = None
    gpu_decls: list[GpuDecl] = field(default_factory=list)
    chain: list[str] = field(default_factory=list)
    via_shell: bool = False
    """True when a shell string was parsed on the way (its words went through shell splitting)."""
    gpu_counts: list[GpuCount] = field(default_factory=list)
    background: bool = False
    """True when a shell string on the way runs it in the background (``… &``)."""

