"""Values along paths (issue 35): a launch whose options are set on paths the linter cannot decide is
one launch per path; a finding of only some paths is a warning naming the path, with an unsafe fix."""

from __future__ import annotations

import re
import textwrap
import time
from pathlib import Path

import pytest

from linter import limits
from tests.helpers import lint_json, run, write_tree

H100 = ["--target-gpu", "H100"]
DET = "--sglang-enable-deterministic-inference"


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def lint(tmp_path: Path, capsys, files: dict[str, str], *args: str) -> tuple[int, list[dict]]:
    write_tree(tmp_path, {k: src(v) for k, v in files.items()})
    return lint_json(tmp_path, capsys, *H100, *args)


def explain(tmp_path: Path, capsys, name: str) -> str:
    return run(tmp_path, capsys, *H100, "--explain", name)[1]


def only_on_path(diags: list[dict], line: int, text: str, when: str, fix: str = "unsafe") -> dict:
    """The one diagnostic, SGL101 as a warning at ``line`` on ``text``, for the path ``when``, its fix
    ``fix`` (unsafe when a path without the finding reads the value it edits)."""
    [d] = diags
    assert (d["code"], d["severity"], d["line"]) == ("SGL101", "warning", line)
    assert f"(when {when}; not on every path of this launch)" in d["message"]
    assert d["fix"]["applicability"] == fix
    assert [e["content"] for e in d["fix"]["edits"]] == [text]
    return d


# -- Python -----------------------------------------------------------------------------------------

MILES = """
    import miles.utils.external_utils.command_utils as U

    def execute(args):
        sglang_args = "--sglang-attention-backend fa4 "
        if args.true_on_policy:
            sglang_args += "--sglang-enable-deterministic-inference "
        train_args = (
            "--hf-checkpoint /root/models/DeepSeek-V3 "
            f"{sglang_args} "
        )
        U.execute_train(train_args=train_args, config=args)
    """


def test_plus_equals_in_a_branch_is_reported_with_its_condition_and_an_unsafe_fix(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": MILES})
    assert code == 1
    d = only_on_path(diags, 4, "fa3", "`args.true_on_policy` is true")
    # the fix edits the value written once and read by both paths: unsafe, and it says why
    assert d["column"] == src(MILES).splitlines()[3].index("fa4") + 1
    out = explain(tmp_path, capsys, "run.py")
    assert "path:      when `args.true_on_policy` is true" in out
    assert "path:      when `args.true_on_policy` is false" in out
    code, out, _ = run(tmp_path, capsys, *H100, "--fix", ".")
    assert "fa4" in (tmp_path / "run.py").read_text()  # --fix alone does not apply an unsafe fix


def test_conditional_expression_inside_an_f_string(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": """
        import miles.utils.external_utils.command_utils as U

        def execute(args):
            U.execute_train(train_args=(
                "--hf-checkpoint /root/models/DeepSeek-V3 --sglang-attention-backend fa4 "
                f"{'--sglang-enable-deterministic-inference ' if args.deterministic else ''}"
            ), config=args)
        """})
    only_on_path(diags, 5, "fa3", "`args.deterministic` is true")


@pytest.mark.parametrize("build", [
    '"--attention-backend fa4 %s" % ("--enable-deterministic-inference" if det else "")',
    '"--attention-backend fa4 {}".format("--enable-deterministic-inference" if det else "")',
])
def test_conditional_expression_in_percent_and_format(tmp_path, capsys, build):
    code, diags = lint(tmp_path, capsys, {"run.py": f"""
        import os
        det = os.environ.get("DET") == "1"
        os.system("python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 " + {build})
        """})
    only_on_path(diags, 3, "fa3", "`det` is true")


def test_early_return_of_a_helper_run_elsewhere(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"serve.py": """
        import subprocess

        def server_cmd(cfg):
            cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
                   "--attention-backend", "fa4"]
            if not cfg.true_on_policy:
                return cmd
            return cmd + ["--enable-deterministic-inference"]

        def main(cfg):
            proc = subprocess.Popen(server_cmd(cfg))
        """})
    only_on_path(diags, 5, "fa3", "`cfg.true_on_policy` is true")


def test_conditional_expression_returned_by_a_helper(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"serve.py": """
        import subprocess

        def backend(cfg):
            return "fa4" if cfg.fast else "triton"

        def main(cfg):
            subprocess.run(["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--enable-deterministic-inference",
                            "--attention-backend", backend(cfg)])
        """})
    # the fa4 is read only on the path that fails: its fix changes nothing on the other path
    only_on_path(diags, 4, "fa3", "`cfg.fast` is true", fix="safe")


def test_dataclass_field_tested_in_a_method_and_command_kept_on_self(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"serve.py": """
        import subprocess
        from dataclasses import dataclass

        @dataclass
        class ScriptArgs:
            true_on_policy: bool = False

        class Server:
            def __init__(self, args: ScriptArgs):
                self.cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
                            "--attention-backend", "fa4"]
                if args.true_on_policy:
                    self.cmd = self.cmd + ["--enable-deterministic-inference"]

            def start(self):
                return subprocess.Popen(self.cmd)
        """})
    # (``self.cmd`` is read where ``__init__`` leaves it: the branch is kept per path)
    only_on_path(diags, 11, "fa3", "`args.true_on_policy` is true")


def test_match_and_elif_paths_are_named(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": """
        import subprocess

        def main(mode, debug):
            cmd = ["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4"]
            match mode:
                case "det":
                    cmd.append("--enable-deterministic-inference")
                case _:
                    pass
            if debug:
                cmd.append("--log-level=debug")
            elif mode == "quiet":
                cmd.append("--log-level=error")
            subprocess.run(cmd)
        """})
    # the finding holds on the three paths where mode matches "det"
    assert {d["code"] for d in diags} == {"SGL101"} and len(diags) == 1
    assert "when `mode` matches `\"det\"`" in diags[0]["message"]
    out = explain(tmp_path, capsys, "run.py")
    assert out.count("path:      when ") == 6
    assert 'when none of `debug`, `mode == "quiet"` is true' in out


def test_a_loop_over_known_pieces_is_run_once_per_piece(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": """
        import subprocess
        cmd = ["sglang", "serve", "deepseek-ai/DeepSeek-V3"]
        for flag, value in [("--attention-backend", "fa4"), ("--tp", "8")]:
            cmd += [flag, value]
        for flag in ["--enable-deterministic-inference"]:
            cmd.append(flag)
        subprocess.run(cmd)
        """})
    [d] = diags
    assert (d["code"], d["severity"], d["line"]) == ("SGL101", "error", 3)  # one path: as before
    assert d["fix"]["applicability"] == "safe"


def test_a_finding_on_every_path_is_an_error_with_a_safe_fix(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": """
        import subprocess

        def main(args):
            cmd = ["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4",
                   "--enable-deterministic-inference"]
            if args.debug:
                cmd.append("--log-level=debug")
            subprocess.run(cmd)
        """})
    [d] = diags
    assert (d["code"], d["severity"], d["line"], d["fix"]["applicability"]) == ("SGL101", "error", 4, "safe")
    assert "not on every path" not in d["message"]


def test_each_path_its_own_value_each_its_own_fix(tmp_path, capsys):
    # the backend is written on each path: the fix of the failing path edits only that path's value,
    # which no other path reads: the fix is safe (the finding is still a warning of that path)
    code, diags = lint(tmp_path, capsys, {"run.py": """
        import subprocess

        def main(args):
            if args.fast:
                backend = "fa4"
            else:
                backend = "triton"
            subprocess.run(["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--enable-deterministic-inference",
                            "--attention-backend", backend])
        """})
    d = only_on_path(diags, 5, "fa3", "`args.fast` is true", fix="safe")
    assert not any("unsafe" in n for n in d.get("notes", []))
    assert d["column"] == len('        backend = "') + 1


# fa4 on every path, written in two places (fresh review of issue 35, D1): one finding on every path,
# an error at each literal, each fix safe (only the paths that have the finding read what it edits)
EVERY_PATH_TWO_LITERALS = {
    "if/else each appending fa4": ("run.py", """
        import subprocess

        def main(args):
            cmd = ["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--enable-deterministic-inference"]
            if args.x:
                cmd += ["--attention-backend", "fa4"]
            else:
                cmd += ["--attention-backend", "fa4", "--tp", "8"]
            subprocess.run(cmd)
        """, [6, 8]),
    "conditional expression with fa4 on both sides": ("run.py", """
        import os, subprocess
        backend = "fa4" if os.environ.get("A") else "fa4"
        subprocess.run(f"sglang serve deepseek-ai/DeepSeek-V3 --enable-deterministic-inference "
                       f"--attention-backend {backend}", shell=True)
        """, [2, 2]),
    "shell if/else each writing fa4": ("run.sh", """
        #!/bin/bash
        if [ -n "$FAST" ]; then
          ARGS=(--attention-backend fa4 --tp 8)
        else
          ARGS=(--attention-backend fa4)
        fi
        python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference "${ARGS[@]}"
        """, [3, 5]),
}


@pytest.mark.parametrize("case", sorted(EVERY_PATH_TWO_LITERALS))
def test_a_finding_on_every_path_written_in_two_literals_is_an_error_at_each(tmp_path, capsys, case):
    name, text, lines = EVERY_PATH_TWO_LITERALS[case]
    code, diags = lint(tmp_path, capsys, {name: text})
    assert [(d["code"], d["severity"], d["line"]) for d in diags] == [("SGL101", "error", n) for n in lines]
    assert not any("every path" in d["message"] for d in diags)
    assert [(d["fix"]["applicability"], [e["content"] for e in d["fix"]["edits"]]) for d in diags] == \
        [("safe", ["fa3"])] * 2
    run(tmp_path, capsys, *H100, "--fix", ".")
    assert "fa4" not in (tmp_path / name).read_text()


# must not change: a finding each path has in its own words (another model) holds on that path only
TWO_LITERALS_SOME_PATHS = {
    "fa4 on one path only": ("""
        backend = "fa4" if os.environ.get("A") else "triton"
        model = "deepseek-ai/DeepSeek-V3"
        """, [("`os.environ.get(\"A\")` is true", 2)]),
    "fa4 on both paths, another model on each": ("""
        backend = "fa4" if os.environ.get("A") else "fa4"
        model = "deepseek-ai/DeepSeek-V3" if os.environ.get("A") else "deepseek-ai/DeepSeek-R1"
        """, [("`os.environ.get(\"A\")` is true", 2), ("`os.environ.get(\"A\")` is false", 2)]),
}
"""Findings that some paths have. Where the rule fails on every path, with another model on each, it
stays an error: the launch never starts (rev37 d10; see test_paths_python_cap)."""

EVERY_PATH_BY_RULE = {"fa4 on both paths, another model on each"}


@pytest.mark.parametrize("case", sorted(TWO_LITERALS_SOME_PATHS))
def test_a_finding_of_some_paths_stays_a_warning_with_its_condition(tmp_path, capsys, case):
    values, expected = TWO_LITERALS_SOME_PATHS[case]
    code, diags = lint(tmp_path, capsys, {"run.py": "import os, subprocess\n" + src(values) + src("""
        subprocess.run(f"sglang serve {model} --enable-deterministic-inference "
                       f"--attention-backend {backend}", shell=True)
        """)})
    severity = "error" if case in EVERY_PATH_BY_RULE else "warning"
    assert [(d["code"], d["severity"]) for d in diags] == [("SGL101", severity)] * len(expected)
    assert [(d["line"]) for d in diags] == [line for _, line in expected]
    for d, (when, _) in zip(diags, expected):
        tail = "SGL101 fails on every path of this launch" if case in EVERY_PATH_BY_RULE else \
            "not on every path of this launch"
        assert f"(when {when}; {tail}" in d["message"]


def test_path_explosion_is_bounded_and_ends_in_unknown_without_sgl004(tmp_path, capsys):
    flags = [f"--x{i}" for i in range(6)]  # 2**6 = 64 paths > MAX_PATH_VARIANTS
    assert 2 ** len(flags) > limits.MAX_PATH_VARIANTS
    lines = ["import subprocess", "", "def main(a):",
             '    cmd = ["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4"]']
    for i, f in enumerate(flags):
        lines += [f"    if a.f{i}:", f'        cmd.append("{f}")']
    lines += ['    if a.det:', '        cmd.append("--enable-deterministic-inference")', "    subprocess.run(cmd)"]
    code, diags = lint(tmp_path, capsys, {"run.py": "\n".join(lines) + "\n"})
    assert all(d["code"] != "SGL004" for d in diags)
    out = explain(tmp_path, capsys, "run.py")
    # the first branches went past the limit: what they add is an unknown tail; the later ones are kept
    assert 1 < out.count("path:      when ") <= limits.MAX_PATH_VARIANTS
    assert "arguments not known statically" in out


def test_many_branches_do_not_hang(tmp_path, capsys):
    body = "".join(f"    if a.f{i}:\n        cmd = cmd + ['--x{i}']\n" for i in range(400))
    text = ("import subprocess\n\ndef main(a):\n    cmd = ['sglang', 'serve', 'm']\n" + body
            + "    subprocess.run(cmd)\n")
    write_tree(tmp_path, {"big.py": text})
    t = time.perf_counter()
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert time.perf_counter() - t < 60  # (a budget, not a benchmark: unbounded paths would never end)
    assert all(d["code"] != "SGL004" for d in diags)


def test_execute_train_with_unknown_arguments_is_still_a_launch(tmp_path, capsys):
    write_tree(tmp_path, {"run.py": src("""
        import miles.utils.external_utils.command_utils as U

        def execute(args):
            U.execute_train(train_args=build_args(args), config=args)
        """)})
    code, out, _ = run(tmp_path, capsys, *H100, "--explain", "run.py")
    assert out.startswith("run.py:4: slime/miles trainer")
    assert "not fully verified: some server arguments are not known statically" in out


# -- shell ------------------------------------------------------------------------------------------


def test_shell_array_appended_in_a_branch(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.sh": """
        #!/bin/bash
        ARGS=(--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4)
        if [ "$TRUE_ON_POLICY" = 1 ]; then
          ARGS+=(--enable-deterministic-inference)
        fi
        python -m sglang.launch_server "${ARGS[@]}"
        """})
    only_on_path(diags, 2, "fa3", '`[ "$TRUE_ON_POLICY" = 1 ]` succeeds')


def test_shell_conditional_assignment_and_elif(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.sh": """
        #!/bin/bash
        if [ -n "$DEBUG" ]; then
          EXTRA="--log-level debug"
        elif [ -n "$DET" ]; then
          EXTRA="--enable-deterministic-inference"
        else
          EXTRA=""
        fi
        python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 $EXTRA
        """})
    only_on_path(diags, 9, "fa3", '`[ -n "$DEBUG" ]` fails and `[ -n "$DET" ]` succeeds')
    out = explain(tmp_path, capsys, "run.sh")
    assert 'when none of `[ -n "$DEBUG" ]`, `[ -n "$DET" ]` succeeds' in out


def test_shell_case_and_a_command_kept_in_a_variable_run_by_a_function(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.sh": """
        #!/bin/bash
        case "$MODE" in
          det) EXTRA="--enable-deterministic-inference" ;;
          *) EXTRA="" ;;
        esac
        CMD="python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 $EXTRA"
        start() {
          $CMD
        }
        start
        """})
    only_on_path(diags, 6, "fa3", '`"$MODE"` matches `det`')


def test_shell_value_written_once_read_by_both_paths_gets_an_unsafe_fix(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.sh": """
        #!/bin/bash
        BACKEND=fa4
        DET_FLAG=
        if [ "$RL" = on ]; then DET_FLAG=--enable-deterministic-inference; fi
        python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend "$BACKEND" $DET_FLAG
        """})
    d = only_on_path(diags, 2, "fa3", '`[ "$RL" = on ]` succeeds')
    code, out, _ = run(tmp_path, capsys, *H100, "--fix", ".")
    assert "BACKEND=fa4" in (tmp_path / "run.sh").read_text()


@pytest.mark.parametrize("extra, line, when", [
    # ${NAME:+WORD} of a variable the script never sets: the word on one path only, like `[ -n "$DET" ] && …`
    ("${DET:+--enable-deterministic-inference}", 2, "`$DET` is set and not empty"),
    ('"${DET:+--enable-deterministic-inference}"', 2, "`$DET` is set and not empty"),
    ("${DET+--enable-deterministic-inference}", 2, "`$DET` is set"),
    ("$X", 3, "`$DET` is set and not empty"),  # through a variable assigned from the expansion
])
def test_shell_alternative_value_expansion_is_a_path(tmp_path, capsys, extra, line, when):
    code, diags = lint(tmp_path, capsys, {"run.sh": f"""
        #!/bin/bash
        BACKEND=fa4
        X=${{DET:+--enable-deterministic-inference}}
        python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend "$BACKEND" {extra}
        """})
    only_on_path([d for d in diags if d["code"] == "SGL101"], 2, "fa3", when)
    # quoted, the expansion is an empty argument where DET is unset, as in bash: the parser stops there
    strays = [d["message"] for d in diags if d["code"] == "SGL204"]
    assert strays == (["stray argument '': SGLang's parser takes no positional arguments and stops "
                       "(when `$DET` is unset or empty; not on every path of this launch)"]
                      if extra.startswith('"') else [])


@pytest.mark.parametrize("setup, finding", [
    ("DET=1", "error"), ("DET=", None), ("unset DET", None), ("DET=$1", "warning"),
])
def test_shell_alternative_value_the_script_gives_is_decided(tmp_path, capsys, setup, finding):
    code, diags = lint(tmp_path, capsys, {"run.sh": f"""
        #!/bin/bash
        {setup}
        python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 ${{DET:+--enable-deterministic-inference}}
        """})
    assert [d["severity"] for d in diags if d["code"] == "SGL101"] == ([finding] if finding else [])


@pytest.mark.parametrize("word, kept", [
    # words no rule decides by are merged (unknown), the if that turns deterministic inference on kept
    ("--x{i}", ["D"]),
    # every variable changes the attention backend (128 paths that all matter): the deterministic if
    # first, then the backend ifs met first, as many as fit the cap (fresh review rev39 D3: until then
    # all merged, the deterministic one too)
    ("--attention-backend=b{i}", ["F0", "F1", "F2", "D"]),
])
def test_shell_path_explosion_keeps_the_deciding_paths_that_fit(tmp_path, capsys, word, kept):
    body = "".join(f'if [ -n "$F{i}" ]; then X{i}={word.format(i=i)}; fi\n' for i in range(6))
    refs = " ".join(f"$X{i}" for i in range(6))
    text = ("#!/bin/bash\n" + body + 'if [ -n "$D" ]; then DET=--enable-deterministic-inference; fi\n'
            "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
            f"{refs} $DET\n")
    write_tree(tmp_path, {"run.sh": text})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert all(d["code"] != "SGL004" for d in diags)
    out = explain(tmp_path, capsys, "run.sh")
    paths = [line for line in out.splitlines() if line.lstrip().startswith("path:")]
    assert len(paths) == 2 ** len(kept)
    named = [re.findall(r'\[ -n "\$(\w+)" \]', line) for line in paths]
    assert all(n == kept for n in named)
    assert "deterministic inference: unknown" in out and "deterministic inference: on" in out


# -- wrapper entrypoints ----------------------------------------------------------------------------

COMPOSE = """
    services:
      sglang:
        image: lmsysorg/sglang:latest
        entrypoint: ["/workspace/entrypoint.sh"]
        volumes:
          - ./docker:/workspace
        command: >-
          python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3
          --attention-backend fa4 --enable-deterministic-inference
    """


@pytest.mark.parametrize("last, codes", [
    ('exec "$@"', ["SGL101"]),
    ('exec "${@}"', ["SGL101"]),
    ('"$@"', ["SGL101"]),
    ('exec python -m other "$@"', ["SGL001"]),  # a wrapper not followed: said so (D19)
    ('exec "$@"\necho done', ["SGL101"]),  # exec replaces the shell: the line after never runs (D19)
])
def test_compose_entrypoint_script_that_passes_the_command_through(tmp_path, capsys, last, codes):
    code, diags = lint(tmp_path, capsys, {"compose.yaml": COMPOSE,
                                          "docker/entrypoint.sh": f"#!/bin/bash\nset -e\nexport X=1\n{last}\n"})
    assert [d["code"] for d in diags] == codes


def test_compose_entrypoint_script_not_in_the_repository_is_not_guessed(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"compose.yaml": COMPOSE.replace("./docker:/workspace", "./other:/workspace"),
                                          "docker/entrypoint.sh": '#!/bin/bash\nexec "$@"\n'})
    assert diags == []


def test_tests_written_alike_are_one_decision(tmp_path, capsys):
    # two conditional expressions and an ``if`` on the same test (``!=`` read as not ``==``): two paths
    write_tree(tmp_path, {"run.py": src("""
        import subprocess

        def main(args):
            cmd = ["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--tp", "1" if args.mode == "debug" else "8"]
            cmd += ["--log-level", "debug" if args.mode == 'debug' else "info"]
            if args.mode != "debug":
                cmd.append("--enable-metrics")
            subprocess.run(cmd)
        """), "run.sh": src("""
        #!/bin/bash
        if [ -n "$DEBUG" ]; then TP=1; else TP=8; fi
        if [ -n "$DEBUG" ]; then LOG=debug; else LOG=info; fi
        python -m sglang.launch_server --model-path m --tp "$TP" --log-level "$LOG"
        """)})
    out = run(tmp_path, capsys, *H100, "--explain", "run.py")[1]
    assert out.count("path:      when ") == 2
    out = run(tmp_path, capsys, *H100, "--explain", "run.sh")[1]
    assert out.count("path:      when ") == 2


def test_argv_built_by_one_helper_and_started_by_another(tmp_path, capsys):
    # slime's end-to-end deterministic test: the trainer's argv from a helper, run by a Popen wrapper
    code, diags = lint(tmp_path, capsys, {"test_e2e.py": """
        import subprocess, sys

        def _train_args(det):
            return ("--hf-checkpoint /root/models/DeepSeek-V3 --sglang-attention-backend fa4 "
                    + ("--sglang-enable-deterministic-inference " if det else ""))

        def _run(cmd, env=None, check=True):
            proc = subprocess.Popen(cmd, env=env)
            return proc.wait()

        def run_gate(det):
            argv = _train_args(det).split()
            _run(["pkill", "-9", "sglang"], check=False)
            _run([sys.executable, "-u", "train.py", *argv], env={})
        """})
    only_on_path(diags, 4, "fa3", "`det` is true")
    out = explain(tmp_path, capsys, "test_e2e.py")
    assert out.count("test_e2e.py:14: slime/miles trainer") == 2  # located at the call of the wrapper


def test_slimes_execute_train_is_the_same_entry_point(tmp_path, capsys):
    write_tree(tmp_path, {"test_e2e.py": src("""
        import slime.utils.external_utils.command_utils as U

        def execute():
            U.execute_train(train_args="--hf-checkpoint /root/DeepSeek-V3 --sglang-attention-backend fa4 "
                            "--sglang-enable-deterministic-inference", num_gpus_per_node=8)
        """)})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert [(d["code"], d["severity"], d["line"]) for d in diags] == [("SGL101", "error", 4)]


@pytest.mark.parametrize("returns", [10, 31])
def test_many_early_returns_keep_a_finding_every_path_has(tmp_path, capsys, returns):
    """A helper with more early returns than the path cap still returns the command: what every path
    shares (here the error) is reported, what differs is unknown past the cap."""
    from tests.helpers import lint_json, write_tree

    body = "".join(f'    if os.environ.get("V{i}"): return cmd + ["--port", "{3000 + i}"]\n' for i in range(returns))
    write_tree(tmp_path, {"serve.py": (
        "import os, subprocess\n# lint-configs: target-gpu=H100\ndef f():\n"
        '    cmd = ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",'
        ' "--enable-deterministic-inference", "--attention-backend", "fa4"]\n'
        + body + "    return cmd\nsubprocess.run(f())\n")})
    code, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["severity"]) for d in diags] == [("SGL101", "error")]


# -- issue 35, the rest: commands printed, kept on self, returned by __command__; decided conditions ----

LAUNCH = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4"


def codes(diags: list[dict]) -> list[tuple[str, str, int]]:
    return [(d["code"], d["severity"], d["line"]) for d in diags if d["code"] != "SGL005"]


@pytest.mark.parametrize("use", [
    "$(build) --enable-deterministic-inference",
    "CMD=$(build)\n$CMD --enable-deterministic-inference",
    'eval "$(build) --enable-deterministic-inference"',
])
@pytest.mark.parametrize("prints", [f"echo {LAUNCH}", f'echo "{LAUNCH}"', f"printf '%s ' {LAUNCH}"])
def test_shell_function_that_prints_a_command_line(tmp_path, capsys, use, prints):
    code, diags = lint(tmp_path, capsys, {"run.sh": f"#!/bin/bash\nbuild() {{\n  {prints}\n}}\n{use}\n"})
    # the finding is on the fa4 the function prints: its fix edits the echo line
    assert codes(diags) == [("SGL101", "error", 3)]
    d = next(d for d in diags if d["code"] == "SGL101")
    assert d["fix"]["applicability"] == "safe" and d["fix"]["edits"][0]["content"] == "fa3"


@pytest.mark.parametrize("body", [
    f"echo {LAUNCH} $FROM_OUTSIDE",  # a word the environment gives: not plain ($1 is the call's: known)
    f"echo -e {LAUNCH}",  # escapes interpreted
    f"echo {LAUNCH}; echo -e more",  # two lines, one not plain (two plain ones: test_shell_paths_values.py, d19)
    f"echo {LAUNCH} $UNSET_SOMEWHERE_ELSE",  # a word not known
])
def test_shell_function_output_that_is_not_plain_stays_unknown(tmp_path, capsys, body):
    code, diags = lint(tmp_path, capsys, {"run.sh": f"#!/bin/bash\nbuild() {{\n  {body}\n}}\n"
                                                     "$(build) --enable-deterministic-inference\n"})
    assert all(d["code"] != "SGL101" or d["severity"] == "warning" for d in diags)
    assert ("SGL101", "error", 3) not in codes(diags)


def test_command_kept_on_self_with_plus_equals_under_a_parameter(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"serve.py": """
        import subprocess

        class Server:
            def __init__(self, det):
                self.cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
                            "--attention-backend", "fa4"]
                if det:
                    self.cmd += ["--enable-deterministic-inference"]

            def start(self):
                self.proc = subprocess.Popen(self.cmd)
        """})
    only_on_path([d for d in diags if d["code"] != "SGL005"], 6, "fa3", "`det` is true")


def test_bentoml_command_method_is_a_launch(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"service.py": """
        import bentoml

        @bentoml.service
        class SGLang:
            def __command__(self):
                cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
                       "--attention-backend", "fa4"]
                if self.deterministic:
                    cmd = cmd + ["--enable-deterministic-inference"]
                return cmd
        """})
    only_on_path([d for d in diags if d["code"] != "SGL005"], 7, "fa3", "`self.deterministic` is true")
    out = run(tmp_path, capsys, *H100, "--list-launches", ".")[1]
    assert "service.py:5" in out


PY_DECIDED = {
    "module constant": """
        import subprocess
        TRUE_ON_POLICY = True
        cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
               "--attention-backend", "fa4"]
        if TRUE_ON_POLICY:
            cmd += ["--enable-deterministic-inference"]
        subprocess.run(cmd)
        """,
    "a parameter every call gives the same constant": """
        import subprocess

        def run(det):
            cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
                   "--attention-backend", "fa4"]
            if det:
                cmd += ["--enable-deterministic-inference"]
            subprocess.run(cmd)

        run(True)
        run(det=True)
        """,
    "a comparison of known strings in a conditional expression": """
        import subprocess
        MODE = "det"
        extra = ["--enable-deterministic-inference"] if MODE == "det" else []
        subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
                        "--attention-backend", "fa4", *extra])
        """,
}


@pytest.mark.parametrize("case", sorted(PY_DECIDED))
def test_python_condition_the_file_decides_is_one_path(tmp_path, capsys, case):
    code, diags = lint(tmp_path, capsys, {"run.py": PY_DECIDED[case]})
    [d] = [d for d in diags if d["code"] == "SGL101"]
    assert d["severity"] == "error" and "not on every path" not in d["message"]
    assert "path:" not in explain(tmp_path, capsys, "run.py")


def test_python_parameter_calls_disagree_give_a_launch_per_call(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": PY_DECIDED["a parameter every call gives the same constant"]
                                          .replace("run(det=True)", "run(det=False)")})
    # run(True) and run(det=False): one launch each, decided; the first one fails (issue 35 review)
    [d] = [d for d in diags if d["code"] == "SGL101"]
    assert d["severity"] == "error" and "not on every path" not in d["message"]
    out = run(tmp_path, capsys, *H100, "--list-launches", ".")[1]
    assert [line for line in out.splitlines() if line.startswith("run.py:")] == ["run.py:10", "run.py:11"]


D14 = """
    import subprocess
    def launch(det=None):
        cmd = ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
               "--attention-backend", "fa4"]
        if det is None:
            cmd += ["--enable-deterministic-inference"]
        subprocess.Popen(cmd)
    def main(x):
        {calls}
    """


@pytest.mark.parametrize("calls, lines, finding", [
    # must fix: launch() decides det (None: deterministic always), launch(x) does not: a launch per
    # call, the second's finding holds outright — an error, not a path's warning (fresh review, D14)
    (["launch(x)", "launch()"], ["run.py:9", "run.py:9", "run.py:10"], ("error", False)),
    (["launch()", "launch(x)"], ["run.py:9", "run.py:10", "run.py:10"], ("error", False)),
    # must not change: only calls whose value is unknown: one launch, a warning naming the condition
    (["launch(x)"], ["run.py:7", "run.py:7"], ("warning", True)),
    (["launch(x)", "launch(x)"], ["run.py:7", "run.py:7"], ("warning", True)),
    # every call decided against it: no finding
    (["launch(1)", "launch(2)"], ["run.py:7"], None),
])
def test_python_call_with_an_unknown_argument_keeps_the_decided_calls_launch(tmp_path, capsys, calls, lines,
                                                                            finding):
    code, diags = lint(tmp_path, capsys, {"run.py": D14.replace("{calls}", "\n        ".join(calls))})
    got = [(d["severity"], "(when `det is None` is true; not on every path" in d["message"])
           for d in diags if d["code"] == "SGL101"]
    assert got == ([] if finding is None else [finding])
    out = run(tmp_path, capsys, *H100, "--list-launches", ".")[1]
    assert [line for line in out.splitlines() if line.startswith("run.py:")] == lines


PY_DEAD_LAUNCH = """
    import subprocess
    TRUE_ON_POLICY = True
    MODE = "det"
    if not TRUE_ON_POLICY:
        subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
                        "--attention-backend", "fa4", "--enable-deterministic-inference"])


    def main(det):
        if det:
            pass
        elif MODE == "det":
            pass
        else:
            subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "dead/elif"])
        while not TRUE_ON_POLICY:
            subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "dead/while"])
        if TRUE_ON_POLICY:
            subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "live/if"])
        else:
            subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "dead/else"])
        if det:
            subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "live/undecided"])


    main(True)
    main(False)
    """


def test_python_launch_in_a_branch_the_file_decides_against_is_not_found(tmp_path, capsys):
    """Issue 35: a launch under ``if not TRUE_ON_POLICY:`` (with ``TRUE_ON_POLICY = True``), in an
    ``else``/``elif`` the file decides against, or in a ``while`` the file decides never runs, never
    starts: not a launch, no finding (its fa4 + deterministic inference would be SGL101 on H100).
    Launches in the branch taken and under a condition the file does not decide stay."""
    code, diags = lint(tmp_path, capsys, {"run.py": PY_DEAD_LAUNCH})
    assert [d for d in diags if d["code"] == "SGL101"] == []
    out = run(tmp_path, capsys, *H100, "--list-launches", ".")[1]
    # (``if det:`` is decided per call: only ``main(True)`` starts live/undecided, located at that call)
    assert [line for line in out.splitlines() if line.startswith("run.py:")] == ["run.py:19", "run.py:26"]
    assert "live/if" in out and "live/undecided" in out and "dead/" not in out


@pytest.mark.parametrize("script, finding", [
    ('DET=1\nif [ "$DET" = 1 ]; then EXTRA=--enable-deterministic-inference; fi', "error"),
    ('DET=1\nif [[ $DET == 1 ]]; then EXTRA=--enable-deterministic-inference; else EXTRA=; fi', "error"),
    ('DET=\nif [ -n "$DET" ]; then EXTRA=--enable-deterministic-inference; fi', None),
    ('N=2\nif test "$N" -ge 1; then EXTRA=--enable-deterministic-inference; fi', "error"),
    ('MODE=det\ncase "$MODE" in\n  det|rl) EXTRA=--enable-deterministic-inference ;;\n  *) EXTRA= ;;\nesac', "error"),
    ('MODE=fast\ncase "$MODE" in\n  det) EXTRA=--enable-deterministic-inference ;;\nesac', None),
    # not decided: the value comes from outside, or the pattern is a glob of [[ ]]
    ('if [ "$DET" = 1 ]; then EXTRA=--enable-deterministic-inference; fi', "warning"),
    ('DET=1\nif [[ $DET == [0-9] ]]; then EXTRA=--enable-deterministic-inference; fi', "warning"),
])
def test_shell_condition_the_script_decides_is_one_path(tmp_path, capsys, script, finding):
    code, diags = lint(tmp_path, capsys, {"run.sh": f"#!/bin/bash\n{script}\n{LAUNCH} $EXTRA\n"})
    assert [d["severity"] for d in diags if d["code"] == "SGL101"] == ([finding] if finding else [])


@pytest.mark.parametrize("script, finding, when", [
    # the first test fails on every path: its branch is dropped, the elif is the first test
    ('DET=0\nif [ "$DET" = 1 ]; then EXTRA=--enable-deterministic-inference\n'
     'elif [ "$X" = y ]; then EXTRA="--log-level debug"; fi', None, None),
    ('DET=0\nif [ "$DET" = 1 ]; then EXTRA=\n'
     'elif [ "$X" = y ]; then EXTRA=--enable-deterministic-inference; fi', "warning", '`[ "$X" = y ]` succeeds'),
    ('DET=0\nif [ "$DET" = 1 ]; then EXTRA=\nelif [ "$X" = y ]; then EXTRA=\n'
     'else EXTRA=--enable-deterministic-inference; fi', "warning", '`[ "$X" = y ]` fails'),
    # an elif the file decides: false is dropped; true is the last branch (what follows never runs)
    ('DET=0\nif [ "$X" = y ]; then EXTRA=\nelif [ "$DET" = 1 ]; then EXTRA=--enable-deterministic-inference\n'
     'fi', None, None),
    ('DET=0\nif [ "$DET" = 1 ]; then EXTRA=\nelif [ "$DET" = 0 ]; then EXTRA=--enable-deterministic-inference\n'
     'elif [ "$X" = y ]; then EXTRA=; fi', "error", None),
    ('DET=0\nif [ "$X" = y ]; then EXTRA=\nelif [ "$DET" = 0 ]; then EXTRA=--enable-deterministic-inference\n'
     'else EXTRA=; fi', "warning", '`[ "$X" = y ]` fails'),
])
def test_shell_elif_chain_drops_the_branches_the_script_decides(tmp_path, capsys, script, finding, when):
    code, diags = lint(tmp_path, capsys, {"run.sh": f"#!/bin/bash\n{script}\n{LAUNCH} $EXTRA\n"})
    found = [d for d in diags if d["code"] == "SGL101"]
    assert [d["severity"] for d in found] == ([finding] if finding else [])
    if when is not None:
        assert f"(when {when}; not on every path of this launch)" in found[0]["message"]
    assert all("$DET" not in d["message"] for d in found)


def test_shell_past_the_path_cap_what_every_path_shares_stays_known(tmp_path, capsys):
    ifs = "".join(f'if [ -n "$F{i}" ]; then ARGS+=(--x{i}); fi\n' for i in range(6))
    scalar = "".join(f'if [ -n "$F{i}" ]; then X="$X --x{i}"; fi\n' for i in range(6))
    write_tree(tmp_path, {
        "array.sh": "#!/bin/bash\nARGS=(--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
                    "--enable-deterministic-inference)\n" + ifs + 'python -m sglang.launch_server "${ARGS[@]}"\n',
        "scalar.sh": '#!/bin/bash\nX="--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 '
                     '--enable-deterministic-inference"\n' + scalar + "python -m sglang.launch_server $X\n"})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert sorted((d["path"], d["line"]) for d in diags if d["code"] == "SGL101" and d["severity"] == "error") \
        == [("array.sh", 2), ("scalar.sh", 2)]
    assert all(d["code"] != "SGL004" for d in diags)


# -- wrapper entrypoints beyond compose ---------------------------------------------------------------

ENTRY = '#!/bin/bash\nset -e\nexport BACKEND=fa4\nexport SGLANG_LOG="quiet"\n{last}\n'
SH_C = ("python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend $BACKEND "
        "--enable-deterministic-inference")


POD = """
    apiVersion: v1
    kind: Pod
    metadata:
      name: sglang
    spec:
      containers:
        - name: server
          image: lmsysorg/sglang:v0.5.23-cu129
          command: ["bash", "{script}"]
          args: ["sh", "-c", "%s"]
    """ % SH_C


@pytest.mark.parametrize("last, launch", [('exec "$@"', True), ('exec "${@}"', True), ('"$@"', True),
                                          ('exec python -m other "$@"', False)])
def test_kubernetes_command_script_passes_args_through_with_its_exports(tmp_path, capsys, last, launch):
    code, diags = lint(tmp_path, capsys, {
        "deploy/entrypoint.sh": ENTRY.format(last=last),
        "deploy/pod.yaml": POD.format(script="./entrypoint.sh")})
    # $BACKEND comes from the script's export: the finding is on the fa4 written there
    assert [(d["code"], d["path"]) for d in diags if d["code"] == "SGL101"] == \
        ([("SGL101", "deploy/entrypoint.sh")] if launch else [])


@pytest.mark.parametrize("copy, launch", [
    ("COPY docker/entrypoint.sh /usr/local/bin/", True),
    ("COPY docker/entrypoint.sh /usr/local/bin/entrypoint.sh", True),
    ("COPY docker/ /usr/local/bin/", True),
    ("COPY --from=builder /src/entrypoint.sh /usr/local/bin/", False),
    ("COPY other/entrypoint.sh /usr/local/bin/", False),
])
def test_dockerfile_entrypoint_script_passes_cmd_through(tmp_path, capsys, copy, launch):
    code, diags = lint(tmp_path, capsys, {
        "docker/entrypoint.sh": ENTRY.format(last='exec "$@"'),
        "other/entrypoint.sh": "#!/bin/bash\nexec python -m other\n",
        "Dockerfile": f"""
            FROM lmsysorg/sglang:v0.5.23-cu129
            {copy}
            ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
            CMD ["sh", "-c", "{SH_C}"]
            """})
    assert [d["path"] for d in diags if d["code"] == "SGL101"] == (["docker/entrypoint.sh"] if launch else [])


def test_wrapper_script_outside_the_root_is_never_read(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"outside/entrypoint.sh": ENTRY.format(last='exec "$@"'),
                          "repo/.git/HEAD": "ref: refs/heads/main\n",
                          "repo/deploy/pod.yaml": src(POD.format(script="../../outside/entrypoint.sh"))})
    opened: list = []
    real_open = open

    def spy(path, *a, **k):
        opened.append(str(path))
        return real_open(path, *a, **k)

    monkeypatch.setattr("builtins.open", spy)
    code, diags = lint_json(tmp_path / "repo", capsys, *H100)
    assert not [p for p in opened if p.endswith("outside/entrypoint.sh")], opened
    assert all(d["code"] != "SGL101" for d in diags)


# -- found after the fresh review of issue 35 ---------------------------------------------------------

BASE_ARGV = ('"python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", '
             '"--attention-backend", "fa4"')


@pytest.mark.parametrize("grow", ['self.cmd.append("--enable-deterministic-inference")',
                                  'self.cmd.extend(["--enable-deterministic-inference"])'])
def test_a_command_on_self_grown_in_init_by_append_or_extend_is_run_by_another_method(tmp_path, capsys, grow):
    code, diags = lint(tmp_path, capsys, {"serve.py": f"""
        import subprocess
        class Server:
            def __init__(self):
                self.cmd = [{BASE_ARGV}]
                {grow}
            def start(self):
                return subprocess.Popen(self.cmd)
        """})
    assert code == 1
    assert [(d["code"], d["severity"], d["line"]) for d in diags] == [("SGL101", "error", 4)]


def test_a_command_on_self_grown_outside_init_is_a_path(tmp_path, capsys):
    """Only ``__init__`` runs before the other methods; a list grown elsewhere may or may not be: a
    path of its own (issue 35, rev36 D12), never the launch's every path."""
    code, diags = lint(tmp_path, capsys, {"serve.py": f"""
        import subprocess
        class Server:
            def __init__(self):
                self.cmd = [{BASE_ARGV}]
            def det(self):
                self.cmd.append("--enable-deterministic-inference")
            def start(self):
                return subprocess.Popen(self.cmd)
        """})
    only_on_path([d for d in diags if d["code"] == "SGL101"], 4, "fa3", "`det()` has run")


@pytest.mark.parametrize("program", ["cmd[0]", "cmd[-8]", "cmd[:1][0]"])
def test_exec_names_its_program_by_indexing_the_argv(tmp_path, capsys, program):
    code, diags = lint(tmp_path, capsys, {"serve.py": f"""
        import os
        cmd = [{BASE_ARGV}, "--enable-deterministic-inference"]
        os.execvp({program}, cmd)
        """})
    assert [(d["code"], d["line"]) for d in diags] == [("SGL101", 2)]


def test_an_index_past_a_list_of_unknown_length_is_unknown(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"serve.py": f"""
        import os, sys
        cmd = [*sys.argv[1:], {BASE_ARGV}, "--enable-deterministic-inference"]
        os.execvp(cmd[0], cmd)
        """})
    assert [d["code"] for d in diags if d["code"] == "SGL101"] == []


# -- review of issue 35 (paths3) ---------------------------------------------------------------------

@pytest.mark.parametrize("functions", [
    "g() { echo $(g) x; }\nY=$(g)\n",  # a function printing its own output
    "".join(f"f{i}() {{ echo $(f{i + 1}) --x{i}; }}\n" for i in range(300)) + "Y=$(f0)\n",  # 300 deep
])
def test_shell_function_output_read_too_deep_is_unknown_and_other_launches_stay(tmp_path, capsys, functions):
    code, diags = lint(tmp_path, capsys, {"run.sh": f"#!/bin/bash\n{functions}{LAUNCH} --enable-deterministic-inference\n"})
    assert [(d["code"], d["severity"]) for d in diags if d["code"] != "SGL005"] == [("SGL101", "error")]
    assert limits.MAX_PRINTED_DEPTH == 8


@pytest.mark.parametrize("script, launch", [
    ('echo "would run:" \\\n  "$@"', False),  # the last line is an argument of echo, not a command
    ('exit 0\nexec "$@"', False),  # never reached
    ('exec python -m other\nexec "$@"', False),
    ('if [ -n "$X" ]; then exit 1; fi\nexec "$@"', True),  # an exit on one path only
    ('exec >/tmp/log 2>&1\nexec "$@"', True),  # exec with redirections only
    ('cat > /etc/x.sh <<EOF\nexec "$@"\nEOF', False),  # heredoc text is not a command
    ('set -- a b\nexec "$@"', False),
    ('if [ -n "$X" ]; then shift; fi\nexec "$@"', False),  # how many arguments are left is unknown
])
def test_wrapper_script_is_read_by_its_top_level_commands(tmp_path, capsys, script, launch):
    code, diags = lint(tmp_path, capsys, {"compose.yaml": COMPOSE,
                                          "docker/entrypoint.sh": f"#!/bin/bash\nset -e\n{script}\n"})
    # a wrapper that does not pass the launch through is said not to be followed (D19), never silence
    assert [d["code"] for d in diags] == (["SGL101"] if launch else ["SGL001"])
    if not launch:
        assert "the entrypoint wrapper /workspace/entrypoint.sh does not pass its arguments on" in diags[0]["message"]


def test_wrapper_script_shift_drops_the_first_arguments(tmp_path, capsys):
    compose = COMPOSE.replace("python -m sglang", "serve python -m sglang")
    code, diags = lint(tmp_path, capsys, {"compose.yaml": compose,
                                          "docker/entrypoint.sh": '#!/bin/bash\nshift\nexec "$@"\n'})
    assert [d["code"] for d in diags] == ["SGL101"]
    code, diags = lint(tmp_path, capsys, {"compose.yaml": COMPOSE,  # shift drops `python`: no launch, said so
                                          "docker/entrypoint.sh": '#!/bin/bash\nshift\nexec "$@"\n'})
    assert [(d["code"], d["line"]) for d in diags] == [("SGL001", 4)]
    assert "shifts away its first argument (`python`) and runs `-m sglang.launch_server --model-path …`" \
        in diags[0]["message"]


def test_wrapper_script_export_in_a_heredoc_is_not_exported(tmp_path, capsys):
    entry = '#!/bin/bash\nexport BACKEND=fa3\ncat > /etc/x.sh <<EOS\nexport BACKEND=fa4\nEOS\nexec "$@"\n'
    code, diags = lint(tmp_path, capsys, {"deploy/entrypoint.sh": entry,
                                          "deploy/pod.yaml": POD.format(script="./entrypoint.sh")})
    assert [d["code"] for d in diags if d["code"] == "SGL101"] == []
    code, diags = lint(tmp_path, capsys, {"deploy/entrypoint.sh": entry.replace("=fa3", "=fa4"),
                                          "deploy/pod.yaml": POD.format(script="./entrypoint.sh")})
    assert [(d["code"], d["path"], d["line"]) for d in diags if d["code"] == "SGL101"] == \
        [("SGL101", "deploy/entrypoint.sh", 2)]


@pytest.mark.parametrize("command", ['["/usr/bin/env", "bash", "{script}"]', '["/usr/bin/env", "{script}"]',
                                     '["bash", "{script}"]'])
def test_wrapper_script_after_env_and_a_shell(tmp_path, capsys, command):
    pod = POD.replace('["bash", "{script}"]', command)
    code, diags = lint(tmp_path, capsys, {"deploy/entrypoint.sh": ENTRY.format(last='exec "$@"'),
                                          "deploy/pod.yaml": pod.format(script="./entrypoint.sh")})
    assert [(d["code"], d["path"]) for d in diags if d["code"] == "SGL101"] == [("SGL101", "deploy/entrypoint.sh")]


D3 = """
    import os, subprocess
    if os.environ.get("A"):
        model = "deepseek-ai/DeepSeek-V3"
    elif os.environ.get("B"):
        model = "moonshotai/Kimi-K2-Instruct"
    else:
        model = "meta-llama/Llama-3.1-8B-Instruct"
    cmd = ["python", "-m", "sglang.launch_server", "--model-path", model, "--attention-backend", "fa4",
           "--enable-deterministic-inference"]
    subprocess.run(cmd)
    """


def test_python_elif_path_says_the_tests_before_it_fail(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": D3})
    # each finding names its own path (its model), the elif's with the test before it failing
    assert sorted((d["message"].split("absorbed-MLA model ")[1].split()[0], d["message"].split("(when ")[1])
                  for d in diags) == [
        ("deepseek-ai/DeepSeek-V3", '`os.environ.get("A")` is true; not on every path of this launch)'),
        ("moonshotai/Kimi-K2-Instruct",
         '`os.environ.get("A")` is false and `os.environ.get("B")` is true; not on every path of this launch)')]
    out = explain(tmp_path, capsys, "run.py")
    assert 'path:      when `os.environ.get("A")` is false and `os.environ.get("B")` is true (' in out


def test_python_nested_if_path_names_the_inner_test_failing(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": """
        import os, subprocess
        cmd = ["python", "-m", "sglang.launch_server", "--model-path", "meta-llama/Llama-3.1-8B-Instruct",
               "--max-running-requests", "1"]
        if os.environ.get("A"):
            cmd += ["--max-running-requests", "2"]
            if os.environ.get("B"):
                cmd += ["--max-running-requests", "3"]
        subprocess.run(cmd)
        """}, "--select", "SGL207")
    assert sorted(d["message"].split("(when ")[1].split(";")[0] for d in diags) == [
        '`os.environ.get("A")` is true and `os.environ.get("B")` is false',
        '`os.environ.get("A")` is true and `os.environ.get("B")` is true',
        '`os.environ.get("A")` is true and `os.environ.get("B")` is true']


def test_one_shared_edit_fixing_the_findings_of_two_paths_counts_both(tmp_path, capsys):
    write_tree(tmp_path, {"run.py": src(D3)})
    code, out, err = run(tmp_path, capsys, *H100, "--fix", "--unsafe-fixes", "run.py")
    out += err
    assert "Fixed 2 findings. No findings remain." in out
    assert (tmp_path / "run.py").read_text().count('"fa3"') == 1


P2 = """
    import os, subprocess
    cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
           "--enable-deterministic-inference"]
    if os.environ.get("FAST"):
        cmd += ["--attention-backend", "fa4"]
    else:
        cmd += ["--attention-backend", "fa3"]
    subprocess.run(cmd)
    """


def test_fix_of_a_value_only_the_failing_path_reads_is_safe(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": P2})
    d = only_on_path(diags, 5, "fa3", '`os.environ.get("FAST")` is true', fix="safe")
    assert not any("every path" in n or "unsafe" in n for n in d["notes"])


def test_unsafe_note_names_the_paths_that_read_the_value_without_the_finding(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": D3})
    for d in diags:
        assert d["fix"]["applicability"] == "unsafe"
        assert "the fix is unsafe: the value it edits is also read when none of `os.environ.get(\"A\")`, " \
               "`os.environ.get(\"B\")` is true, and there nothing is wrong with it" in d["notes"]


def test_shell_for_over_known_words_runs_once_per_word(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.sh": f"""
        #!/bin/bash
        for bk in fa3 fa4; do
          {LAUNCH.replace("fa4", "$bk")} --enable-deterministic-inference
        done
        for f in *.yaml; do {LAUNCH} --enable-deterministic-inference --config "$f"; done
        """})
    # the fa4 round fails on every run of the script: an error at the word of the list, safe fix
    # (a pattern is not expanded: that loop is walked as before, its launch found once)
    assert [(d["code"], d["severity"], d["line"], d["column"]) for d in diags if d["code"] != "SGL005"] == \
        [("SGL101", "error", 2, 15), ("SGL101", "error", 5, 109)]
    assert diags[0]["fix"]["edits"][0]["content"] == "fa3"
    out = explain(tmp_path, capsys, "run.sh")
    assert out.count("run.sh:3: python -m sglang.launch_server") == 2  # one launch per word


def test_shell_function_printing_a_local_set_in_a_branch_gives_a_launch_per_path(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.sh": f"""
        #!/bin/bash
        build() {{
          local bk=fa3
          if [ -n "$FAST" ]; then bk=fa4; fi
          echo {LAUNCH.replace("fa4", "$bk")} --enable-deterministic-inference
        }}
        eval "$(build)"
        """})
    only_on_path([d for d in diags if d["code"] != "SGL005"], 4, "fa3", '`[ -n "$FAST" ]` succeeds', fix="safe")


@pytest.mark.parametrize("files, where", [
    ({"repo/svc/compose.yaml": 'services:\n  s:\n    image: lmsysorg/sglang:v0.5.23-cu129\n'
                               '    entrypoint: ["../../outside/entrypoint.sh"]\n    command: python3 -m x\n'},
     ("svc/compose.yaml", 4)),
    ({"repo/Dockerfile": 'FROM lmsysorg/sglang:v0.5.23-cu129\nCOPY ../outside/entrypoint.sh /entrypoint.sh\n'
                         'ENTRYPOINT ["/entrypoint.sh"]\nCMD ["python3", "-m", "x"]\n'}, ("Dockerfile", 3)),
    ({"repo/deploy/pod.yaml": src(POD.format(script="../../outside/entrypoint.sh"))}, ("deploy/pod.yaml", 9)),
])
def test_wrapper_script_outside_the_root_is_sgl005_at_the_entrypoint(tmp_path, capsys, files, where):
    write_tree(tmp_path, {"outside/entrypoint.sh": ENTRY.format(last='exec "$@"'),
                          "repo/.git/HEAD": "ref: refs/heads/main\n", **files})
    code, diags = lint_json(tmp_path / "repo", capsys, *H100)
    assert [(d["code"], d["path"], d["line"]) for d in diags if d["code"] == "SGL005"] == [("SGL005", *where)]


DECIDED_BESIDE_UNDECIDED = """
    import subprocess

    def launch(mode, port=None, det=False):
        cmd = ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
               "--attention-backend", "fa4", "--disaggregation-mode", mode]
        if port is not None:
            cmd += ["--port", str(port)]
        else:
            cmd += ["--prefill-round-robin-balance"]
        if det:
            cmd += ["--enable-deterministic-inference"]
        subprocess.Popen(cmd)

    def main(ports, d):
        for p in ports:
            launch("prefill", port=p, det=d)
        {second}
    """


@pytest.mark.parametrize("second, expected, fix", [
    # must fix: a call that decides the condition has the finding on every path: one finding, the
    # error, not also the other call's warning 'not on every path' in the same words (D13)
    ('launch("decode")', [("SGL201", "error", 9), ("SGL101", "warning", 5)], None),
    ('launch("decode", port=1, det=True)', [("SGL201", "warning", 9), ("SGL101", "error", 5)],
     # the other call's path without --enable-deterministic-inference reads fa4 too: still unsafe
     "the fix is unsafe: the value it edits is also read when `det` is false, and there nothing is wrong with it"),
    # must not change: no call decides it (one warning each), or the deciding call has no finding
    ("pass", [("SGL201", "warning", 9), ("SGL101", "warning", 5)], None),
    ('launch("decode", port=1)', [("SGL201", "warning", 9), ("SGL101", "warning", 5)], None),
])
def test_every_path_finding_of_one_call_wins_over_the_same_finding_on_some_paths(tmp_path, capsys, second,
                                                                                   expected, fix):
    code, diags = lint(tmp_path, capsys, {"serve.py": DECIDED_BESIDE_UNDECIDED.replace("{second}", second)})
    assert sorted(codes(diags)) == sorted(expected)
    if fix is not None:
        [d] = [d for d in diags if d["severity"] == "error"]
        assert d["fix"]["applicability"] == "unsafe" and fix in d["notes"]
