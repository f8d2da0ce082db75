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
    # main(args) gives a launch per case, the fa4 one a warning of its path; build('fast') one
    # launch, certain: an error
    assert sorted((d["line"], d["severity"], "(when " in d["message"]) for d in sgl101(diags)) == [
        (6, "error", False), (6, "warning", True)]
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
                       .split("    go(det=True)")[0] + calls})
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
