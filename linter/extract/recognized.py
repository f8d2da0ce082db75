"""The SGLang launches a command runs, for the formats that are not shell themselves (compose,
Kubernetes, Python, Dockerfiles …): recognition (:func:`linter.recognize.unwrap`) takes the wrappers
off, and a shell string met on the way (``bash -c``, ``ssh``, ``sbatch --wrap``) is handed to the shell
format. Recognition itself never reads shell: this module joins the two, one layer above both.
"""

from __future__ import annotations

from linter.launch import MStr, Problem, Token
from linter.recognize import Found, Passthrough, UnwrapKind, unwrap
from linter.source import SourceFile, Span

__all__ = ["launches"]


def launches(words: list[Token], source: SourceFile, *, env: dict[str, MStr] | None = None,
             image: MStr | None = None, span: Span | None = None,
             problems: list[Problem] | None = None) -> list[Found]:
    """The SGLang launches a command runs, for a format that is not shell itself (compose, Python,
    Kubernetes …). ``env`` is the environment the command starts with (a container's variables);
    a shell string met on the way goes to the shell format, its syntax errors into ``problems``."""
    got = unwrap(words, span, image)
    if got.kind is UnwrapKind.LAUNCH:
        return [Found(got.program, got.args, got.image, got.gpu_decls, got.chain)]
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
    from linter.extract.shell import launches_in_script  # tree-sitter: only for a command with a shell string

    script = got.script.text
    where = script.where.source if script.where is not None else \
        next((run[1] for run in script.runs if run[1] is not None), source)
    found = launches_in_script(script, where, start, problems)
    return [Found(program, args, img if img is not None else got.image, list(got.gpu_decls), got.chain + [got.how],
                  via_shell=True)
            for program, args, img in found]
