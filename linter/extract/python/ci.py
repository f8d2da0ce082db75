"""Test-runner declarations of the GPU: SGLang's CI registration of a test file
(:mod:`linter.sglang.ci`), ``register_cuda_ci(…, runner_config="4-gpu-b200")`` or a suite name such
as ``"stage-c-test-dsv4-4-gpu-b200"``, declares the GPU of every launch in the file — only where
the GPU catalog knows the runner's GPU word exactly.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from linter.extract.python.syntax import call_args
from linter.extract.python.values import Ref, Str
from linter.launch import GpuDecl
from linter.sglang.ci import REGISTER_CUDA_CI, RUNNER_KEYWORDS, SUITE_POSITION, runner_gpu

if TYPE_CHECKING:
    from linter.extract.python.base import Analysed


def ci_declarations(a: Analysed) -> list[GpuDecl]:
    """The GPUs the module-level CI registrations of the analysed file name."""
    if "register_cuda_ci" not in a.source.text:
        return []
    out: list[GpuDecl] = []
    module = a.index.scopes[0]
    for call, scope in a.index.calls:
        if scope is not module:
            continue
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if name != "register_cuda_ci" and name not in a.index.alias_names:
            continue
        frame = a.frame_before(scope, a.offsets(call)[0])
        callee = a.ev(call.func, frame)
        if not (isinstance(callee, Ref) and callee.qual in REGISTER_CUDA_CI):
            continue
        given = {}
        args = call_args(call)
        positional = [arg for arg in args if arg.keyword is None and not arg.star]
        if len(positional) > SUITE_POSITION:
            given["suite"] = positional[SUITE_POSITION].value
        for arg in args:
            if arg.keyword is not None and arg.keyword in RUNNER_KEYWORDS:
                given[arg.keyword] = arg.value
        for key in RUNNER_KEYWORDS:  # the runner, else the suite
            if key not in given:
                continue
            v = a.ev(given[key], frame)
            if not (isinstance(v, Str) and v.m.known):
                continue
            got = runner_gpu(v.m.text)
            if got is not None:
                i, j = got
                out.append(GpuDecl(v.m.text[i:j], v.m.location(i, j),
                                   f"SGLang CI registration {key}={v.m.text!r}"))
                break
    return out
