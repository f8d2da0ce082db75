"""Values along paths (issue 35): a launch whose options are set on paths the linter cannot decide is
one launch per path; a finding of only some paths is a warning naming the path, with an unsafe fix."""

from __future__ import annotations

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


def only_on_path(diags: list[dict], line: int, text: str, when: str) -> dict:
    """The one diagnostic, SGL101 as a warning at ``line`` on ``text``, for the path ``when``, unsafe fix."""
    [d] = diags
    assert (d["code"], d["severity"], d["line"]) == ("SGL101", "warning", line)
    assert f"(when {when}; not on every path of this launch)" in d["message"]
    assert d["fix"]["applicability"] == "unsafe"
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
    only_on_path(diags, 4, "fa3", "`cfg.fast` is true")


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
    # which no other path reads — but the finding is still only on some paths, so it stays unsafe
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
    d = only_on_path(diags, 5, "fa3", "`args.fast` is true")
    assert d["column"] == len('        backend = "') + 1


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
    only_on_path(diags, 9, "fa3", '`[ -n "$DET" ]` succeeds')
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


def test_shell_path_explosion_ends_in_unknown(tmp_path, capsys):
    body = "".join(f'if [ -n "$F{i}" ]; then X{i}=--x{i}; fi\n' for i in range(6))
    refs = " ".join(f"$X{i}" for i in range(6))
    text = ("#!/bin/bash\n" + body + 'if [ -n "$D" ]; then DET=--enable-deterministic-inference; fi\n'
            "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
            f"{refs} $DET\n")
    write_tree(tmp_path, {"run.sh": text})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert all(d["code"] != "SGL004" for d in diags)
    out = explain(tmp_path, capsys, "run.sh")
    assert "path:" not in out and "deterministic inference: unknown" in out


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


@pytest.mark.parametrize("last, launch", [
    ('exec "$@"', True),
    ('exec "${@}"', True),
    ('"$@"', True),
    ('exec python -m other "$@"', False),
    ('exec "$@"\necho done', False),
])
def test_compose_entrypoint_script_that_passes_the_command_through(tmp_path, capsys, last, launch):
    code, diags = lint(tmp_path, capsys, {"compose.yaml": COMPOSE,
                                          "docker/entrypoint.sh": f"#!/bin/bash\nset -e\nexport X=1\n{last}\n"})
    assert [d["code"] for d in diags] == (["SGL101"] if launch else [])


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
