"""SGLang's CI registration of a test file, and the GPU runner it names.

A test file of SGLang's repository registers itself with ``register_cuda_ci(est_time, suite=None,
nightly=False, disabled=None, *, stage=None, runner_config=None)`` (``python/sglang/test/ci/
ci_register.py``: a marker SGLang's CI reads from the file's syntax tree, a no-op at run time; the
effective suite is ``f"{stage}-test-{runner_config}"``, else ``suite``). The runner names the GPU as
the word after ``N-gpu-``: ``runner_config="4-gpu-b200"``, ``"8-gpu-h200"``, ``"deepep-4-gpu-h100"``,
legacy suites ``"nightly-4-gpu-b200"``, ``"stage-c-test-dsv4-4-gpu-b200"``. Runners named by size
(``"1-gpu-small"``, ``"1-gpu-large"``) or suites without a GPU (``"nightly-1-gpu"``) name none.
(SGLang main as of 2026-07-20, read from the modal-projects/sglang mirror at 8905cbd.)
"""

from __future__ import annotations

import re

REGISTER_CUDA_CI = frozenset({"sglang.test.ci.ci_register.register_cuda_ci"})
"""The registration call whose runner is an NVIDIA GPU machine."""
RUNNER_KEYWORDS = ("runner_config", "suite")
"""Keyword arguments that may name the runner; ``suite`` is also the second positional argument."""
SUITE_POSITION = 1

_RUNNER = re.compile(r"(?:^|-)\d+-gpu-(?P<gpu>[A-Za-z0-9]+)")


def runner_gpu(text: str) -> tuple[int, int] | None:
    """``(start, end)`` of the GPU word in a runner or suite name (``"4-gpu-b200"`` → the ``b200``),
    when the GPU catalog knows that word as exactly one GPU; None otherwise (``"1-gpu-large"``)."""
    from linter.gpus.catalog import lookup

    m = _RUNNER.search(text)
    if m is None or lookup(m.group("gpu")) is None:
        return None
    return m.start("gpu"), m.end("gpu")
