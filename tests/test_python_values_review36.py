"""Values along every path in Python (issue 35, the review at rev36): a dataclass the file builds and
hands to the launching function, a command kept in a module global or on ``self`` by another
function or method, a mutual recursion, a parameter changed in a branch before it is handed on, and
two deciding ``if``s among more undecidable ones than the variant cap. Each case launches DeepSeek-V3
(absorbed MLA) on an H100, so fa4 with deterministic inference is SGL101: an error when it holds on
every path, a warning naming the condition when it holds on some."""

from __future__ import annotations

import pytest

from tests.helpers import run
from tests.test_paths import H100, lint, src

# -- D10: a dataclass the file builds is handed to the launching function -------------------------

DATACLASS = """
    import os, subprocess
    from dataclasses import dataclass, field

    @dataclass
    class Args:
        true_on_policy: bool = False
        backend: str = field(default="fa4")
        tags: list = field(default_factory=list)

    def launch(args: Args):
        cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
               "--attention-backend", args.backend, *args.tags]
        {PRE}if args.true_on_policy:
            cmd.append("--enable-deterministic-inference")
        subprocess.run(cmd)

    {CALLS}
    """


def _dataclass_case(calls: str, pre: str = "") -> str:
    text = DATACLASS.replace("{CALLS}", calls.replace("\n", "\n    "))
    return text.replace("{PRE}", pre + "\n        " if pre else "")


@pytest.mark.parametrize(("calls", "pre", "expected"), [
    # the value the call gives: every path
    ("launch(Args(true_on_policy=True))", "", [("error", None)]),
    ("launch(Args(True))", "", [("error", None)]),
    ("launch(Args(True, 'fa4'))", "", [("error", None)]),
    # the field's default (true_on_policy False): no finding
    ("launch(Args())", "", []),
    ("launch(Args(true_on_policy=False))", "", []),
    # another backend given: nothing (deterministic triton is fine)
    ("launch(Args(True, backend='triton'))", "", []),
    # two calls, each decided: one launch each, the first an error
    ("launch(Args(true_on_policy=True))\nlaunch(Args())", "", [("error", None)]),
    # the function changes the field before it reads it
    ("launch(Args())", "args.true_on_policy = True", [("error", None)]),
    ("launch(Args(true_on_policy=True))", "args.true_on_policy = False", []),
    # what the file does not decide stays a condition
    ("launch(Args(true_on_policy=bool(os.environ.get('X'))))", "", [("warning", "`args.true_on_policy` is true")]),
    # (one launch an error, the other a warning at the same fa4: the error is reported)
    ("launch(Args(true_on_policy=True))\nlaunch(Args(os.environ.get('X')))", "", [("error", None)]),
])
def test_a_dataclass_built_in_the_file_gives_its_fields(tmp_path, capsys, calls, pre, expected):
    code, diags = lint(tmp_path, capsys, {"run.py": _dataclass_case(calls, pre)}, "--select", "SGL101")
    _check(diags, expected)


# -- D12: a command set by one function or method and run by another ---------------------------------

ARGV = '["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3"]'
FA4_DET = '["--attention-backend", "fa4", "--enable-deterministic-inference"]'

def _det_setter_and(other: str) -> str:
    """A module whose global fa4 command ``det()`` extends with deterministic inference, and a second
    function ``other()`` sets (``other``: its statement; "" for none), run by ``run()``."""
    second = f"def other():\n    global CMD\n    {other}\n" if other else ""
    return (f'import subprocess\nCMD = {ARGV} + ["--attention-backend", "fa4"]\n'
            'def det():\n    global CMD\n    CMD = CMD + ["--enable-deterministic-inference"]\n'
            f"{second}def run():\n    subprocess.Popen(CMD)\n")


SET_ELSEWHERE = {
    # a module global set through ``global`` in one function, run in another: a launch; the path on
    # which setup() has not run has no command (None), so the finding holds on every path of the launch
    "global set in a function": (f"""
        import subprocess
        CMD = None
        def setup():
            global CMD
            CMD = {ARGV} + {FA4_DET}
        def run():
            subprocess.Popen(CMD)
        setup(); run()
        """, [("error", None)]),
    # a global the module gives a command, extended by a function: a path each
    "global extended in a function": (_det_setter_and(""), [("warning", "`det()` has run")]),
    # two functions extend it: each may run after the other, so each extends the module's words
    # then words not known; the path on which det() ran last has deterministic inference on
    "global extended by two functions": (_det_setter_and('CMD = CMD + ["--tp", "2"]'),
                                         [("warning", "`det()` ran last")]),
    # one of them replaces it: what the other extends is unknown (no path has fa4 and deterministic)
    "global replaced by one of two functions": (_det_setter_and(f"CMD = {ARGV}"), []),
    # the setter is called before every call of the runner, in the same block: what it leaves, always
    "setter called before the runner": (_det_setter_and("") + "def main():\n    det()\n    run()\nmain()\n",
                                        [("error", None)]),
    "setter called before the runner at module level": (_det_setter_and("") + "det(); run()\n", [("error", None)]),
    # not before every call, or the global rebound in between: a path each
    "setter called after one of two calls": (_det_setter_and("") + "run()\ndet(); run()\n",
                                              [("warning", "`det()` has run")]),
    "global rebound between": (_det_setter_and("") + "det()\nCMD = list(CMD)\nrun()\n",
                               [("warning", "`det()` has run")]),
    # self.cmd set in a method other than __init__ (over a class attribute), run in another
    "self.cmd set in a method": (f"""
        import subprocess
        class Server:
            cmd = {ARGV}
            def configure(self, det):
                self.cmd = self.cmd + ["--attention-backend", "fa4"]
                if det:
                    self.cmd = self.cmd + ["--enable-deterministic-inference"]
            def launch(self):
                return subprocess.Popen(self.cmd)
        """, [("warning", "`configure()` has run and `det` is true")]),
    # set in __init__, extended in another method
    "self.cmd extended in a method": (f"""
        import subprocess
        class S:
            def __init__(self):
                self.cmd = {ARGV} + ["--attention-backend", "fa4"]
            def add(self):
                self.cmd += ["--enable-deterministic-inference"]
            def run(self):
                return subprocess.Popen(self.cmd)
        """, [("warning", "`add()` has run")]),
    # the setter calls the method that runs it: no hang, the launch in the setter is its own
    "setter calls the runner": (f"""
        import subprocess
        class S:
            def __init__(self):
                self.cmd = {ARGV} + ["--attention-backend", "fa4"]
            def add(self):
                self.cmd = self.cmd + ["--enable-deterministic-inference"]
                return self.run()
            def run(self):
                return subprocess.Popen(self.cmd)
        """, [("warning", "`add()` has run")]),
    # changed in place other than by ``=``/``+=``/append/extend elsewhere: unknown, as before
    "self.cmd changed in place elsewhere": (f"""
        import subprocess
        class S:
            def __init__(self):
                self.cmd = {ARGV} + {FA4_DET}
            def drop(self):
                self.cmd.remove("--enable-deterministic-inference")
            def run(self):
                return subprocess.Popen(self.cmd)
        """, []),
}


@pytest.mark.parametrize("case", SET_ELSEWHERE, ids=list(SET_ELSEWHERE))
def test_a_command_set_by_another_function_is_a_path(tmp_path, capsys, case):
    text, expected = SET_ELSEWHERE[case]
    code, diags = lint(tmp_path, capsys, {"run.py": text}, "--select", "SGL101")
    _check(diags, expected)


def _check(diags: list[dict], expected: list) -> None:
    got = [(d["severity"], d["message"]) for d in diags]
    assert len(got) == len(expected), got
    for (severity, message), (want, when) in zip(got, expected):
        assert severity == want
        if when is None:
            assert "not on every path" not in message
        else:
            assert f"(when {when}; not on every path of this launch)" in message


# -- D8: a recursion, direct or mutual, that extends the command it is handed --------------------------

RECURSIONS = {
    "mutual": f"""
        import subprocess, os
        def a(c, n):
            if os.environ.get("X"):
                return b(c + ["--attention-backend", "fa4"], n)
            return b(c, n)
        def b(c, n):
            if n:
                return a(c + ["--enable-deterministic-inference"], n - 1)
            return c
        subprocess.run(a({ARGV}, 5))
        """,
    "direct": f"""
        import subprocess
        def a(c, n):
            if n:
                return a(c + ["--enable-deterministic-inference"], n - 1)
            return c
        subprocess.run(a({ARGV} + ["--attention-backend", "fa4"], 5))
        """,
    "three functions": f"""
        import subprocess
        def a(c, n):
            return b(c + ["--attention-backend", "fa4"], n)
        def b(c, n):
            return d(c, n)
        def d(c, n):
            if n:
                return a(c + ["--enable-deterministic-inference"], n - 1)
            return c
        subprocess.run(a({ARGV}, 5))
        """,
}


@pytest.mark.parametrize("case", RECURSIONS, ids=list(RECURSIONS))
def test_a_recursion_that_extends_the_command_is_an_unverified_launch(tmp_path, capsys, case):
    """The words the outermost call gives are known, what the levels add is not: the launch is found,
    not fully verified, and its unknown part is named by --explain (not "no SGLang launch found")."""
    code, diags = lint(tmp_path, capsys, {"run.py": RECURSIONS[case]})
    assert diags == []
    out = run(tmp_path, capsys, *H100, ".")[1]
    assert "Checked 1 launch" in out and "1 launch could not be fully verified" in out
    explained = run(tmp_path, capsys, *H100, "--explain", "run.py")[1]
    assert "python -m sglang.launch_server (deepseek-ai/DeepSeek-V3)" in explained
    assert "unknown:   arguments not known statically" in explained


# -- d2d: a parameter changed in a branch before it is handed on to the function that launches --------

F1 = """
    def f1(c):
        subprocess.run(c)
    """

HANDED_ON = {
    # the branch adds an unrelated option: fa4 + deterministic on both paths, an error
    "branch adds another option": ("""
        def f0(c):
            if os.environ.get("C0"):
                c = c + ["--served-model-name", "n0"]
            return f1(c)
        """, FA4_DET, [("error", None)], ["`os.environ.get(\"C0\")` is true", "`os.environ.get(\"C0\")` is false"]),
    # the branch adds the deciding option: a warning naming it
    "branch adds deterministic": ("""
        def f0(c):
            if os.environ.get("DET"):
                c += ["--enable-deterministic-inference"]
            f1(c)
        """, '["--attention-backend", "fa4"]', [("warning", "`os.environ.get(\"DET\")` is true")],
        ["`os.environ.get(\"DET\")` is true", "`os.environ.get(\"DET\")` is false"]),
    # handed on unchanged to a helper defined after it (found before only when defined first)
    "handed on unchanged": ("""
        def f0(c):
            f1(c)
        """, FA4_DET, [("error", None)], []),
}


@pytest.mark.parametrize("case", HANDED_ON, ids=list(HANDED_ON))
def test_a_parameter_changed_then_handed_on_is_a_launch_per_path(tmp_path, capsys, case):
    helper, extra, expected, paths = HANDED_ON[case]
    text = "import os, subprocess\n" + src(helper) + src(F1) + f"f0({ARGV} + {extra})\n"
    code, diags = lint(tmp_path, capsys, {"run.py": text}, "--select", "SGL101")
    _check(diags, expected)
    listed = run(tmp_path, capsys, *H100, "--list-launches", ".")[1]
    assert [line.split("path: when ", 1)[1] for line in listed.splitlines() if "path: when" in line] == paths


# -- D7b: two deciding ifs among more undecidable ones than the variant cap ----------------------------

def _two_among(n: int, det_at: int, fa_at: int) -> str:
    """``n`` undecided ``if``s each adding to a DeepSeek-V3 launch: ``--served-model-name mK`` but
    at ``det_at`` (deterministic inference) and ``fa_at`` (the fa4 backend)."""
    lines = ["import os, subprocess", f"cmd = {ARGV}"]
    for k in range(n):
        name, words = ("DET", '"--enable-deterministic-inference"') if k == det_at else \
            ("FA", '"--attention-backend", "fa4"') if k == fa_at else (f"V{k}", f'"--served-model-name", "m{k}"')
        lines += [f'if os.environ.get("{name}"):', f"    cmd += [{words}]"]
    return "\n".join(lines + ["subprocess.run(cmd)"]) + "\n"


@pytest.mark.parametrize(("n", "det_at", "fa_at"), [
    (25, 0, 20),  # the review's case
    (25, 10, 24),
    (25, 24, 0),  # backend first, deterministic last
    (40, 5, 35),  # past MAX_PATH_NESTING
    (18, 0, 17),
    (12, 3, 9),  # under the nesting cap: kept before too
])
def test_past_the_cap_two_deciding_ifs_are_both_kept(tmp_path, capsys, n, det_at, fa_at):
    code, diags = lint(tmp_path, capsys, {"run.py": _two_among(n, det_at, fa_at)}, "--select", "SGL101")
    [d] = diags
    assert (d["severity"], d["line"]) == ("warning", 4 + 2 * fa_at)
    assert '`os.environ.get("DET")` is true' in d["message"] and '`os.environ.get("FA")` is true' in d["message"]
    assert d["fix"]["applicability"] == "unsafe"


# -- bounds: many setters, long call cycles -------------------------------------------------------------

def _global_setters(n: int) -> str:
    lines = ["import subprocess", f"CMD = {ARGV}"]
    for k in range(n):
        lines += [f"def s{k}():", "    global CMD", f"    CMD = CMD + ['--served-model-name', 'm{k}']",
                  f"    s{(k + 1) % n}()"]
    return "\n".join(lines + ["def run():", "    subprocess.Popen(CMD)"]) + "\n"


def _method_setters(n: int) -> str:
    lines = ["import subprocess", "class S:", "    def __init__(self):", f"        self.cmd = {ARGV}"]
    for k in range(n):
        lines += [f"    def s{k}(self):", f"        self.cmd += ['--served-model-name', 'm{k}']",
                  f"        self.s{(k + 1) % n}()", "        return self.run()"]
    return "\n".join(lines + ["    def run(self):", "        return subprocess.Popen(self.cmd)"]) + "\n"


def _long_cycle(n: int) -> str:
    """``n`` functions calling one another in a ring with a counter that ends the chain after three:
    longer than ``limits.MAX_CALL_DEPTH``, so it is read level by level (the counter decided)."""
    lines = ["import subprocess"]
    for k in range(n):
        lines += [f"def f{k}(c, n):", f"    if n: return f{(k + 1) % n}(c + ['--served-model-name', 'm{k}'], n - 1)",
                  "    return c"]
    return "\n".join(lines + [f"subprocess.run(f0({ARGV} + {FA4_DET}, 3))"]) + "\n"


@pytest.mark.parametrize(("text", "paths"), [
    (_global_setters(200), None),
    (_method_setters(200), None),
    (_long_cycle(40), 1),
])
def test_many_setters_and_long_cycles_stay_bounded(tmp_path, capsys, text, paths):
    """A launch is found (the module's words known) and nothing is past the evaluation limit."""
    code, diags = lint(tmp_path, capsys, {"run.py": text})
    assert "SGL004" not in [d["code"] for d in diags]
    listed = run(tmp_path, capsys, *H100, "--list-launches", ".")[1]
    assert "1 launch" in listed.splitlines()[-1]
    if paths == 1:  # the ring read with its counter: one path, the launch decided
        assert [(d["code"], d["severity"]) for d in diags if d["code"] == "SGL101"] == [("SGL101", "error")]
