"""Values along paths in Python past the variant cap (issue 35, fresh review rev37): options every path
writes stay known and are located at their literals (d6), the decision that changes what the rules
decide is kept among others that only change a dp-attention flag (d5)."""

from __future__ import annotations

import sys

import pytest

from tests.test_paths import lint, src


def miles_misc(n_misc: int, misc_first: bool = True) -> str:
    """A miles-style script: ``sglang_args`` set in an ``if``/``else`` (``--sglang-tp-size`` written
    in both branches), ``n_misc`` other undecided ``misc_args +=``, all read by one f-string."""
    lines = ["import argparse", "import miles.utils.external_utils.command_utils as U", "",
             "def execute(args):", '    ckpt_args = "--hf-checkpoint /root/models/DeepSeek-V3 "',
             '    misc_args = ""']
    misc = [line for i in range(n_misc) for line in (f"    if args.m{i}:", f'        misc_args += "--misc-{i} "')]
    branch = ["    if args.single:",
              '        sglang_args = "--rollout-num-gpus-per-engine 2 --sglang-tp-size 2 "',
              "    else:",
              '        sglang_args = "--rollout-num-gpus-per-engine 8 --sglang-tp-size 8 "']
    lines += misc + branch if misc_first else branch + misc
    fields = '{ckpt_args} {misc_args} {sglang_args}' if misc_first else '{ckpt_args} {sglang_args} {misc_args}'
    lines += [f'    train_args = f"{fields} "',
              '    U.execute_train(train_args=train_args, num_gpus_per_node=8, megatron_model_type="deepseek-v3")']
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("n_misc", "misc_first"), [
    (3, True),  # 16 paths: within the cap (as before)
    (4, True), (6, True), (12, True),  # past it: the tp-size words were merged away, no finding
    (4, False), (12, False),
], ids=["3-within-cap", "4", "6", "12", "4-after", "12-after"])
def test_past_the_cap_an_option_written_on_every_path_is_found_at_its_literals(tmp_path, capsys, n_misc, misc_first):
    text = miles_misc(n_misc, misc_first)
    # (--sglang-tp-size, which the trainer replaces: SGL302 since rev39 D5, SGL201 before)
    code, diags = lint(tmp_path, capsys, {"run.py": text}, "--select", "SGL302")
    lines = text.splitlines()
    want = [(i + 1, lines[i].index("--sglang-tp-size") + 1) for i, line in enumerate(lines) if "--sglang-tp-size" in line]
    assert [(d["code"], d["severity"], d["line"], d["column"]) for d in diags] == \
        [("SGL302", "warning", line, col) for line, col in want]
    assert all("not on every path" not in d["message"] for d in diags)


def mxfp8_like(misc: str) -> str:
    """miles' run_deepseek_v32.py in small: each branch of ``if args.mxfp8`` sets ``world`` in an
    ``if``/``else`` and writes ``--sglang-tp-size`` and ``--sglang-cuda-graph-max-bs`` at literals of
    its own, with a different MoE runner backend."""
    def branch(backend: str) -> list[str]:
        return ["        if args.single:", "            world = 2", "        else:", "            world = 8",
                "        sglang_args = (", '            f"--rollout-num-gpus-per-engine {world} "',
                f'            "--sglang-moe-runner-backend {backend} "', '            f"--sglang-tp-size {world} "',
                '            "--sglang-cuda-graph-max-bs 256 "', "        )"]
    lines = ["import miles.utils.external_utils.command_utils as U", "", "def execute(args):",
             '    ckpt_args = "--hf-checkpoint /root/models/DeepSeek-V3 "', '    misc_args = ""', f"    {misc}",
             "    if args.mxfp8:", *branch("flashinfer_trtllm_routed"), "    else:", *branch("triton"),
             '    train_args = (f"{ckpt_args} " f"{misc_args} " f"{sglang_args} ")',
             "    U.execute_train(train_args=train_args, num_gpus_per_node=8)"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("n_misc", [0, 5])
def test_past_the_cap_findings_on_words_of_both_branches_are_at_their_literals(tmp_path, capsys, n_misc):
    """miles' run_deepseek_v32.py: SGL302/SGL202 on words both branches of ``if args.rollout_mxfp8``
    write were located at the first field of the f-string that reads them (``f"{ckpt_args} "``)."""
    misc = "\n    ".join(f'if args.m{i}:\n        misc_args += "--misc-{i} "' for i in range(n_misc))
    text = mxfp8_like(misc or "pass")
    code, diags = lint(tmp_path, capsys, {"run.py": text}, "--select", "SGL201,SGL202,SGL302")
    lines = src(text).splitlines()
    at = [i + 1 for i, line in enumerate(lines) if "--sglang-tp-size" in line or "--sglang-cuda-graph" in line]
    got = sorted({(d["code"], d["severity"], d["line"]) for d in diags})
    assert got == [("SGL202", "error", at[1]), ("SGL202", "error", at[3]),
                   ("SGL302", "warning", at[0]), ("SGL302", "warning", at[2])]


def det_among_dp_attention(n: int, det_at: int, dp_at: tuple) -> str:
    """``n`` undecided ``cmd.append`` of unrelated flags, ``--enable-dp-attention`` at ``dp_at`` and
    ``--enable-deterministic-inference`` under ``args.true_on_policy`` at ``det_at``, after fa4."""
    lines = ["import argparse, subprocess", "args = argparse.ArgumentParser().parse_args()",
             'cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", '
             '"--attention-backend", "fa4"]']
    for i in range(n):
        if i == det_at:
            lines += ["if args.true_on_policy:", "    cmd.append('--enable-deterministic-inference')"]
        flag = "--enable-dp-attention" if i in dp_at else f"--flag-{i}"
        lines += [f"if args.opt{i}:", f"    cmd.append('{flag}')"]
    return "\n".join(lines + ["subprocess.run(cmd)"]) + "\n"


@pytest.mark.parametrize(("n", "det_at", "dp_at"), [
    (26, 17, (6, 22)),  # the review's file: paths split on opt25, opt22, opt6, no SGL101
    (30, 17, (6, 22)), (32, 17, (6, 22)),
    (26, 3, (6, 22)), (26, 25, (0, 1)),
    (24, 17, (6, 22)), (26, 17, (6,)),  # found before too
])
def test_past_the_cap_the_deterministic_switch_is_kept_among_dp_attention_flags(tmp_path, capsys, n, det_at, dp_at):
    code, diags = lint(tmp_path, capsys, {"run.py": det_among_dp_attention(n, det_at, dp_at)}, "--select", "SGL101")
    [d] = diags
    assert (d["code"], d["severity"], d["line"], d["column"]) == ("SGL101", "warning", 3, 115)
    assert "(when `args.true_on_policy` is true; not on every path of this launch)" in d["message"]


# -- a rule that fails on every path, with other values on each (rev37 d10) -------------------------

def _sizes(single: str, other: str) -> str:
    return "\n".join([
        "import os, subprocess",
        'cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3"]',
        'if os.environ.get("SINGLE"):', f"    cmd += [{single}]", "else:", f"    cmd += [{other}]",
        "subprocess.run(cmd)"]) + "\n"


@pytest.mark.parametrize(("single", "other", "want"), [
    # refused on both paths, each with its own sizes: the launch never starts
    ('"--tp-size", "2", "--dp-size", "3", "--enable-dp-attention"',
     '"--tp-size", "8", "--dp-size", "3", "--enable-dp-attention"', [("error", 4), ("error", 6)]),
    ('"--tp-size", "2", "--attn-dp-size", "3"', '"--tp-size", "4", "--attn-dp-size", "3"', [("error", 4), ("error", 6)]),
    # must not change: refused on one path only, a warning naming it
    ('"--tp-size", "2", "--attn-dp-size", "3"', '"--tp-size", "6", "--attn-dp-size", "3"', [("warning", 4)]),
    ('"--tp-size", "2", "--attn-dp-size", "3"', '"--tp-size", "6"', [("warning", 4)]),
])
def test_a_rule_that_fails_on_every_path_with_other_values_is_an_error(tmp_path, capsys, single, other, want):
    code, diags = lint(tmp_path, capsys, {"run.py": _sizes(single, other)}, "--select", "SGL402")
    assert [(d["severity"], d["line"]) for d in diags] == want
    for d in diags:
        assert ("not on every path" in d["message"]) == (d["severity"] == "warning")
        assert "when `os.environ.get(\"SINGLE\")` is " in d["message"]


# -- the cost of the collapse past MAX_PATH_NESTING (rev37 d11) -------------------------------------

def test_the_collapse_tries_no_more_decisions_than_it_can_keep(tmp_path, capsys, monkeypatch):
    """Among many undecided ``if``s that each set ``--tp``, every decision changes a parallel size:
    once more of them are confirmed than can be kept apart (they are all merged then), or twice that
    many were tried, the others are not tried (each trial reads the whole command: trying every candidate cost time growing with
    the square of the number of ``if``s). No timing: the trials are counted."""
    from linter import limits
    from linter.extract.python import paths

    trials: list[int] = []  # per collapse, the runs its _confirmed started itself
    stack: list[list[int]] = []
    confirmed = paths.Paths._confirmed
    explore = paths.Paths.explore_paths

    def counting_confirmed(self, run, candidates, switched):
        stack.append([0])
        try:
            return confirmed(self, run, candidates, switched)
        finally:
            trials.append(stack.pop()[0])

    def counted(self, run, focus=None, seen=None):
        if stack and sys._getframe(1).f_code.co_name == "_confirmed":
            stack[-1][0] += 1
        return explore(self, run, focus, seen)

    monkeypatch.setattr(paths.Paths, "_confirmed", counting_confirmed)
    monkeypatch.setattr(paths.Paths, "explore_paths", counted)
    lines = ["import os, subprocess", 'cmd = ["python", "-m", "sglang.launch_server", "--model-path", '
             '"deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4"]']
    for i in range(60):
        lines += [f"if os.environ.get('V{i}'):", f"    cmd += ['--tp', '{i % 8 + 1}']"]
    lint(tmp_path, capsys, {"run.py": "\n".join(lines + ["subprocess.run(cmd)"]) + "\n"}, "--select", "SGL101")
    assert trials and max(trials) <= 2 * limits.MAX_PATH_VARIANTS.bit_length()
