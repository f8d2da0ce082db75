"""The SGLang launches a command runs, for the formats that are not shell themselves (compose,
Kubernetes, Python, Dockerfiles …): recognition (:func:`linter.recognize.unwrap`) takes the wrappers
off, and a shell string met on the way (``bash -c``, ``ssh``, ``sbatch --wrap``) is handed to the shell
format. Recognition itself never reads shell: this module joins the two, one layer above both.
"""

from __future__ import annotations

from linter.launch import GpuCount, MStr, Problem, Token
from linter.recognize import Found, Passthrough, UnwrapKind, unwrap
from linter.source import SourceFile, Span

__all__ = ["environment_counts", "launches"]


def environment_counts(env: dict, inherit_from: dict | None = None) -> list[GpuCount]:
    """The GPU counts the visible-device variables of a launch's environment give (``CUDA_VISIBLE_DEVICES``,
    ``NVIDIA_VISIBLE_DEVICES``; :func:`linter.gpus.counts.visible_devices`). ``env`` maps a name to an
    :class:`MStr`, :data:`~linter.launch.UNKNOWN` or a :class:`~linter.recognize.Passthrough`;
    ``inherit_from`` is the environment a passthrough (``docker run -e NAME``) takes its value from. A
    variable set to a value that is not known statically gives an unknown count."""
    from linter.gpus.counts import VISIBLE_DEVICE_VARIABLES, visible_devices

    out = []
    for name in VISIBLE_DEVICE_VARIABLES:
        if name not in env:
            continue
        value = env[name]
        if isinstance(value, Passthrough):
            value = (inherit_from or {}).get(value.name)
            if value is None:
                continue
        got = visible_devices(name, value if isinstance(value, MStr) else None)
        if got is not None:
            out.append(got)
    return out


def launches(words: list[Token], source: SourceFile, *, env: dict[str, MStr] | None = None,
             image: MStr | None = None, span: Span | None = None,
             problems: list[Problem] | None = None) -> list[Found]:
    """The SGLang launches a command runs, for a format that is not shell itself (compose, Python,
    Kubernetes …). ``env`` is the environment the command starts with (a container's variables);
    a shell string met on the way goes to the shell format, its syntax errors into ``problems``.
    Each :class:`~linter.recognize.Found` carries the GPU counts its wrappers and environment give
    and whether the shell string runs it in the background."""
    got = unwrap(words, span, image)
    if got.kind is UnwrapKind.LAUNCH:
        seen = {**(env or {}), **got.env} if got.inherit else dict(got.env)
        counts = list(got.gpu_counts) + environment_counts(seen, env)
        return [Found(got.program, got.args, got.image, got.gpu_decls, got.chain, gpu_counts=counts)]
    if got.kind is not UnwrapKind.SCRIPT or got.script is None or got.script.splat:
        return []
    start: dict[str, MStr] = dict(env or {}) if got.inherit else {}
    for name, value in got.env.items():
        if isinstance(value, MStr):
            start[name] = value
        elif isinstance(value, Passthrough) and env is not None and name in env:
            start[name] = env[name]
        else:
            start.pop(name, None)
    from linter.extract.shell import script_launches  # tree-sitter: only for a command with a shell string

    script = got.script.text
    where = script.where.source if script.where is not None else \
        next((run[1] for run in script.runs if run[1] is not None), source)
    found = script_launches(script, where, start, problems)
    return [Found(f.program, f.args, f.image if f.image is not None else got.image,
                  list(got.gpu_decls) + list(f.gpu_decls), got.chain + [got.how], via_shell=True,
                  gpu_counts=list(got.gpu_counts) + list(f.gpu_counts), background=f.background)
            for f in found]
