"""Values along paths in Python (issue 35, the fresh review): arguments bound into the helpers they are
passed to, ``try``/``except`` as paths, a function called with different constants, the variant cap per
decision that matters, and the smaller misses (dead definitions, ``match`` returns, ``elif`` after a
``return``). Each case has a deterministic + attention-backend combination, so the finding's certainty
(an error, or a warning with its condition and an unsafe fix) is visible."""

from __future__ import annotations

import pytest

from tests.helpers import run
from tests.test_paths import H100, explain, lint, only_on_path, src

DSV3_LAUNCH = '"python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3"'


def sgl101(diags: list[dict]) -> list[dict]:
    return [d for d in diags if d["code"] == "SGL101"]


def launch_lines(tmp_path, capsys, name: str = "run.py") -> list[str]:
    out = run(tmp_path, capsys, *H100, "--list-launches", ".")[1]
    return [line for line in out.splitlines() if line.startswith(f"{name}:")]


# -- 1. argv passed into a helper --------------------------------------------------------------------

def test_argv_passed_into_a_helper_that_returns_it_extended(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": f"""
        import subprocess

        def with_backend(a):
            return a + ["--attention-backend", "fa4"]

        subprocess.run(with_backend([{DSV3_LAUNCH}, "--enable-deterministic-inference"]))
        """})
    [d] = diags
    assert (d["code"], d["severity"], d["line"], d["fix"]["applicability"]) == ("SGL101", "error", 4, "safe")
    assert launch_lines(tmp_path, capsys) == ["run.py:6"]


def test_argv_built_along_paths_and_passed_into_a_helper(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": f"""
        import subprocess

        def with_backend(a):
            return a + ["--attention-backend", "fa4"]

        def main(args):
            cmd = [{DSV3_LAUNCH}]
            if args.true_on_policy:
                cmd += ["--enable-deterministic-inference"]
            subprocess.run(with_backend(cmd))
        """})
    # the helper's fa4 is read on both paths: a warning with its condition, an unsafe fix
    only_on_path(diags, 4, "fa3", "`args.true_on_policy` is true")


KEYWORDS_AND_DEFAULTS = f"""
    import subprocess
    BASE = [{DSV3_LAUNCH}]

    def server(base, backend="fa4", *, det=False):
        cmd = base + ["--attention-backend", backend]
        if det:
            cmd.append("--enable-deterministic-inference")
        return cmd

    subprocess.run(server(BASE, det=True))
    subprocess.run(server(BASE, backend="fa3", det=True))
    subprocess.run(server(list(BASE)))
    subprocess.run(server(*[BASE], **{{"det": True, "backend": "triton"}}))
    """


def test_keywords_defaults_and_spread_arguments_are_bound(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": KEYWORDS_AND_DEFAULTS})
    # only the first call keeps the default fa4 with deterministic inference: an error (no path), at
    # the default; its fix is unsafe because the third call's launch reads the same fa4
    [d] = diags
    assert (d["code"], d["severity"], d["line"], d["column"]) == ("SGL101", "error", 4, 27)
    assert "not on every path" not in d["message"] and d["fix"]["applicability"] == "unsafe"
    out = explain(tmp_path, capsys, "run.py")
    assert out.count("deterministic inference: on") == 3 and out.count("deterministic inference: off") == 1
    assert "path:" not in out


def test_a_helper_called_with_a_constant_decides_its_match(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": MATCH + "    subprocess.run(build('fast'))\n"})
    # main(args) gives a launch per case; build('fast') one launch, certain: an error. The fa4 path of
    # main(args) has the same finding at the same place: one finding, not also a warning of its path
    # (fresh review of issue 35, D13/D14)
    assert sorted((d["line"], d["severity"], "(when " in d["message"]) for d in sgl101(diags)) == [
        (6, "error", False)]
    assert sgl101(diags)[0]["fix"]["applicability"] == "safe"  # fa4 is written in the failing case only
    out = run(tmp_path, capsys, *H100, "--list-launches", ".")[1]
    assert "2 launches (3 paths) in 1 file; 2 fail on a declared target" in out
    assert launch_lines(tmp_path, capsys) == ["run.py:11", "run.py:11", "run.py:12"]  # (a launch per path)


@pytest.mark.parametrize("depth", [3, 11])
def test_a_chain_of_helpers_passing_the_argv_on(tmp_path, capsys, depth):
    defs = "".join(f"def f{k}(a):\n    return f{k + 1}(a + ['--x{k}'])\n" for k in range(depth))
    text = (f"import subprocess\nBASE = [{DSV3_LAUNCH}, '--attention-backend', 'fa4', "
            "'--enable-deterministic-inference']\n" + defs + f"def f{depth}(a):\n    return a\n"
            "subprocess.run(f0(BASE))\n")
    code, diags = lint(tmp_path, capsys, {"run.py": text}, "--select", "SGL101")
    [d] = diags
    assert (d["line"], d["severity"]) == (2, "error")


def test_recursion_and_chains_past_the_depth_end_in_unknown(tmp_path, capsys):
    defs = "".join(f"def g{k}(a):\n    return g{k + 1}(a + ['--x{k}'])\n" for k in range(300))
    code, diags = lint(tmp_path, capsys, {"run.py": f"""
        import subprocess

        def build(n, a):
            if n == 0:
                return a
            return build(n - 1, a + ["--max-running-requests", "1"])

        def forever(a):
            return forever(a + ["x"])

        subprocess.run(build(3, [{DSV3_LAUNCH}]))
        subprocess.run(forever([{DSV3_LAUNCH}]))
        subprocess.run(g0([{DSV3_LAUNCH}]))
        subprocess.run([{DSV3_LAUNCH}, "--attention-backend", "fa4", "--enable-deterministic-inference"])
        """ + defs.replace("\n", "\n        ")})
    assert [(d["code"], d["line"]) for d in diags] == [("SGL101", 14)]
    assert all(d["code"] != "SGL004" for d in diags)


def test_a_helper_called_with_more_argument_sets_than_the_limit(tmp_path, capsys):
    from linter import limits

    n = limits.MAX_ARG_SETS
    calls = "".join(f"subprocess.run(server(BASE, '--max-running-requests', '{k}'))\n" for k in range(n + 3))
    code, diags = lint(tmp_path, capsys, {"run.py": f"""
        import subprocess
        BASE = [{DSV3_LAUNCH}, "--attention-backend", "fa4", "--enable-deterministic-inference"]

        def server(base, *extra):
            return base + list(extra)

        """ + calls.replace("\n", "\n        ")}, "--select", "SGL101")
    assert [(d["line"], d["severity"]) for d in diags] == [(2, "error")]
    # past the limit a call's value is computed with its arguments unknown, as before they were bound
    assert launch_lines(tmp_path, capsys) == [f"run.py:{7 + k}" for k in range(n)]


# -- 2. try / except ---------------------------------------------------------------------------------

TRY_IMPORT = f"""
    import subprocess
    cmd = [{DSV3_LAUNCH}, "--attention-backend", "fa4", "--enable-deterministic-inference"]
    try:
        import flash_attn_interface
        cmd += ["--attention-backend", "fa3"]
    except ImportError:
        pass
    subprocess.run(cmd)
    """


def test_try_import_and_its_handler_are_two_paths(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": TRY_IMPORT}, "--select", "SGL101")
    # only the path where the import fails keeps fa4: a warning with its condition, an unsafe fix
    # (the fa4 is also read on the path where fa3 follows it)
    only_on_path(diags, 2, "fa3", "`import flash_attn_interface` raises ImportError")
    out = explain(tmp_path, capsys, "run.py")
    assert "path:      when `import flash_attn_interface` succeeds (" in out
    assert "path:      when `import flash_attn_interface` raises ImportError (" in out


def test_a_handler_that_sets_the_backend_is_its_own_path(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": f"""
        import subprocess

        def main(cfg):
            cmd = [{DSV3_LAUNCH}, "--enable-deterministic-inference"]
            try:
                cmd += ["--attention-backend", choose(cfg)]
            except Exception:
                cmd += ["--attention-backend", "fa4"]
            subprocess.run(cmd)
        """})
    # the fa4 is written in the handler: only that path reads it, so its fix stays safe
    only_on_path(sgl101(diags), 8, "fa3", "the `try` body at line 5 raises Exception", fix="safe")


def test_an_import_that_binds_a_module_or_none_is_not_two_paths(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": """
        try:
            import sglang as sgl
        except ImportError:
            sgl = None
        sgl.Engine(model_path="deepseek-ai/DeepSeek-V3", attention_backend="fa4",
                   enable_deterministic_inference=True)
        """})
    [d] = sgl101(diags)
    assert d["severity"] == "error" and "not on every path" not in d["message"]


# -- 3. a function called with different constants --------------------------------------------------

GO = """
    import subprocess
    CMD = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4"

    def go(det=False):
        c = CMD
        if det:
            c += " --enable-deterministic-inference"
        subprocess.run(c, shell=True)

    go(det=True)
    go()
    """


def test_calls_with_different_constants_are_a_launch_each_decided(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": GO})
    # go(det=True) fails for certain: an error, no condition; go() has no finding. The fix edits the
    # fa4 that go()'s launch reads too: unsafe
    [d] = diags
    assert (d["code"], d["severity"], d["line"]) == ("SGL101", "error", 2)
    assert "not on every path" not in d["message"] and d["fix"]["applicability"] == "unsafe"
    assert launch_lines(tmp_path, capsys) == ["run.py:10", "run.py:11"]
    out = explain(tmp_path, capsys, "run.py")
    assert out.count("deterministic inference: on") == 1 and out.count("deterministic inference: off") == 1
    assert "path:" not in out


def test_calls_with_the_same_constants_are_one_launch(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": GO.replace("go()", "go(True)")})
    [d] = diags
    assert (d["code"], d["severity"], d["fix"]["applicability"]) == ("SGL101", "error", "safe")
    assert launch_lines(tmp_path, capsys) == ["run.py:8"]  # where it starts, as before


def test_more_distinct_calls_than_the_limit_keep_the_parameter_undecided(tmp_path, capsys):
    from linter import limits

    calls = "".join(f"    go(det={k % 2 == 0}, n={k})\n" for k in range(limits.MAX_CALL_VARIANTS + 1))
    code, diags = lint(tmp_path, capsys, {"run.py": GO.replace("go(det=False)", "go(det=False, n=0)")
                       .replace("c = CMD", "c = CMD + f' --max-running-requests {n}'")
                       .split("    go(det=True)")[0] + calls}, "--select", "SGL101")
    only_on_path(diags, 2, "fa3", "`det` is true")
    assert launch_lines(tmp_path, capsys) == ["run.py:8", "run.py:8"]  # a launch per path, where it starts


def test_a_helper_that_runs_its_command_is_one_launch_at_each_call(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": """
        import subprocess

        def _run(cmd, det=False):
            if det:
                cmd += " --enable-deterministic-inference"
            subprocess.run(cmd, shell=True)

        _run("python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4",
             det=True)
        """})
    [d] = diags
    assert (d["code"], d["severity"], d["line"]) == ("SGL101", "error", 8)
    assert launch_lines(tmp_path, capsys) == ["run.py:8"]  # (not again where the helper starts it)


# -- 3b. arguments handed on through a chain of calls to the function that launches -------------------

LAUNCHER = f"""
    import subprocess


    def f1(c):
        subprocess.run([{DSV3_LAUNCH}, "--enable-deterministic-inference", "--attention-backend", c])
    """

CHAINS = {
    "two": (
        """
        def f0(c):
            f1(c)


        f0("fa4")
        """, [("SGL101", "error", 10, "safe")], ["run.py:5"]),
    "three, by keyword": (
        """
        def f2(c):
            f1(c=c)


        def f3(x, other=1):
            f2(c=x)


        f3(other=2, x="fa4")
        """, [("SGL101", "error", 14, "safe")], ["run.py:5"]),
    "the outer calls pass different constants": (
        """
        def f0(c):
            f1(c)


        f0("fa4")
        f0("fa3")
        f0("fa4")
        """, [("SGL101", "error", 10, "safe")], ["run.py:10", "run.py:11"]),
    "a constant written at the middle call": (
        """
        def f0(det):
            f1("fa4")


        f0(1)
        """, [("SGL101", "error", 7, "safe")], ["run.py:5"]),
    "a parameter rebound before it is handed on": (
        """
        def f0(c):
            c = pick(c)
            f1(c)


        f0("fa4")
        """, [], ["run.py:5"]),
}


@pytest.mark.parametrize("case", CHAINS, ids=list(CHAINS))
def test_arguments_are_bound_through_a_chain_of_calls(tmp_path, capsys, case):
    """``f0("fa4")`` calling ``f1(c)`` that launches with ``c``: the launch is decided, located at the
    outermost call that gives it (its finding at the constant, where the fix edits); before, the
    launching helper was read with its parameters unknown (no finding)."""
    chain, expected, launches = CHAINS[case]
    code, diags = lint(tmp_path, capsys, {"run.py": src(LAUNCHER) + src(chain)}, "--select", "SGL101")
    assert [(d["code"], d["severity"], d["line"], d["fix"]["applicability"]) for d in diags] == expected
    assert launch_lines(tmp_path, capsys) == launches
    if case == "the outer calls pass different constants":  # one launch per set, each decided
        out = explain(tmp_path, capsys, "run.py")
        assert "attention_backend: 'fa4'" in out and "attention_backend: 'fa3'" in out
        assert "attention_backend: unknown" not in out


@pytest.mark.parametrize("recursive, also_unknown", [
    ('def f0(c, n):\n    if n:\n        f0(c, n - 1)\n    f1(c)\n\n\nf0("fa4", 3)\n', False),
    ('def f0(c):\n    f1(c)\n\n\ndef g(c):\n    f0(c)\n    g(c)\n\n\ng("fa4")\n', False),
    ('def f0(c):\n    g(c)\n    f1(c)\n\n\ndef g(c):\n    f0(c)\n\n\nf0("fa4")\n', True),
], ids=["itself", "a caller that calls itself", "two calling each other"])
def test_a_recursive_chain_of_calls_is_bounded(tmp_path, capsys, recursive, also_unknown):
    """The calls from outside a recursion decide the launch: an error where their constant is written.
    A function that calls itself handing ``c`` on unchanged (``f0(c, n - 1)``) keeps the outer
    constant at every level; a mutual recursion is read once around (bounded), and the launch it
    reaches is not decided (listed, never guessed)."""
    code, diags = lint(tmp_path, capsys, {"run.py": src(LAUNCHER) + recursive}, "--select", "SGL101")
    [d] = diags
    assert (d["code"], d["severity"]) == ("SGL101", "error")
    assert src(LAUNCHER).count("\n") < d["line"]  # at the outer constant, not in the helper
    out = explain(tmp_path, capsys, "run.py")
    assert "attention_backend: 'fa4'" in out
    assert ("attention_backend: unknown" in out) is also_unknown


def test_functions_that_all_call_one_another_are_each_read_once(tmp_path, capsys):
    """Ten functions each handing ``c`` on to all the others: every chain through them is a
    recursion; each function is read once (before, every chain was read again: 9**12 readings)."""
    body = "".join(f"def g{i}(c):\n" + "".join(f"    {'f1' if j == 0 else f'g{j}'}(c)\n"
                                               for j in range(10) if j != i) + "\n\n" for i in range(1, 10))
    code, diags = lint(tmp_path, capsys, {"run.py": src(LAUNCHER) + body + 'g9("fa4")\n'}, "--select", "SGL101")
    # at g9("fa4"), after the nine functions of twelve lines each
    assert [(d["severity"], d["line"]) for d in diags] == [("error", src(LAUNCHER).count("\n") + 12 * 9 + 1)]


def test_a_chain_deeper_than_the_limit_is_unknown(tmp_path, capsys):
    from linter import limits

    n = limits.MAX_CALL_DEPTH + 2
    chain = "".join(f"def g{k}(c):\n    {'f1' if k == 0 else f'g{k - 1}'}(c)\n\n\n" for k in range(n))
    code, diags = lint(tmp_path, capsys, {"run.py": src(LAUNCHER) + chain + f'g{n - 1}("fa4")\n'},
                       "--select", "SGL101")
    assert diags == []
    shallow = "".join(f"def g{k}(c):\n    {'f1' if k == 0 else f'g{k - 1}'}(c)\n\n\n" for k in range(3))
    code, diags = lint(tmp_path, capsys, {"run.py": src(LAUNCHER) + shallow + 'g2("fa4")\n'}, "--select", "SGL101")
    assert [d["severity"] for d in diags] == ["error"]


# -- 4. past the variant cap: the decisions that matter are kept apart, the others merged ------------

def _unrelated_fields(n: int) -> list[str]:
    return [f'    a{i} = f"--max-running-requests {{{i} if args.f{i} else {i + 100}}} "' for i in range(n)]


def miles_like(n: int, det_first: bool) -> str:
    """A miles-style trainer command: ``n`` unrelated undecided pieces and one switch that turns on
    deterministic inference with fa4, each in its own variable, all read by one f-string."""
    lines = ["import miles.utils.external_utils.command_utils as U", "", "def execute(args):"]
    det = ['    det = ""', "    if args.true_on_policy:",
           '        det = "--sglang-enable-deterministic-inference --sglang-attention-backend fa4 "']
    lines += (det + _unrelated_fields(n)) if det_first else (_unrelated_fields(n) + det)
    fields = "".join(f"{{a{i}}}" for i in range(n))
    lines += [f'    train_args = f"--hf-checkpoint deepseek-ai/DeepSeek-V3 {fields}{{det}}"',
              "    U.execute_train(train_args=train_args)"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("det_first", [False, True])
def test_past_the_cap_the_deterministic_switch_keeps_its_condition(tmp_path, capsys, det_first):
    from linter import limits

    n = limits.MAX_PATH_VARIANTS + 4  # 2**20 paths
    code, diags = lint(tmp_path, capsys, {"run.py": miles_like(n, det_first)}, "--select", "SGL101,SGL004")
    # the finding still comes with its condition (today: "deterministic inference: unknown")
    # (the fa4 is written on the failing path only: its fix is safe)
    only_on_path(diags, 6 if det_first else 6 + n, "fa3", "`args.true_on_policy` is true", fix="safe")
    out = explain(tmp_path, capsys, "run.py")
    assert out.count("path:      when ") == 2  # the unrelated decisions are merged, not kept apart
    # the other path is known to be off: what the merged decisions choose is an unknown value of a
    # known option (``--max-running-requests ?0``), what every path shares stays known
    assert "deterministic inference: on (by --enable-deterministic-inference)" in out
    assert "deterministic inference: off" in out and "may set any option" not in out


LIST_PAST_CAP = (["import subprocess", "", "def main(args):",
                  f"    cmd = [{DSV3_LAUNCH}]",
                  "    if args.true_on_policy:",
                  '        cmd += ["--enable-deterministic-inference", "--attention-backend", "fa4"]']
                 + [line for i in range(20) for line in (f"    if args.f{i}:",
                                                         f'        cmd += ["--max-running-requests", "{i}"]')]
                 + ["    subprocess.run(cmd)"])


def test_past_the_cap_a_list_grown_in_twenty_branches_keeps_the_one_that_matters(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": "\n".join(LIST_PAST_CAP) + "\n"}, "--select", "SGL101,SGL004")
    only_on_path(diags, 6, "fa3", "`args.true_on_policy` is true", fix="safe")
    assert explain(tmp_path, capsys, "run.py").count("path:      when ") == 2


def _det_among(before: int, after: int) -> str:
    """A module that appends ``--enable-deterministic-inference`` under an undecided test, with
    ``before`` and ``after`` unrelated undecided ``cmd += [...]`` around it, to a fa4 launch."""
    lines = ["import os", "import subprocess", "",
             f'cmd = [{DSV3_LAUNCH}, "--attention-backend", "fa4"]']
    switches = [(f"A{k}", f"--flag-{k}") for k in range(before + after)]
    switches.insert(before, ("DET", "--enable-deterministic-inference"))
    for name, flag in switches:
        lines += [f'if os.environ.get("{name}"):', f'    cmd += ["{flag}"]']
    return "\n".join(lines + ["subprocess.run(cmd)"]) + "\n"


@pytest.mark.parametrize(("before", "after"), [
    (0, 17), (1, 16), (8, 9), (17, 0),  # first, second, middle, last of 18
    (20, 5), (0, 25), (25, 0), (30, 30),  # nested past MAX_PATH_NESTING
], ids=["first", "second", "middle", "last", "20-before-5-after", "first-of-26", "last-of-26", "middle-of-61"])
def test_past_the_cap_the_deterministic_switch_is_kept_wherever_it_sits(tmp_path, capsys, before, after):
    """Which decision is kept apart does not depend on where it sits among the others: appended
    second, ``--enable-deterministic-inference`` was merged into the unknown middle of the lists
    the other paths give; among more ``if``s than ``MAX_PATH_NESTING`` nests, it was merged away
    with them (deterministic inference unknown, no finding)."""
    code, diags = lint(tmp_path, capsys, {"run.py": _det_among(before, after)}, "--select", "SGL101,SGL004")
    only_on_path(diags, 4, "fa3", '`os.environ.get("DET")` is true')
    out = explain(tmp_path, capsys, "run.py")
    assert "deterministic inference: on (by --enable-deterministic-inference)" in out
    # two launches: DET's paths; the other decisions merged (their flags unknown words on both)
    assert out.count("path:      when ") == 2 and 'when `os.environ.get("DET")` is false' in out


def test_past_the_cap_a_backend_chosen_in_a_variable_is_kept_apart(tmp_path, capsys):
    lines = ["import subprocess", "", "def main(args):"] + _unrelated_fields(20) + [
        '    backend = "fa4" if args.fast else "fa3"',
        "    extra = " + " + ".join(f"a{i}" for i in range(20)) + ' + f"--attention-backend {backend}"',
        '    subprocess.run(f"python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 '
        '--enable-deterministic-inference {extra}", shell=True)']
    code, diags = lint(tmp_path, capsys, {"run.py": "\n".join(lines) + "\n"}, "--select", "SGL101,SGL004")
    # merged, the backend's value would be unknown ("fa?"); one of its paths knows it: its decision is
    # kept apart
    only_on_path(diags, 24, "fa3", "`args.fast` is true", fix="safe")


MILES_NESTED = """
    import miles.utils.external_utils.command_utils as U

    def execute(args):
        ckpt = f"--hf-checkpoint deepseek-ai/DeepSeek-V3 --save-interval {2 if args.mode == 'debug' else 20} "
        rollout = f"--rollout-batch-size {8 if args.mode == 'debug' else 64} "
        if args.dynamic_sampling:
            rollout += "--over-sampling-batch-size 128 "
        if args.use_ref:
            ckpt += "--ref-load /root/ref "
        eval_args = ""
        if args.enable_eval:
            eval_args += "--eval-interval 20 "
            if args.multi_eval:
                eval_args += "--eval-config x.yaml "
        if args.train_backend == "fsdp":
            backend = "--train-backend fsdp "
            if args.true_on_policy:
                backend += "--sglang-attention-backend fa4 "
        else:
            backend = "--attention-backend flash "
        misc = "--colocate " if args.colocate else "--rollout-num-gpus 4 "
        det = ""
        if args.true_on_policy:
            det = "--sglang-enable-deterministic-inference --deterministic-mode "
        group = f"{'fsdp' if args.train_backend == 'fsdp' else 'megatron'}-{'ref' if args.use_ref else 'noref'}"
        train_args = f"{ckpt} {rollout} {eval_args} {backend} {misc} {det} --wandb-group {group} "
        U.execute_train(train_args=train_args)
    """


def test_a_backend_set_under_two_switches_keeps_both_apart(tmp_path, capsys):
    """The miles ``run_mcore_fsdp.py`` shape: fa4 (fa3 there) is set only under ``train_backend ==
    "fsdp"`` and ``true_on_policy``, deterministic inference under ``true_on_policy``, among a dozen
    other undecided switches."""
    code, diags = lint(tmp_path, capsys, {"run.py": MILES_NESTED}, "--select", "SGL101,SGL004")
    only_on_path(diags, 18, "fa3", '`args.train_backend == "fsdp"` is true and `args.true_on_policy` is true',
                 fix="safe")
    out = explain(tmp_path, capsys, "run.py")
    assert out.count("path:      when ") == 4


# -- 5. dead definitions and conditional expressions, match returns, elif after a return -------------

DEAD = f"""
    import subprocess
    DEBUG = False
    USE_A = True
    if False:
        def dead():
            subprocess.run([{DSV3_LAUNCH}, "--attention-backend", "fa4", "--enable-deterministic-inference"])
    if DEBUG:
        class Dead:
            def start(self):
                subprocess.run([{DSV3_LAUNCH}, "--attention-backend", "fa4", "--enable-deterministic-inference"])
    else:
        def live():
            subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "live/else"])
    while DEBUG:
        def loop():
            subprocess.run([{DSV3_LAUNCH}, "--attention-backend", "fa4", "--enable-deterministic-inference"])

    subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "live/a"]) if USE_A else \\
        subprocess.run([{DSV3_LAUNCH}, "--attention-backend", "fa4", "--enable-deterministic-inference"])
    dead()
    """


def test_launches_in_definitions_and_conditional_branches_the_file_decides_against(tmp_path, capsys):
    """A function or class defined under ``if False:``, a constant-false module flag or a ``while`` the
    file decides never runs is never defined; the dead side of a decided conditional expression never
    runs: none of their fa4 + deterministic launches is a launch."""
    code, diags = lint(tmp_path, capsys, {"run.py": DEAD})
    assert sgl101(diags) == []
    assert launch_lines(tmp_path, capsys) == ["run.py:13", "run.py:18"]


MATCH = f"""
    import subprocess

    def build(mode):
        match mode:
            case "fast":
                return [{DSV3_LAUNCH}, "--attention-backend", "fa4", "--enable-deterministic-inference"]
            case _:
                return [{DSV3_LAUNCH}, "--attention-backend", "fa3", "--enable-deterministic-inference"]

    def main(args):
        subprocess.run(build(args.mode))
    """


def test_match_whose_cases_return_argv_lists_is_a_path_per_case(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": MATCH})
    # the fa4 is written in the failing case only: its fix is safe
    only_on_path(diags, 6, "fa3", '`mode` matches `"fast"`', fix="safe")
    out = explain(tmp_path, capsys, "run.py")
    assert 'path:      when `mode` matches `"fast"` (' in out and "path:      when `mode` matches `_` (" in out


ELIF_AFTER_RETURN = f"""
    import subprocess

    def main(args):
        cmd = [{DSV3_LAUNCH}, "--attention-backend", "fa4"]
        if args.dry_run:
            return
        elif args.true_on_policy:
            cmd += ["--enable-deterministic-inference"]
        subprocess.run(cmd)

    def build(args):
        if args.plain:
            return [{DSV3_LAUNCH}]
        elif args.true_on_policy:
            return [{DSV3_LAUNCH}, "--attention-backend", "fa4", "--enable-deterministic-inference"]
        return [{DSV3_LAUNCH}, "--attention-backend", "fa3"]

    subprocess.run(build(ARGS))
    """


def test_elif_after_a_branch_that_returns_says_the_earlier_test_failed(tmp_path, capsys):
    code, diags = lint(tmp_path, capsys, {"run.py": ELIF_AFTER_RETURN})
    assert sorted((d["line"], d["message"].split("(when ")[1].split(";")[0]) for d in sgl101(diags)) == [
        (4, "`args.dry_run` is false and `args.true_on_policy` is true"),
        (15, "`args.plain` is false and `args.true_on_policy` is true")]
    out = explain(tmp_path, capsys, "run.py")
    assert "path:      when none of `args.dry_run`, `args.true_on_policy` is true (" in out
    assert "path:      when `args.plain` is false and `args.true_on_policy` is false (" in out


@pytest.mark.parametrize("test, severity", [
    ("N > 4", None),  # dead: N is 2 (before: a warning "when `N > 4` is true")
    ("N >= 2", "error"),
    ("1 < N < 3", "error"),  # a chain, pair by pair
    ("N < 2 < 3", None),
    ("N % 2", None),  # arithmetic on known integers
    ("N * 3 == 6", "error"),
    ("NAME < 'b'", "error"),  # two strings order
    ("N > NAME", "warning"),  # Python would raise: not decided
    ("N // 0", "warning"),  # no value: not decided
    ("len(sys.argv) > 2", "warning"),
])
def test_comparisons_of_known_values_are_decided(tmp_path, capsys, test, severity):
    code, diags = lint(tmp_path, capsys, {"run.py": f"""
        import subprocess, sys
        N = 2
        NAME = "a"
        B = [{DSV3_LAUNCH}]
        if {test}:
            B += ["--attention-backend", "fa4", "--enable-deterministic-inference"]
        subprocess.run(B)
        """})
    assert [d["severity"] for d in sgl101(diags)] == ([severity] if severity else [])


@pytest.mark.parametrize("helper, call", [
    ('def f1(c):\n    subprocess.run(c + ["--enable-deterministic-inference"])\n',
     f'f1([{DSV3_LAUNCH}, "--attention-backend", "fa4"])\n'),
    (f'def f1(extra):\n    subprocess.run([{DSV3_LAUNCH}, "--attention-backend", "fa4"] + extra)\n',
     'f1(["--enable-deterministic-inference"])\n'),
    ('def f2(c):\n    subprocess.run(c)\n\n\ndef f1(c):\n    f2(c + ["--enable-deterministic-inference"])\n',
     f'f1([{DSV3_LAUNCH}, "--attention-backend", "fa4"])\n'),
])
def test_a_helper_that_starts_its_parameter_with_more_words_is_a_launch_at_each_call(tmp_path, capsys, helper, call):
    """``subprocess.run(c + [...])``, ``[...] + extra``: the helper starts the command it is given with
    words of its own (fresh review of issue 35, D2); before, no launch was found."""
    code, diags = lint(tmp_path, capsys, {"run.py": "import subprocess\n\n\n" + helper + "\n\n" + call})
    assert [(d["code"], d["severity"]) for d in sgl101(diags)] == [("SGL101", "error")]
