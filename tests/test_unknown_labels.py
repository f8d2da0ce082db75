"""``--explain`` names each unknown part of a launch by the source text of the expression it stands
for and its place (issue 35, review rev36 D9): an f-string's field (``plan.train_args``, not the
``{`` before it, also after the string went through the shell reader), a helper whose early return
makes its value differ by path (``U.get_default_wandb_args(...)``, not ``f at run.py:1:1``), a name
whose paths were merged past the cap (``cmd``), a shell variable whose paths were merged (``$A``, not
the text of the first assignment). A word written around an expansion (``fa${V}``) keeps showing the
whole word."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.helpers import run, write_tree

H100 = ["--target-gpu", "H100"]


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


PLAN = src("""
    from dataclasses import dataclass
    @dataclass
    class Plan:
        train_args: str = ""
    def build_plan(args):
        if args.x:
            return Plan(train_args="--sglang-enable-deterministic-inference")
        return Plan()
    """)
RUN = src("""
    import miles.utils.external_utils.command_utils as U
    from m.plan import build_plan
    def execute(args):
        plan = build_plan(args)
        train_args = f"--hf-checkpoint /root/DeepSeek-V3 --sglang-attention-backend fa4 {plan.train_args} "
        U.execute_train(train_args=train_args, num_gpus_per_node=8, megatron_model_type="deepseek-v3")
    """)
# miles scripts/run_qwen3_4b.py @31f1ca96 (lines 293-307), cut down: a helper that returns "" early
# (miles/utils/external_utils/command_utils.py get_default_wandb_args), a plan per path, a CLI field
WANDB = src("""
    import os
    def get_default_wandb_args(test_file, run_id=None):
        if not os.environ.get("WANDB_API_KEY"):
            return ""
        out = f"--use-wandb --wandb-group {run_id} "
        if os.environ.get("W1"):
            out += "--wandb-host h1 "
        if os.environ.get("W2"):
            out += "--wandb-team t2 "
        if os.environ.get("W3"):
            out += "--wandb-mode m3 "
        if os.environ.get("W4"):
            out += "--wandb-dir d4 "
        if os.environ.get("W5"):
            out += "--wandb-x x5 "
        return out
    """)
MILES = src("""
    import miles.utils.external_utils.command_utils as U
    from m.helpers import get_default_wandb_args
    from m.plan import build_plan
    def execute(args):
        plan = build_plan(args)
        true_on_policy_args = plan.train_args
        train_args = (
            "--hf-checkpoint /root/DeepSeek-V3 --sglang-attention-backend fa4 "
            f"{get_default_wandb_args(__file__, run_id=args.run_id)} "
            f"{true_on_policy_args} "
            f"{args.extra_args} "
        )
        U.execute_train(train_args=train_args, num_gpus_per_node=8, megatron_model_type="deepseek-v3")
    """)
MANY_IFS = 'import os, subprocess\ncmd = ["python", "-m", "sglang.launch_server", "--model-path", "m"]\n' + "".join(
    f'if os.environ.get("V{k}"):\n    cmd += ["--served-model-name", "m{k}"]\n' for k in range(20)) + \
    "subprocess.run(cmd)\n"
SHELL_MANY_IFS = "A=\"--model-path m\"\n" + "".join(
    f'if [ -n "$V{k}" ]; then A="$A --served-model-name m{k}"; fi\n' for k in range(20)) + \
    "python -m sglang.launch_server $A\n"
SHELL_ARRAY_IFS = "A=(--model-path m)\n" + "".join(
    f'if [ -n "$V{k}" ]; then A+=(--served-model-name m{k}); fi\n' for k in range(20)) + \
    'python -m sglang.launch_server "${A[@]}"\n'
DET = "--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference"


def unknown_lines(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if line.strip().startswith("unknown:   ")]


@pytest.mark.parametrize("files, name, shown", [
    # must fix: an f-string's field read through the trainer's shell-like split was '{ at run.py:5:85'
    ({"m/__init__.py": "", "m/plan.py": PLAN, "run.py": RUN}, "run.py",
     ["(plan.train_args at run.py:5:86)"]),
    # must fix: paths merged in a field: 'f at run.py:1:1' three times (the path where the helper returns ""
    # early has no unknown part from it)
    ({"m/__init__.py": "", "m/plan.py": PLAN, "m/helpers.py": WANDB, "run.py": MILES}, "run.py",
     ["(true_on_policy_args at run.py:10:12, args.extra_args at run.py:11:12)",
      "(get_default_wandb_args(__file__, run_id=args.run_id) at run.py:9:12, true_on_policy_args at run.py:10:12, "
      "args.extra_args at run.py:11:12)"]),
    # must fix: a list whose paths were merged past the cap: 'a value with no single place in the files'
    ({"u.py": MANY_IFS}, "u.py", ["(cmd at u.py:43:16)"]),
    # must fix: a shell value whose paths were merged: the text of its first assignment (3:3, several lines)
    ({"u.sh": SHELL_MANY_IFS}, "u.sh", ["($A at u.sh:7:26, $A at u.sh:12:27, $A at u.sh:17:27 and 1 more)"]),
    # a shell array whose paths were merged: where it is expanded (was 'a value with no single place' four times)
    ({"u.sh": SHELL_ARRAY_IFS}, "u.sh", ["(${A[@]} at u.sh:22:33)"]),
    # past three, how many more
    ({"u.sh": "python -m sglang.launch_server --model-path m $A $B $C $D $E\n"}, "u.sh",
     ["($A at u.sh:1:47, $B at u.sh:1:50, $C at u.sh:1:53 and 2 more)"]),
    # must not change: a whole unknown expression, a splat, an expansion
    ({"u.py": 'import subprocess, sys\nsubprocess.run(["python", "-m", "sglang.launch_server", *sys.argv[1:]])\n'},
     "u.py", ["(*sys.argv[1:] at u.py:2:57)"]),
    ({"u.sh": f"python -m sglang.launch_server {DET} ${{EXTRA}}\n"}, "u.sh", ["(${EXTRA} at u.sh:1:102)"]),
])
def test_explain_names_each_unknown_part_by_its_expression(tmp_path, capsys, files, name, shown):
    write_tree(tmp_path, files)
    out = run(tmp_path, capsys, *H100, "--explain", name)[1]
    assert unknown_lines(out) == [f"unknown:   arguments not known statically {s} may set any option" for s in shown]


@pytest.mark.parametrize("text, shown", [
    # must not change: a word written around an expansion is shown whole
    (f"python -m sglang.launch_server {DET} --attention-backend fa${{V}}\n", "fa${V} at u.sh:1:122"),
    (f"python -m sglang.launch_server {DET} --attention-backend $1\n", "$1 at u.sh:1:122"),
])
def test_a_value_keeps_the_word_it_was_written_in(tmp_path, capsys, text, shown):
    write_tree(tmp_path, {"u.sh": text})
    out = run(tmp_path, capsys, *H100, "--explain", "u.sh")[1]
    assert f"attention_backend: unknown ({shown}) (written as --attention-backend)" in out


@pytest.mark.parametrize("code, shown", [
    # a field's expression without the braces, blanks, conversion or format spec around it
    ('f"--x { a.b } --y"', "a.b"),
    ('f"--x {a!s} --y"', "a"),
    ('f"--x {d[\'k\']} --y"', "d['k']"),
    ('f"""--x {(a +\n b)} --y"""', "(a + b)"),
])
def test_an_f_string_field_is_named_by_its_expression(tmp_path, capsys, code, shown):
    text = "import subprocess\nsubprocess.run(\"python -m sglang.launch_server --model-path m \" + " + code + \
        ", shell=True)\n"
    write_tree(tmp_path, {"u.py": text})
    out = run(tmp_path, capsys, *H100, "--explain", "u.py")[1]
    [line] = unknown_lines(out)
    assert line.startswith(f"unknown:   arguments not known statically ({shown} at u.py:"), line


def test_an_unknown_characters_label_survives_joins_slices_and_pickling():
    """The label rides on the character's origin: a literal written right before the expression
    does not swallow it into its run, and a pool worker's result (pickled) keeps it."""
    import pickle

    from linter.launch import MStr, unknown_label
    from linter.source import SourceFile, Span

    source = SourceFile(Path("u.sh"), "u.sh", "fa$V tail")
    joined = MStr.join([MStr.literal(source, 0, 2), MStr.unknown(Span(source, 2, 4)), MStr.literal(source, 4, 9)])
    assert [r[0] for r in joined.runs] == [2, 1, 5]
    for m in (joined, joined[1:4], pickle.loads(pickle.dumps(joined)), MStr(joined.text, joined.origins)):
        assert unknown_label(m).text == "$V"
    assert unknown_label(MStr.literal(source, 0, 2)) is None
