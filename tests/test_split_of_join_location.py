"""A finding in a string that was joined and split again is located at the literal that wrote the
offending word, not at the ``join`` (issue 35, review rev36 D15; slime
``tests/test_glm52_6layer_deterministic_e2e.py`` @ the reviewed commit: SGL201 at lines 234/238, not at
``return " ".join(groups)``). A guard: both were right when this was checked."""

from __future__ import annotations

import textwrap

import pytest

from tests.helpers import lint_json, write_tree

INLINE = textwrap.dedent("""\
    import subprocess
    groups = [
        "--hf-checkpoint /root/Qwen3-4B --sglang-enable-fp32-moe-router",
        "--ci-test",
    ]
    subprocess.run(["python3", "train.py", *" ".join(groups).split()])
    """)
# slime's shape, cut down: f-string groups, a conditional append, the joined string returned by a helper
# with keyword parameters and split where the trainer is started
SLIME = textwrap.dedent("""\
    import subprocess

    NUM_GPUS = 8


    def _train_args(hf_model, *, dump=None) -> str:
        groups = [
            f"--actor-num-gpus-per-node {NUM_GPUS} "
            f"--hf-checkpoint {hf_model} --colocate",
            f"--rollout-num-gpus-per-engine {NUM_GPUS} "
            "--sglang-moe-runner-backend deep_gemm --sglang-fp8-gemm-runner-backend deep_gemm "
            "--sglang-max-prefill-tokens 4096 --sglang-enable-fp32-moe-router "
            "--sglang-enable-deterministic-inference",
            "--ci-test",
        ]
        if dump is not None:
            groups.append(f"--sglang-debug-tensor-dump-output-folder {dump}")
        return " ".join(groups)


    def run_gate(layerwise=False):
        argv = _train_args("/root/GLM-5", dump="/tmp/d" if layerwise else None).split()
        subprocess.run(["python3", "train.py", *argv])
    """)


@pytest.mark.parametrize("text, places", [
    (INLINE, [(3, 37)]),
    (SLIME, [(11, 48), (12, 43)]),
])
def test_unknown_option_of_a_split_join_is_reported_at_its_literal(tmp_path, capsys, text, places):
    write_tree(tmp_path, {"t.py": text})
    diags = lint_json(tmp_path, capsys)[1]
    assert [(d["line"], d["column"]) for d in diags if d["code"] == "SGL201"] == places
