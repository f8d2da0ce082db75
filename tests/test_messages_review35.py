"""Messages after the third review of issue 35: what a note, ``--explain`` and the summary name is
what a user can open or count — a file:line:column and a condition, never an internal label; the
text an unknown word was written as; launches, not their paths; a launch the linter could not build
is still a launch."""

from __future__ import annotations

import textwrap

import pytest

from tests.helpers import lint_json, run, write_tree

H100 = ["--target-gpu", "H100"]


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# -- a: an unsafe fix names the launches it also changes by where they are -----------------------------

CALLS = src("""
    import subprocess

    BACKEND = "fa4"


    def go(det=False):
        cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
               "--attention-backend", BACKEND]
        if det:
            cmd.append("--enable-deterministic-inference")
        subprocess.run(cmd)


    go(det=True)
    go()
    """)


@pytest.mark.parametrize("cached", [False, True])
def test_an_unsafe_fix_names_the_other_launch_by_its_place(tmp_path, capsys, cached):
    write_tree(tmp_path, {"go.py": CALLS})
    if cached:
        lint_json(tmp_path, capsys, *H100)  # the second run answers from the cache
    diags = lint_json(tmp_path, capsys, *H100)[1]
    [d] = diags
    assert (d["code"], d["line"], d["fix"]["applicability"]) == ("SGL101", 3, "unsafe")
    # the call go() at line 15 reads the same constant, with deterministic inference off
    assert "the fix is unsafe: the value is also read by the launch at go.py:15:1" in d["notes"]
    assert not any("#1" in n or "go:deepseek" in n for n in d["notes"])


def test_launches_sharing_a_container_are_named_by_their_place(tmp_path, capsys):
    write_tree(tmp_path, {"two.sh": src("""
        #!/bin/bash
        #SBATCH --gres=gpu:h100:8
        python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp 4 --port 30000 &
        python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp 8 --port 30001 &
        wait
        """)})
    [d] = lint_json(tmp_path, capsys)[1]
    assert d["code"] == "SGL401" and d["line"] == 4
    assert "runs at the same time as the launch at two.sh:3:32 (4 GPUs) in the same container" in d["message"]
    assert "script:" not in d["message"]
