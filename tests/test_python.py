"""Python launch code (linter/extract/python/): every call form and value form the extractor
understands, exact spans inside string literals, fixes checked byte for byte, Modal targets, code that
only mentions SGLang, syntax errors, and that the Python analysis is never loaded for a YAML-only tree."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from linter.extract import python as py
from linter.launch import UNKNOWN, UNKNOWN_CHAR, MStr
from linter.source import SourceFile
from linter.workspace import Workspace
from tests.helpers import codes_at, lint_json, run, write_tree

DSV3 = "deepseek-ai/DeepSeek-V3"
H100 = ["--target-gpu", "H100"]


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def extract(tmp_path: Path, text: str, name: str = "launch.py"):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(src(text).encode())
    ws = Workspace(tmp_path)
    source = ws.read(path)
    path.unlink()  # the tests that also run the CLI write their own files
    return py.extract(source, ws)


def values(launch) -> list[str | None]:
    return [t.value for t in launch.args]


def kw(launch) -> dict:
    return {k.name: k.value for k in launch.kwargs}


def fix(tmp_path: Path, capsys, files: dict[str, str], *args: str) -> dict[str, str]:
    """Write ``files``, run ``--fix``, return every file's new text (and check a second run changes nothing)."""
    write_tree(tmp_path, {k: src(v) for k, v in files.items()})
    run(tmp_path, capsys, "--fix", *args, ".")
    after = {k: (tmp_path / k).read_text() for k in files}
    run(tmp_path, capsys, "--fix", *args, ".")
    assert {k: (tmp_path / k).read_text() for k in files} == after
    return after


def col(text: str, line: int, needle: str) -> int:
    """1-based column of ``needle`` on 1-based ``line`` of ``src(text)``."""
    return src(text).splitlines()[line - 1].index(needle) + 1


# --- the three acceptance shapes ---------------------------------------------------------------------

C08 = """
    import subprocess

    MODEL = "deepseek-ai/DeepSeek-V3"


    def start_server(port: int) -> subprocess.Popen:
        cmd = [
            "python3", "-m", "sglang.launch_server",
            "--model-path", MODEL,
            "--attention-backend", "fa4",
            "--enable-deterministic-inference",
            "--port", str(port),
        ]
        return subprocess.Popen(cmd)
    """


def test_argv_list_bound_to_a_name(tmp_path):
    ex = extract(tmp_path, C08)
    [launch] = ex.launches
    assert launch.program == "python -m sglang.launch_server"
    assert launch.style == "cli"
    assert values(launch) == ["--model-path", DSV3, "--attention-backend", "fa4",
                              "--enable-deterministic-inference", "--port", None]
    assert launch.args[-1].splat is False  # str(port) is one unknown word
    model = launch.args[1].span_of()
    assert (model.line, model.text) == (3, DSV3)  # where the constant was written
    assert launch.span.line == 14 and launch.key == "start_server"
    assert ex.problems == [] and ex.comments == []


def test_argv_list_diagnostic_and_fix(tmp_path, capsys):
    write_tree(tmp_path, {"launch.py": src(C08)})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert code == 1
    [d] = diags
    assert (d["path"], d["line"], d["column"], d["end_column"], d["code"]) == ("launch.py", 10, 33, 36, "SGL101")
    assert d["fix"]["applicability"] == "safe" and d["fix"]["edits"][0]["content"] == "fa3"
    after = fix(tmp_path, capsys, {"launch.py": C08}, *H100)
    assert after["launch.py"] == src(C08).replace('"fa4"', '"fa3"')


C09 = """
    import sglang as sgl

    # lint-configs: target-gpu=H200


    def build_engine():
        return sgl.Engine(
            model_path="moonshotai/Kimi-K2-Instruct",
            tp_size=8,
            attention_backend="fa4",
            enable_deterministic_inference=True,
        )


    def build_reference_engine():
        return sgl.Engine(
            model_path="moonshotai/Kimi-K2-Instruct",
            attention_backend="fa4",
            enable_deterministic_inference=False,
        )
    """


def test_engine_kwargs(tmp_path, capsys):
    ex = extract(tmp_path, C09, "engine.py")
    first, second = ex.launches
    assert (first.style, first.program, first.key, second.key) == ("kwargs", "sglang.Engine", "build_engine",
                                                                     "build_reference_engine")
    assert kw(first) == {"model_path": "moonshotai/Kimi-K2-Instruct", "tp_size": 8, "attention_backend": "fa4",
                         "enable_deterministic_inference": True}
    backend = first.kwargs[2]
    assert backend.value_text.span_of().text == "fa4" and backend.name_span.text == "attention_backend"
    assert [c.text for c in ex.comments] == ["# lint-configs: target-gpu=H200"]
    write_tree(tmp_path, {"engine.py": src(C09)})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    assert codes_at(diags) == [("engine.py", 10, "SGL101")]
    assert diags[0]["column"] == 28
    after = fix(tmp_path, capsys, {"engine.py": C09})
    assert after["engine.py"] == src(C09).replace('attention_backend="fa4",\n        enable_deterministic_inference=True',
                                                  'attention_backend="fa3",\n        enable_deterministic_inference=True')


C10 = """
    from sglang.test.test_utils import DEFAULT_URL_FOR_TEST, popen_launch_server

    COMMON_SERVER_ARGS = ["--enable-deterministic-inference", "--tp", "4"]
    MODEL = "zai-org/GLM-4.7-Flash"


    class TestDeterministicFa4:
        @classmethod
        def setUpClass(cls):
            cls.process = popen_launch_server(
                MODEL,
                DEFAULT_URL_FOR_TEST,
                timeout=600,
                other_args=COMMON_SERVER_ARGS + ["--attention-backend", "fa4"],
            )
    """


def test_popen_launch_server(tmp_path, capsys):
    ex = extract(tmp_path, C10, "tests/test_det.py")
    [launch] = ex.launches
    assert launch.program == "sglang serve"
    assert values(launch) == ["--model-path", "zai-org/GLM-4.7-Flash", "--enable-deterministic-inference", "--tp",
                              "4", "--attention-backend", "fa4"]
    assert launch.args[0].span_of() is None  # made up, never edited
    assert launch.args[1].span_of().line == 4
    assert launch.key == "TestDeterministicFa4.setUpClass"
    write_tree(tmp_path, {"tests/test_det.py": src(C10)})
    code, diags = lint_json(tmp_path, capsys, "--target-gpu", "A100-80GB")
    assert code == 1
    assert codes_at(diags) == [("tests/test_det.py", 14, "SGL101")]
    after = fix(tmp_path, capsys, {"tests/test_det.py": C10}, "--target-gpu", "A100-80GB")
    assert after["tests/test_det.py"] == src(C10).replace('"fa4"]', '"triton"]')


def test_popen_launch_server_keywords_and_positional_other_args(tmp_path):
    ex = extract(tmp_path, """
        from sglang.test import test_utils as tu
        from sglang.test.test_utils import popen_launch_server

        popen_launch_server(model="Qwen/Qwen3-8B", base_url="http://x", timeout=60, other_args=("--tp", "2"))
        tu.popen_launch_server("m", "http://x", 60, None, ["--dp", "2"])
        popen_launch_server("m", "http://x", other_args=get_args())
        """)
    a, b, c = ex.launches
    assert values(a) == ["--model-path", "Qwen/Qwen3-8B", "--tp", "2"]
    assert values(b) == ["--model-path", "m", "--dp", "2"]
    assert values(c) == ["--model-path", "m", None] and c.args[2].splat


# --- imports and aliases ----------------------------------------------------------------------------

ARGV = '["python3", "-m", "sglang.launch_server", "--attention-backend", "fa4"]'


@pytest.mark.parametrize("header, call", [
    ("import subprocess", f"subprocess.Popen({ARGV})"),
    ("import subprocess as sp", f"sp.run({ARGV}, check=True)"),
    ("from subprocess import Popen as P", f"P({ARGV})"),
    ("from subprocess import call", f"call(args={ARGV})"),
    ("import subprocess\nrun = subprocess.check_call", f"run({ARGV})"),
    ("from subprocess import check_output", f"check_output(tuple({ARGV}))"),
    ("from subprocess import *", f"Popen({ARGV})"),
    ("import os", f'os.execvp("python3", {ARGV})'),
    ("import os, sys", f"os.execv(sys.executable, [sys.executable] + {ARGV}[1:])"),
    ("import os", 'os.execlp("python3", "python3", "-m", "sglang.launch_server", "--attention-backend", "fa4")'),
    ("import os", f'os.spawnvp(os.P_NOWAIT, "python3", {ARGV})'),
    ("import os", 'os.spawnl(os.P_WAIT, "/usr/bin/python3", "python3", "-m", "sglang.launch_server", '
                  '"--attention-backend", "fa4")'),
    ("import asyncio", f"asyncio.create_subprocess_exec(*{ARGV})"),
])
def test_argv_call_forms(tmp_path, header, call):
    ex = extract(tmp_path, header + "\n" + call + "\n")
    [launch] = ex.launches  # (``ARGV[1:]``: a constant slice of a list the file gives is known)
    assert launch.program == "python -m sglang.launch_server"
    assert values(launch) == ["--attention-backend", "fa4"]
    assert launch.args[1].span_of().text == "fa4"


def test_sys_executable_is_a_python(tmp_path):
    ex = extract(tmp_path, """
        import os, sys
        os.execv(sys.executable, [sys.executable, "-m", "sglang.launch_server", "--tp", "2"])
        """)
    assert values(ex.launches[0]) == ["--tp", "2"]


@pytest.mark.parametrize("code", [
    # an unrelated Engine class, and names that are not the sglang ones
    "class Engine:\n    pass\n\nEngine(attention_backend='fa4', enable_deterministic_inference=True)\n",
    "from mylib import Engine\nEngine(attention_backend='fa4')\n",
    "import sglang\nimport mylib as sgl\nsgl.Engine(attention_backend='fa4')\n",
    "def Popen(x):\n    pass\nPopen(['python3', '-m', 'sglang.launch_server'])\n",
    "import subprocess\nsubprocess.Popen(['python3', '-m', 'sglang.bench_serving', '--attention-backend', 'fa4'])\n",
    "import subprocess\nsubprocess.Popen('python3 -m sglang.launch_server --tp 2')\n",  # no shell: one program name
])
def test_only_the_real_callees_count(tmp_path, code):
    assert extract(tmp_path, code).launches == []


def test_mentions_only_no_finding(tmp_path, capsys):
    text = '''
        """Serving notes: run sglang.Engine(attention_backend="fa4", enable_deterministic_inference=True).

        # lint-configs: ignore[SGL101] this is inside a docstring, not a comment
        """
        # subprocess.Popen(["python3", "-m", "sglang.launch_server", "--attention-backend", "fa4"])
        HELP = "python -m sglang.launch_server --attention-backend fa4 --enable-deterministic-inference"


        class Engine:
            def __init__(self, **kwargs):
                self.kwargs = kwargs


        def build():
            return Engine(model_path="deepseek-ai/DeepSeek-V3", attention_backend="fa4",
                          enable_deterministic_inference=True)
        '''
    assert extract(tmp_path, text).launches == []
    write_tree(tmp_path, {"notes.py": src(text)})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert (code, diags) == (0, [])


# --- value forms -------------------------------------------------------------------------------------


def test_straight_line_list_building(tmp_path):
    ex = extract(tmp_path, """
        import subprocess

        BASE = ("python3", "-m", "sglang.launch_server")
        FLAGS = ["--enable-deterministic-inference"]


        def main(port):
            cmd = list(BASE) + ["--model-path", "deepseek-ai/DeepSeek-V3"]
            cmd += ["--attention-backend"]
            cmd.append("fa4")
            cmd.extend(FLAGS)
            cmd.insert(3, "--trust-remote-code")
            cmd = cmd + ["--port", str(port)]
            subprocess.run(cmd)
        """)
    [launch] = ex.launches
    assert values(launch) == ["--trust-remote-code", "--model-path", DSV3, "--attention-backend", "fa4",
                              "--enable-deterministic-inference", "--port", None]
    assert launch.args[4].span_of().line == 10


def test_values_that_differ_by_branch_are_kept_per_path_by_loop_unknown(tmp_path):
    ex = extract(tmp_path, """
        import subprocess

        def main(debug, backends):
            cmd = ["python3", "-m", "sglang.launch_server"]
            extra = []
            backend = "fa4"
            if debug:
                backend = "triton"
            for b in backends:
                extra.append(b)
            subprocess.run(cmd + extra + ["--attention-backend", backend])
            subprocess.run(extra + cmd)  # the program itself is unknown: not a launch
        """)
    # the branch on ``debug`` (issue 35): one launch per path, each with its condition
    on, off = ex.launches
    assert values(on) == [None, "--attention-backend", "triton"]
    assert values(off) == [None, "--attention-backend", "fa4"]
    assert (on.path, off.path) == (("`debug` is true",), ("`debug` is false",))
    assert on.args[0].splat and on.span == off.span


def test_call_inside_a_branch_sees_the_branch(tmp_path):
    ex = extract(tmp_path, """
        import subprocess

        def main(debug):
            cmd = ["python3", "-m", "sglang.launch_server"]
            if debug:
                cmd.append("--attention-backend")
                cmd.append("triton")
                subprocess.run(cmd)
            else:
                subprocess.run(cmd + ["--attention-backend", "fa4"])
        """)
    a, b = ex.launches
    assert values(a) == ["--attention-backend", "triton"]
    assert values(b) == ["--attention-backend", "fa4"]
    assert (a.key, b.key) == ("main", "main#1")


def test_later_module_binding_is_seen_from_a_function(tmp_path):
    ex = extract(tmp_path, """
        import subprocess

        def start():
            subprocess.Popen(["python3", "-m", "sglang.launch_server", "--tp-size", str(GPU_COUNT), "--port", PORT])

        GPU_COUNT = 8
        PORT = 30000
        """)
    # an int in an argv list is not a str: subprocess would refuse it, so it is no known word
    assert values(ex.launches[0]) == ["--tp-size", "8", "--port", None]
    assert ex.launches[0].args[1].span_of().line == 6


def test_class_attributes(tmp_path):
    ex = extract(tmp_path, """
        import subprocess


        class Base:
            model = "deepseek-ai/DeepSeek-V3"
            backend = "fa4"
            extra = ["--enable-deterministic-inference"]

            def start(self):
                return subprocess.Popen(["sglang", "serve", self.model, "--attention-backend", self.backend]
                                        + Base.extra)

            @classmethod
            def start_cls(cls):
                return subprocess.Popen(["sglang", "serve", cls.model, "--attention-backend", cls.backend])


        class Triton(Base):
            backend = "triton"
        """)
    # each class that runs a method is its own launch, with its own class attributes
    a, a2, b, b2 = ex.launches
    assert a.program == "sglang serve"
    assert [x.key for x in ex.launches] == ["Base.start", "Triton.start", "Base.start_cls", "Triton.start_cls"]
    assert values(a) == [DSV3, "--attention-backend", "fa4", "--enable-deterministic-inference"]
    assert values(a2) == [DSV3, "--attention-backend", "triton", "--enable-deterministic-inference"]
    assert values(b) == [DSV3, "--attention-backend", "fa4"]
    assert values(b2) == [DSV3, "--attention-backend", "triton"]
    assert a2.args[2].span_of().line == 19  # where Triton writes it


def test_inherited_class_attribute(tmp_path):
    ex = extract(tmp_path, """
        import subprocess

        class Base:
            backend = "fa4"

        class Child(Base):
            def start(self):
                subprocess.Popen(["sglang", "serve", "m", "--attention-backend", self.backend])
        """)
    assert values(ex.launches[0]) == ["m", "--attention-backend", "fa4"]


def test_module_list_mutated_in_place_by_a_function_is_not_trusted(tmp_path):
    # sglang test/srt/test_deepseek_v3_deterministic.py: args = COMMON; args.extend([...]) in each class
    ex = extract(tmp_path, """
        from sglang.test.test_utils import popen_launch_server

        COMMON = ["--enable-deterministic-inference"]

        class A:
            def args(self):
                args = COMMON
                args.extend(["--attention-backend", "fa3"])
                return args

        def launch():
            popen_launch_server("m", "u", other_args=COMMON + ["--attention-backend", "triton"])
        """)
    [launch] = ex.launches
    assert values(launch) == ["--model-path", "m", None, "--attention-backend", "triton"]
    assert launch.args[2].splat


def test_strings_implicit_concatenation_and_fstrings(tmp_path):
    ex = extract(tmp_path, """
        import subprocess

        BACKEND = "fa4"
        TP = 8

        def main(port):
            subprocess.run(
                "python3 -m sglang.launch_server "
                f"--attention-backend {BACKEND} "
                f"--tp {TP} --port {port} "
                '--model-path deepseek-ai/DeepSeek-V3',
                shell=True,
            )
        """)
    [launch] = ex.launches
    assert values(launch) == ["--attention-backend", "fa4", "--tp", "8", "--port", None, "--model-path", DSV3]
    assert launch.args[1].span_of().line == 3  # substituted from the constant
    assert launch.args[3].span_of().text == "8"
    assert launch.args[5].splat is False


def test_spans_are_characters_on_lines_python_counts(tmp_path):
    # ast's columns are UTF-8 bytes, and a lone CR ends a line for Python: spans stay character-exact
    text = ('import subprocess\rM = "é/ü"\r\nsubprocess.run(["python3", "-m", "sglang.launch_server", '
            '"--model-path", M, "--é", f"--tp={  M!r}", f"--x={M:>4}{{y}}", f"{M=}", "--a"  # c\n  "b", '
            'f"--dp={M}"])\n')
    ex = py.extract(SourceFile(tmp_path / "x.py", "x.py", text), None)
    [launch] = ex.launches
    assert values(launch) == ["--model-path", "é/ü", "--é", None, None, None, "--ab", "--dp=é/ü"]
    spans = [t.span_of() for t in launch.args]
    assert [s.text if s else None for s in spans] == ["--model-path", "é/ü", "--é", None, None, None, None, None]
    assert spans[1].start == text.index('"é/ü"') + 1
    assert spans[2].start == text.index('"--é"') + 1
    # a field that is not str(value) is unknown, located at its opening brace
    assert [launch.args[k].text.origins[i][1] for k, i in ((3, 5), (4, 4), (5, 0))] == [
        text.index("{  M!r}"), text.index("{M:>4}"), text.index("{M=}")]
    assert launch.args[4].text.text.endswith("{y}")  # doubled braces are one brace
    assert [launch.args[7].text.span_of(k, k + 1).text for k in (0, 5)] == ["-", "é"]  # both literals' origins


def test_keyword_and_handler_names_are_located(tmp_path):
    ex = extract(tmp_path, """
        import sglang, subprocess
        e = sglang.Engine(model_path="m",  tp_size =2)
        try:
            pass
        except (OSError) as  err:
            subprocess.run(["python3", "-m", "sglang.launch_server", "--model-path", err])
        """)
    engine, argv = ex.launches
    assert [(k.name, k.name_span.text, k.where.text, k.value_span.text) for k in engine.kwargs] == [
        ("model_path", "model_path", 'model_path="m"', '"m"'), ("tp_size", "tp_size", "tp_size =2", "2")]
    assert argv.args[1].value is None and argv.args[1].text.where.text == "err"


def test_escapes_are_decoded_and_never_exact(tmp_path):
    source = SourceFile(tmp_path / "x.py", "x.py", 'a = "f\\x614 b\\\\c\\nd"\n')
    m = py.decode_literal(source, source.text[5:-2], 5, raw=False)
    assert m.text == "fa4 b\\c\nd"
    assert m.span_of(0, 3) is None  # \x61 is not written as "a"
    assert m.span_of(4, 5).text == "b"
    assert m.span_of(5, 6) is None  # the backslash of "\\"
    raw = py.decode_literal(source, "a\\nb", 0, raw=True)
    assert raw.text == "a\\nb"


def test_an_escaped_value_is_reported_but_not_fixed(tmp_path, capsys):
    text = 'import subprocess\nsubprocess.run(["python3", "-m", "sglang.launch_server", "--model-path", ' \
           '"deepseek-ai/DeepSeek-V3", "--attention-backend", "f\\x614", "--enable-deterministic-inference"])\n'
    write_tree(tmp_path, {"x.py": text})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert code == 1
    assert [(d["code"], d["fix"]) for d in diags] == [("SGL101", None)]


def test_dict_spread_into_server_args(tmp_path, capsys):
    text = """
        from sglang.srt.server_args import ServerArgs

        BASE = {
            "model_path": "deepseek-ai/DeepSeek-V3",
            "attention_backend": "flashinfer",
            "enable_deterministic_inference": "false",
        }


        def make():
            return ServerArgs(**BASE, attention_backend='fa4')
        """
    ex = extract(tmp_path, text)
    [launch] = ex.launches
    assert launch.program == "ServerArgs"
    assert kw(launch) == {"model_path": DSV3, "enable_deterministic_inference": "false", "attention_backend": "fa4"}
    assert launch.kwargs[1].value_text.span_of().line == 6  # the "false" in the dict literal
    write_tree(tmp_path, {"sa.py": src(text)})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert code == 1
    # the string "false" is truthy: SGLang turns deterministic inference on
    assert codes_at(diags) == [("sa.py", 11, "SGL101")]
    after = fix(tmp_path, capsys, {"sa.py": text}, *H100)
    assert after["sa.py"] == src(text).replace("attention_backend='fa4'", "attention_backend='fa3'")


def test_server_args_positional_model_dict_call_runtime_and_server_args_engine(tmp_path):
    ex = extract(tmp_path, """
        import sglang as sgl
        from sglang import Engine
        from sglang.srt.server_args import ServerArgs

        OPTS = dict(attention_backend="fa4", tp_size=2)
        OPTS["enable_deterministic_inference"] = True

        ServerArgs("deepseek-ai/DeepSeek-V3", **OPTS)
        sgl.Runtime("Qwen/Qwen3-8B", attention_backend="triton", mem_fraction_static=0.8)
        Engine(server_args=ServerArgs(model_path="m", rl_on_policy_target=None))
        sgl.Engine(**unknown_kwargs, attention_backend=pick())
        """)
    a, b, c, d = ex.launches
    assert (a.program, b.program, c.program, d.program) == ("ServerArgs", "sgl.Runtime", "ServerArgs", "sglang.Engine")
    assert kw(a) == {"model_path": DSV3, "attention_backend": "fa4", "tp_size": 2,
                     "enable_deterministic_inference": True}
    assert kw(b) == {"model_path": "Qwen/Qwen3-8B", "attention_backend": "triton", "mem_fraction_static": 0.8}
    assert kw(c) == {"model_path": "m", "rl_on_policy_target": None}
    assert kw(d) == {"attention_backend": UNKNOWN}


@pytest.mark.parametrize("value, found", [("True", True), ('"false"', True), ("1", True), ('""', False),
                                          ("0", False), ("None", False), ("flag()", "unknown")])
def test_kwargs_booleans_follow_python_truthiness(tmp_path, capsys, value, found):
    write_tree(tmp_path, {"e.py": (
        "import sglang\n# lint-configs: target-gpu=H100\n"
        "sglang.Engine(model_path='deepseek-ai/DeepSeek-V3', attention_backend='fa4',\n"
        f"              enable_deterministic_inference={value})\n")})
    code, diags = lint_json(tmp_path, capsys)
    expected = {True: ["SGL101"], False: [], "unknown": []}[found]
    assert [d["code"] for d in diags] == expected
    assert code == (1 if expected else 0)


# --- command strings ---------------------------------------------------------------------------------

SHLEX = """
    import shlex
    import subprocess

    MODEL = "deepseek-ai/DeepSeek-V3"
    CMD = f"python3 -m sglang.launch_server --model-path {MODEL} --attention-backend 'fa4' --enable-deterministic-inference"


    def main():
        return subprocess.Popen(shlex.split(CMD))
    """


def test_shlex_split_command_string(tmp_path, capsys):
    ex = extract(tmp_path, SHLEX)
    [launch] = ex.launches
    assert values(launch) == ["--model-path", DSV3, "--attention-backend", "fa4", "--enable-deterministic-inference"]
    span = launch.args[3].span_of()
    assert (span.line, span.text) == (5, "fa4")
    write_tree(tmp_path, {"s.py": src(SHLEX)})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert code == 1
    assert [(d["line"], d["column"]) for d in diags] == [(5, col(SHLEX, 5, "fa4'"))]
    after = fix(tmp_path, capsys, {"s.py": SHLEX}, *H100)
    assert after["s.py"] == src(SHLEX).replace("'fa4'", "'fa3'")


@pytest.mark.parametrize("call", [
    'os.system("cd /srv && CUDA_VISIBLE_DEVICES=0 nohup python3 -m sglang.launch_server {A} > log 2>&1 &")',
    'os.popen("exec python3 -m sglang.launch_server {A}")',
    'subprocess.run("python3 -m sglang.launch_server {A}", shell=True)',
    'subprocess.Popen(["bash", "-c", "python3 -m sglang.launch_server {A}"])',
    'subprocess.check_call(["python3 -m sglang.launch_server {A}"], shell=True)',
    'subprocess.Popen(" ".join(["python3", "-m", "sglang.launch_server", "{A}"]), shell=True)',
    'subprocess.run("python3 -m sglang.launch_server {A}".split())',
])
def test_shell_command_strings(tmp_path, call):
    a = "--tp 2 --attention-backend fa4"
    ex = extract(tmp_path, "import os, subprocess\n" + call.replace("{A}", a) + "\n")
    [launch] = ex.launches
    assert values(launch)[:4] == ["--tp", "2", "--attention-backend", "fa4"]
    assert launch.args[3].span_of().text == "fa4"


def test_join_of_an_unknown_list_is_any_number_of_words(tmp_path):
    ex = extract(tmp_path, """
        import subprocess
        def f(extra):
            cmd = ["python3", "-m", "sglang.launch_server", "--tp", "2"] + extra
            subprocess.Popen(" ".join(cmd), shell=True)
        """)
    [launch] = ex.launches
    assert values(launch) == ["--tp", "2", None]
    assert launch.args[2].splat


LSC = '''
    from sglang.utils import launch_server_cmd, wait_for_server

    server_process, port = launch_server_cmd(
        """
    SGLANG_LOG=1 CUDA_VISIBLE_DEVICES=0 python3 -m sglang.launch_server \\\\
        --model-path deepseek-ai/DeepSeek-V3 \\\\
        --attention-backend fa4 --enable-deterministic-inference
    """
    )
    wait_for_server(f"http://localhost:{port}")
    '''


def test_launch_server_cmd_triple_quoted(tmp_path, capsys):
    assert "\\\\\n" in src(LSC)  # the file holds backslash-backslash-newline: the value backslash-newline
    ex = extract(tmp_path, LSC)
    [launch] = ex.launches
    assert launch.program == "python -m sglang.launch_server"
    assert values(launch) == ["--model-path", DSV3, "--attention-backend", "fa4", "--enable-deterministic-inference"]
    assert launch.span.line == 3
    write_tree(tmp_path, {"nb.py": src(LSC)})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert code == 1
    assert codes_at(diags) == [("nb.py", 7, "SGL101")]
    after = fix(tmp_path, capsys, {"nb.py": LSC}, *H100)
    assert after["nb.py"] == src(LSC).replace("backend fa4", "backend fa3")


def test_launch_server_cmd_splits_on_whitespace_only(tmp_path):
    # no shell quoting: the quotes stay in the words, as SGLang's execute_shell_command leaves them
    ex = extract(tmp_path, """
        from sglang.utils import launch_server_cmd
        launch_server_cmd("python -m sglang.launch_server --model-path 'my model' --tp 2")
        """)
    assert values(ex.launches[0]) == ["--model-path", "'my", "model'", "--tp", "2"]


def test_split_whitespace_backslashes():
    m = MStr.plain("a \\\nb\\c  d")
    assert [w.text for w in py.split_whitespace(m, backslash=True)] == ["a", "b", "c", "d"]
    assert [w.text for w in py.split_whitespace(m)] == ["a", "\\", "b\\c", "d"]


def test_unbalanced_quote_in_a_shell_string_is_reported(tmp_path):
    # The string goes through the shell parser, which keeps what it can read and reports the rest.
    ex = extract(tmp_path, "import os\nos.system('python3 -m sglang.launch_server --served-model-name \"x')\n")
    [problem] = ex.problems
    assert problem.message.startswith("shell syntax error") and problem.span.line == 2


# --- Modal -------------------------------------------------------------------------------------------

MODAL = """
    import subprocess

    import modal

    GPU_TYPE, N_GPUS = "H100!", 2
    GPU = f"{GPU_TYPE}:{N_GPUS}"
    MODEL = "deepseek-ai/DeepSeek-V3"
    app = modal.App("sglang")


    def _start_server():
        cmd = ["python3", "-m", "sglang.launch_server", "--model-path", MODEL,
               "--attention-backend", "fa4", "--enable-deterministic-inference"]
        subprocess.Popen(" ".join(cmd), shell=True)


    @app.function(gpu=GPU, timeout=600)
    @modal.web_server(port=30000)
    def serve():
        _start_server()


    @app.cls(gpu=["B200+", "H100:8"])
    class Model:
        @modal.enter()
        def start(self):
            self.proc = subprocess.Popen(["sglang", "serve", MODEL, "--attention-backend", "fa4",
                                          "--enable-deterministic-inference"])


    @app.server(gpu="B200")
    def ok():
        subprocess.Popen(["sglang", "serve", MODEL, "--attention-backend", "fa4", "--enable-deterministic-inference"])
    """


def test_modal_gpu_declarations(tmp_path, capsys):
    ex = extract(tmp_path, MODAL)
    helper, cls, ok = ex.launches
    assert [(d.name, d.span.line, d.span.text, d.how) for d in helper.gpu_decls] == [
        ("H100!", 5, "H100!", "Modal gpu= on serve")]
    assert [(d.name, d.span.text) for d in cls.gpu_decls] == [("B200+", "B200+"), ("H100", "H100")]
    assert [d.name for d in ok.gpu_decls] == ["B200"]
    write_tree(tmp_path, {"app.py": src(MODAL)})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    # H100! (the helper called by serve) and the H100 fallback of Model fail; B200 alone passes
    assert [c for c in codes_at(diags) if c[2] != "SGL403"] == [("app.py", 13, "SGL101"), ("app.py", 27, "SGL101")]
    assert [d["fix"]["applicability"] for d in diags if d["code"] == "SGL101"] == ["safe", "unsafe"]
    assert not any(c[2] == "SGL403" for c in codes_at(diags))  # in preview: off by default


def test_modal_unknown_gpu_name_and_legacy_object(tmp_path, capsys):
    text = """
        import subprocess
        import modal

        stub = modal.Stub()

        @stub.function(gpu="H10")
        def a():
            subprocess.Popen(["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4",
                              "--enable-deterministic-inference"])

        @stub.function(gpu=modal.gpu.A100(count=2))
        def b():
            subprocess.Popen(["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4",
                              "--enable-deterministic-inference"])
        """
    ex = extract(tmp_path, text)
    assert [d.name for d in ex.launches[1].gpu_decls] == ["A100"]
    write_tree(tmp_path, {"app.py": src(text)})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    assert codes_at(diags) == [("app.py", 6, "SGL003"), ("app.py", 8, "SGL901"), ("app.py", 13, "SGL101")]
    assert diags[0]["column"] == col(text, 6, "H10")


def test_not_a_modal_app_is_no_declaration(tmp_path):
    ex = extract(tmp_path, """
        import subprocess
        app = make_app()

        @app.function(gpu="H100")
        def a():
            subprocess.Popen(["sglang", "serve", "m"])
        """)
    assert ex.launches[0].gpu_decls == []


# --- suppressions, syntax errors, comments -----------------------------------------------------------


def test_suppression_on_the_launch_line(tmp_path, capsys):
    text = src(C08).replace("    return subprocess.Popen(cmd)",
                            "    # lint-configs: ignore[SGL101] patched flash_attn on this host\n"
                            "    return subprocess.Popen(cmd)")
    assert "ignore[SGL101]" in text
    write_tree(tmp_path, {"launch.py": text})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert (code, diags) == (0, [])


def test_syntax_error_is_sgl001_at_the_parser_position(tmp_path, capsys):
    write_tree(tmp_path, {"bad.py": "import sglang as sgl\n\ndef f(:\n    sgl.Engine(attention_backend='fa4')\n",
                          "good.py": src(C08)})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert code == 1
    assert codes_at(diags) == [("bad.py", 3, "SGL001"), ("good.py", 10, "SGL101")]
    bad = diags[0]
    assert bad["column"] == 7 and bad["message"] == "Python syntax error: invalid syntax"


def test_syntax_error_in_a_file_that_does_not_mention_sglang_is_not_parsed(tmp_path, capsys):
    write_tree(tmp_path, {"other.py": "def f(:\n"})
    assert lint_json(tmp_path, capsys) == (0, [])


def test_comments_are_listed_exactly(tmp_path):
    ex = extract(tmp_path, 'x = "# not a comment"  # a comment\n# another\nsubprocess.run(x)\n')
    assert [(c.line, c.text) for c in ex.comments] == [(1, "# a comment"), (2, "# another")]


def test_crlf_and_non_ascii_spans(tmp_path, capsys):
    text = ('import subprocess\r\n# lint-configs: target-gpu=H100\r\nNAME = "modèle"\r\n'
            'subprocess.run(["python3", "-m", "sglang.launch_server", "--served-model-name", NAME, '
            '"--model-path", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4", '
            '"--enable-deterministic-inference"])\r\n')
    write_tree(tmp_path, {"x.py": text})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    [d] = diags
    assert (d["line"], d["column"]) == (4, text.split("\r\n")[3].index("fa4") + 1)
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "x.py").read_bytes() == text.replace('"fa4"', '"fa3"').encode()


# --- the Python analysis stays out of YAML-only runs ------------------------------------------------------


def test_the_python_analysis_is_not_imported_for_a_yaml_tree(tmp_path):
    write_tree(tmp_path, {
        "docker-compose.yml": "services:\n  s:\n    command: python3 -m sglang.launch_server --model-path "
                              "deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference\n",
        "tools/helper.py": "print('no launch here')\n",
    })
    res = subprocess.run([sys.executable, "-X", "importtime", "-m", "linter", str(tmp_path)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 1, res.stderr[-500:]
    assert "linter.extract.yamlload" in res.stderr  # the YAML reader was needed (and the import log works)
    assert "linter.extract.python.analysis" not in res.stderr


# --- more scopes and statement forms -----------------------------------------------------------------


def test_imports_inside_functions_try_blocks_with_blocks_and_lambdas(tmp_path):
    ex = extract(tmp_path, """
        import threading

        try:
            import sglang as sgl
        except ImportError:  # pragma: no cover
            sgl = None


        def offline():
            from sglang.srt.server_args import ServerArgs as SA
            return SA(model_path="m", attention_backend="fa4")


        def served(log_path):
            import subprocess
            cmd = ["sglang", "serve", "m"]
            with open(log_path, "w") as log:
                cmd.append("--tp=2")
                subprocess.Popen(cmd, stdout=log)
            threading.Thread(target=lambda: subprocess.run(cmd + ["--dp", "2"])).start()


        engine = sgl.Engine(model_path="m", attention_backend="triton")
        other = sgl.Engine(model_path="m2")
        """)
    a, b, c, d, e = ex.launches
    assert (a.program, kw(a)) == ("ServerArgs", {"model_path": "m", "attention_backend": "fa4"})
    assert values(b) == ["m", "--tp=2"]
    assert values(c) == ["m", "--tp=2", "--dp", "2"]
    assert kw(d) == {"model_path": "m", "attention_backend": "triton"} and kw(e) == {"model_path": "m2"}
    assert [x.key for x in ex.launches] == ["offline", "served", "served#1", "<module>", "<module>#1"]


def test_instance_attributes_are_unknown(tmp_path):
    ex = extract(tmp_path, """
        import subprocess

        class Server:
            backend = "fa4"

            def __init__(self, backend):
                self.backend = backend

            def start(self):
                subprocess.Popen(["sglang", "serve", "m", "--attention-backend", self.backend])
        """)
    assert values(ex.launches[0]) == ["m", "--attention-backend", None]


SELF_CMD = 'cmd = ["python", "-m", "sglang.launch_server"{}]'
SELF_CMD_DET = SELF_CMD.format(f', "--model-path", "{DSV3}", "--attention-backend", "fa4"')


@pytest.mark.parametrize("body, expected", [
    # must fix: ``self.cmd`` read in ``__init__`` before it binds it is the class attribute (it was
    # read as the end of that same ``__init__``: a loop, reported as SGL001 and the launch lost)
    (f"class S:\n    {SELF_CMD.format('')}\n    def __init__(self):\n"
     "        self.cmd = self.cmd + ['--tp', '2']\n", [("SGL205", "error", 7)]),
    (f"class S:\n    {SELF_CMD.format('')}\n    def __init__(self):\n"
     "        self.cmd += ['--tp', '2']\n", [("SGL205", "error", 7)]),
    (f"class S:\n    {SELF_CMD.format('')}\n    def __init__(self):\n"
     "        self.cmd.append('--tp')\n", [("SGL205", "error", 5), ("SGL205", "error", 7)]),
    # the words the class attribute gives and the ones __init__ adds are both checked
    (f"class S:\n    {SELF_CMD_DET}\n    def __init__(self):\n"
     "        self.cmd = self.cmd + ['--enable-deterministic-inference']\n", [("SGL101", "error", 3)]),
    # an inherited __init__ reads the class attribute of the class it runs for
    (f"class S:\n    {SELF_CMD.format('')}\n    def __init__(self):\n"
     "        self.cmd = self.cmd + ['--enable-deterministic-inference']\n"
     "    def run(self):\n        return subprocess.Popen(self.cmd)\n"
     f"class T(S):\n    {SELF_CMD_DET}\n",
     [("SGL205", "error", 7), ("SGL901", "warning", 5), ("SGL101", "error", 9)]),
    # must not change: set in __init__ before it is read there
    ("class S:\n    cmd = None\n    def __init__(self):\n"
     f"        {SELF_CMD_DET.replace('cmd', 'self.cmd', 1)}\n"
     "        self.cmd = self.cmd + ['--enable-deterministic-inference']\n", [("SGL101", "error", 5)]),
    ("class S:\n    def __init__(self):\n"
     f"        {SELF_CMD.format('').replace('cmd', 'self.cmd', 1)}\n        pass\n", [("SGL205", "error", 7)]),
    # a base's __init__ (run by super()) binds it too: not followed, so unknown — no finding
    (f"class B:\n    def __init__(self):\n        self.{SELF_CMD_DET}\n"
     f"class S(B):\n    {SELF_CMD.format('')}\n    def __init__(self):\n"
     "        super().__init__(); self.cmd = self.cmd + ['--enable-deterministic-inference']\n", []),
])
def test_self_attribute_read_in_init_before_it_is_bound(tmp_path, capsys, body, expected):
    run_method = "" if "def run" in body else "    def run(self):\n        return subprocess.Popen(self.cmd)\n"
    write_tree(tmp_path, {"serve.py": "import subprocess\n" + body + run_method})
    code, diags = lint_json(tmp_path, capsys, *H100)
    assert sorted((d["code"], d["severity"], d["line"]) for d in diags) == sorted(expected)


def test_fstring_parts(tmp_path, capsys):
    text = """
        import subprocess
        # lint-configs: target-gpu=H100
        MODEL = "deepseek-ai/DeepSeek-V3"
        TP = 8

        def go(port):
            subprocess.run(f"python3 -m sglang.launch_server --model-path {MODEL} --tp {TP:d} --port={port} "
                           f"--attention-backend fa4 --enable-deterministic-inference", shell=True)
        """
    ex = extract(tmp_path, text)
    assert values(ex.launches[0]) == ["--model-path", DSV3, "--tp", None, None, "--attention-backend", "fa4",
                                      "--enable-deterministic-inference"]
    assert ex.launches[0].args[4].raw == "--port=" + UNKNOWN_CHAR
    after = fix(tmp_path, capsys, {"f.py": text})
    assert after["f.py"] == src(text).replace("backend fa4", "backend fa3")


def test_dict_built_in_straight_line_code(tmp_path):
    ex = extract(tmp_path, """
        import sglang

        def make(extra):
            kwargs = {"model_path": "m"}
            kwargs["attention_backend"] = "fa4"
            kwargs.update(tp_size=2)
            kwargs |= {"enable_deterministic_inference": True}
            sglang.Engine(**kwargs)
            kwargs.update(extra)
            sglang.Engine(**kwargs)
        """)
    a, b = ex.launches
    assert kw(a) == {"model_path": "m", "attention_backend": "fa4", "tp_size": 2, "enable_deterministic_inference": True}
    # update() with an unknown dict may replace any key: every value is unknown now
    assert kw(b) == {"model_path": UNKNOWN, "attention_backend": UNKNOWN, "tp_size": UNKNOWN,
                     "enable_deterministic_inference": UNKNOWN}


def test_list_passed_to_a_local_helper_is_no_longer_known(tmp_path):
    ex = extract(tmp_path, """
        import subprocess, logging

        def add_flags(cmd):
            cmd.append("--attention-backend")
            cmd.append("fa4")

        def go():
            cmd = ["sglang", "serve", "m"]
            logging.info("starting %s", cmd)
            print(cmd)
            subprocess.run(list(cmd))
            add_flags(cmd)
            subprocess.run(cmd)
        """)
    [launch] = ex.launches  # the second argv is unknown as a whole: no program, no launch
    assert values(launch) == ["m"]


def test_options_can_be_added_inside_a_split_string_but_not_to_a_list_item(tmp_path, capsys):
    # B200 with no backend: SGLang picks trtllm_mla, which is not deterministic (SGL103); the fix adds one
    text = """
        import shlex, subprocess
        # lint-configs: target-gpu=B200
        subprocess.Popen(shlex.split("python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference"))
        subprocess.Popen("sglang serve deepseek-ai/DeepSeek-V3 --enable-deterministic-inference --tp 8".split())
        subprocess.Popen(["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--enable-deterministic-inference"])
        """
    write_tree(tmp_path, {"x.py": src(text)})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    assert [(d["line"], d["code"], d["fix"] and d["fix"]["applicability"]) for d in diags] == [
        (3, "SGL103", "unsafe"), (4, "SGL103", "unsafe"), (5, "SGL103", None)]
    after = fix(tmp_path, capsys, {"x.py": text}, "--unsafe-fixes")
    assert after["x.py"] == src(text).replace(
        'inference"))', 'inference --attention-backend triton"))').replace(
        "inference --tp 8", "inference --attention-backend triton --tp 8")


def test_aliases_see_in_place_changes(tmp_path):
    ex = extract(tmp_path, """
        import subprocess

        def go():
            cmd = ["sglang", "serve", "m"]
            alias = cmd
            alias.append("--tp=2")
            subprocess.run(cmd)
            alias.pop()
            subprocess.run(cmd)
            other = ("sglang", "serve", "m")
            same = other
            same += ("--dp=2",)  # a tuple is rebound, not changed
            subprocess.run(other)
            subprocess.run(same)
        """)
    assert [values(x) for x in ex.launches] == [["m", "--tp=2"], ["m"], ["m"], ["m", "--dp=2"]]


def test_an_unknown_dict_merged_later_may_replace_any_key(tmp_path):
    ex = extract(tmp_path, """
        import sglang

        def make(overrides):
            sglang.Engine(**{"attention_backend": "fa4", **overrides, "tp_size": 2})
            sglang.Engine(**{**overrides, "attention_backend": "fa4"})
            sglang.Engine(**overrides, attention_backend="fa4")  # a repeated keyword is a TypeError
        """)
    assert [kw(x) for x in ex.launches] == [{"attention_backend": UNKNOWN, "tp_size": 2},
                                           {"attention_backend": "fa4"}, {"attention_backend": "fa4"}]


# --- argv lists and kwargs dicts changed inside compound statements ----------------------------------

BRANCH = """
    import os, subprocess
    # lint-configs: target-gpu=H100
    cmd = ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
           "--enable-deterministic-inference", "--attention-backend", "fa4"]
    if os.environ.get("DEBUG"):
        cmd.append("--log-level=debug")
    subprocess.Popen(cmd)
    """
KNOWN = ["--model-path", DSV3, "--enable-deterministic-inference", "--attention-backend", "fa4"]


def test_list_grown_in_a_branch_is_a_launch_per_path_and_a_finding_of_both_is_an_error(tmp_path, capsys):
    on, off = extract(tmp_path, BRANCH).launches
    assert values(on) == KNOWN + ["--log-level=debug"] and values(off) == KNOWN
    assert on.path == ('`os.environ.get("DEBUG")` is true',)
    assert on.args[4].span_of().line == 4 and off.args[4].span_of() == on.args[4].span_of()
    write_tree(tmp_path, {"b.py": src(BRANCH)})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    [d] = diags
    assert (d["line"], d["column"], d["end_column"], d["code"]) == (4, col(BRANCH, 4, "fa4"), col(BRANCH, 4, "fa4") + 3,
                                                                    "SGL101")
    after = fix(tmp_path, capsys, {"b.py": BRANCH})
    assert after["b.py"] == src(BRANCH).replace('"fa4"', '"fa3"')


@pytest.mark.parametrize("change, tail", [
    # a branch on a test the linter cannot decide: one launch per path (issue 35)
    ('if os.environ.get("DEBUG"):\n    cmd.append("--log-level=debug")', [["--log-level=debug"], []]),
    ('if DEBUG:\n    cmd += ["--log-level", "debug"]\nelif TRACE:\n    cmd.extend(["--log-level", "trace"])',
     [["--log-level", "debug"], ["--log-level", "trace"], []]),
    # a loop may add words: an unknown tail of any length
    ('for extra in EXTRA:\n    cmd += ["--served-model-name", extra]', "splat"),
    ('for i in range(3):\n    if i:\n        cmd.insert(5, "--x")', "splat"),
    ('while retries:\n    cmd.extend(["--log-level", "debug"])\n    retries -= 1\nelse:\n    cmd.append("--y")', "splat"),
    # a try: the body completing and each handler are paths (issue 35)
    ('try:\n    import flashinfer\n    cmd.append("--enable-flashinfer")\nexcept ImportError:\n    pass',
     [["--enable-flashinfer"], []]),
    # no handler: only a body that ran to its end reaches the launch
    ('try:\n    cmd.append(os.environ["EXTRA"])\nfinally:\n    print("x")', "word"),
    ('with contextlib.suppress(KeyError):\n    cmd.append(os.environ["EXTRA"])', "splat"),
    ('match MODE:\n    case "debug":\n        cmd.append("--log-level=debug")\n    case _:\n        pass',
     [["--log-level=debug"], []]),
    ('async def f():\n    pass\nwith open("extra.txt") as fh:\n    cmd.append(fh.read())', "word"),
    # both branches add one word: a launch with each
    ('if DEBUG:\n    cmd.append("--x")\nelse:\n    cmd.append("--y")', [["--x"], ["--y"]]),
    # a branch that raises or returns does not reach the launch
    ('if not DEBUG:\n    raise SystemExit("no")\ncmd.append("--z")', "--z"),
    # nothing added on any path
    ('if DEBUG:\n    print(cmd)\nfor x in EXTRA:\n    print(x)', None),
])
def test_list_changed_in_compound_statements(tmp_path, change, tail):
    text = ("import contextlib, os, subprocess\n"
            'cmd = ["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4"]\n'
            + change + "\nsubprocess.Popen(cmd)\n")
    launches = py.extract(SourceFile(tmp_path / "c.py", "c.py", text), Workspace(tmp_path)).launches
    if isinstance(tail, list):
        assert [values(x)[3:] for x in launches] == tail
        assert all(x.path for x in launches) and all(values(x)[:3] == [DSV3, "--attention-backend", "fa4"]
                                                     for x in launches)
        return
    [launch] = launches
    assert values(launch)[:3] == [DSV3, "--attention-backend", "fa4"]
    assert launch.args[2].span_of().line == 2
    rest = launch.args[3:]
    if tail is None:
        assert rest == []
    elif tail == "splat":
        assert len(rest) == 1 and rest[0].splat, rest
    elif tail == "word":
        assert len(rest) == 1 and rest[0].value is None and not rest[0].splat, rest
    else:
        assert [t.value for t in rest] == [tail]


ORIGINAL = [DSV3, "--attention-backend", "fa4"]


@pytest.mark.parametrize("change, expect", [
    # a branch on a test the linter cannot decide: one launch per path (issue 35)
    ('if DEBUG:\n    cmd = ["sglang", "serve", "other"]', [["other"], ORIGINAL]),
    ('if DEBUG:\n    cmd.remove("--attention-backend")', [[DSV3, "fa4"], ORIGINAL]),
    # a change not followed: the entry point, then words not known (a launch, not fully verified)
    ('if DEBUG:\n    cmd.sort()', [[None], ORIGINAL]),
    ('if DEBUG:\n    cmd[-1] = "triton"', [[DSV3, "--attention-backend", "triton"], ORIGINAL]),
    ('if DEBUG:\n    cmd.pop()', [[DSV3, "--attention-backend"], ORIGINAL]),
    ('if DEBUG:\n    del cmd[3]', [[DSV3, "fa4"], ORIGINAL]),
    # in a loop: unknown from there
    ('for b in BACKENDS:\n    cmd.insert(3, b)', [DSV3, "*"]),
    # straight-line replacements stay exact
    ('cmd[-1] = "triton"', [DSV3, "--attention-backend", "triton"]),
    ('cmd.pop(3)\ncmd.pop()', [DSV3]),
])
def test_words_removed_or_replaced_in_branches(tmp_path, change, expect):
    text = ("import subprocess\n"
            'cmd = ["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4"]\n'
            + change + "\nsubprocess.Popen(cmd)\n")
    launches = py.extract(SourceFile(tmp_path / "c.py", "c.py", text), Workspace(tmp_path)).launches
    if isinstance(expect[0], list):
        assert [values(x) for x in launches] == expect and all(x.path for x in launches)
        return
    [launch] = launches
    assert ["*" if t.splat else "?" if t.value is None else t.value for t in launch.args] == expect


def test_calls_in_handlers_and_finally_see_every_path(tmp_path):
    ex = extract(tmp_path, """
        import subprocess

        def start(extra):
            cmd = ["sglang", "serve", "m", "--attention-backend", "fa4"]
            try:
                cmd.append("--a")
                check(extra)
                cmd.append("--b")
            except ValueError:
                subprocess.run(cmd)  # stopped anywhere in the body
            else:
                subprocess.run(cmd)  # the body ran to its end
            finally:
                subprocess.run(cmd)
            for flag in extra:
                subprocess.run(cmd)
                break
            else:
                subprocess.run(["sglang", "serve", "m", flag])
        """)
    handler, orelse, final, final_raised, loop, loop_raised, after = ex.launches
    assert [t.value for t in handler.args] == ["m", "--attention-backend", "fa4", None] and handler.args[3].splat
    assert values(orelse) == ["m", "--attention-backend", "fa4", "--a", "--b"]
    # after the try: a path where the body completed, one where the handler ran (issue 35)
    for completed, raised in ((final, final_raised), (loop, loop_raised)):
        assert values(completed) == ["m", "--attention-backend", "fa4", "--a", "--b"]
        assert completed.path == ("the `try` body at line 5 completes",)
        assert [t.value for t in raised.args] == ["m", "--attention-backend", "fa4", None] and raised.args[3].splat
        assert raised.path == ("the `try` body at line 5 raises ValueError",)
    assert values(after) == ["m", None] and not after.args[1].splat


def test_changes_made_inside_expressions_are_seen(tmp_path):
    ex = extract(tmp_path, """
        import subprocess
        a = ["sglang", "serve", "m", "--tp", "2"]
        print(a.pop())  # a change inside an expression: a is unknown from here
        subprocess.run(a)
        b = ["sglang", "serve", "m"]
        print(b.append("--y"))
        subprocess.run(b)
        c = ["sglang", "serve", "m"]
        while c.pop() != "m":
            pass
        subprocess.run(c)
        d = ["sglang", "serve", "m"]
        if (d := ["sglang", "serve", "other"]):
            pass
        subprocess.run(d)
        e = ["sglang", "serve", "m"]
        match CFG:
            case {"backend": backend, **rest}:
                e += ["--attention-backend", backend]
            case [first, *others] if first:
                e.append(first)
        subprocess.run(e + [backend])
        """)
    # a, b, c and d are unknown: no program, no launch; e differs by the case that matched (issue 35)
    first, second, none = ex.launches
    assert [t.value for t in first.args] == ["m", "--attention-backend", None, None]
    assert [t.value for t in second.args] == ["m", None, None] and not second.args[1].splat
    assert [t.value for t in none.args] == ["m", None]
    assert first.path == ('`CFG` matches `{"backend": backend, **rest}`',)
    assert none.path == ("no case of `CFG` matches",)


def test_pop_into_a_name(tmp_path):
    ex = extract(tmp_path, """
        import subprocess, sglang
        cmd = ["sglang", "serve", "m", "--tp", "2"]
        last = cmd.pop()
        subprocess.run(cmd)
        kwargs = {"model_path": "m", "attention_backend": "fa4", "tp_size": 2}
        model = kwargs.pop("model_path")
        sglang.Engine(model_path="other", **kwargs)
        """)
    a, b = ex.launches
    assert values(a) == ["m", "--tp"]
    assert kw(b) == {"attention_backend": "fa4", "tp_size": 2, "model_path": "other"}


def test_function_level_branches_and_loops(tmp_path):
    ex = extract(tmp_path, """
        import subprocess

        def start(extra, debug):
            cmd = ["sglang", "serve", "m", "--attention-backend", "fa4"]
            for flag in extra:
                if flag.startswith("--"):
                    cmd.append(flag)
            if debug:
                cmd += ["--log-level", "debug"]
                subprocess.run(cmd)
            subprocess.run(cmd)
        """)
    inner, outer_on, outer_off = ex.launches
    assert [t.value for t in inner.args] == ["m", "--attention-backend", "fa4", None, "--log-level", "debug"]
    assert inner.args[3].splat and inner.path == ()
    # after the ``if debug``: a launch per path (issue 35); the loop's words stay an unknown tail
    assert [t.value for t in outer_on.args] == ["m", "--attention-backend", "fa4", None, "--log-level", "debug"]
    assert [t.value for t in outer_off.args] == ["m", "--attention-backend", "fa4", None] and outer_off.args[3].splat
    assert (outer_on.path, outer_off.path) == (("`debug` is true",), ("`debug` is false",))


def test_dict_key_set_in_a_branch_is_unknown(tmp_path, capsys):
    text = """
        import sglang
        # lint-configs: target-gpu=H100
        kwargs = {"model_path": "deepseek-ai/DeepSeek-V3", "attention_backend": "fa4",
                  "enable_deterministic_inference": True}
        if FAST:
            kwargs["tp_size"] = 8
            kwargs.update(disable_cuda_graph=False)
        for n in range(2):
            kwargs["max_running_requests"] = 8 * n
        engine = sglang.Engine(**kwargs)
        """
    [launch] = extract(tmp_path, text).launches
    assert kw(launch) == {"model_path": DSV3, "attention_backend": "fa4", "enable_deterministic_inference": True,
                          "tp_size": UNKNOWN, "disable_cuda_graph": UNKNOWN, "max_running_requests": UNKNOWN}
    write_tree(tmp_path, {"e.py": src(text)})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1 and [(d["line"], d["column"], d["code"]) for d in diags] == [(3, col(text, 3, "fa4"), "SGL101")]


def test_dict_value_changed_in_a_handler_is_kept_per_path(tmp_path):
    ex = extract(tmp_path, """
        import sglang
        kwargs = dict(model_path="m", attention_backend="fa4")
        try:
            import flashinfer
        except ImportError:
            kwargs["attention_backend"] = "triton"
        sglang.Engine(**kwargs)
        """)
    assert [(kw(x), x.path) for x in ex.launches] == [
        ({"model_path": "m", "attention_backend": "fa4"}, ("`import flashinfer` succeeds",)),
        ({"model_path": "m", "attention_backend": "triton"}, ("`import flashinfer` raises ImportError",))]


def test_name_bound_in_both_branches_is_kept_per_path_and_imports_count(tmp_path):
    ex = extract(tmp_path, """
        import subprocess
        try:
            import sglang as sgl
        except ImportError:
            sgl = None
        if FAST:
            backend = "fa3"
        else:
            backend = "fa4"
        subprocess.run(["sglang", "serve", "m", "--attention-backend", backend])
        sgl.Engine(model_path="m", attention_backend=backend)
        """)
    a3, a4, b3, b4 = ex.launches
    assert (values(a3), values(a4)) == (["m", "--attention-backend", "fa3"], ["m", "--attention-backend", "fa4"])
    assert kw(b3) == {"model_path": "m", "attention_backend": "fa3"}
    assert kw(b4) == {"model_path": "m", "attention_backend": "fa4"}
    assert (a3.path, b4.path) == (("`FAST` is true",), ("`FAST` is false",))


# --- str.format and % ------------------------------------------------------------------------------------

FORMAT = """
    import subprocess
    # lint-configs: target-gpu=H100
    M = "deepseek-ai/DeepSeek-V3"
    subprocess.run("python3 -m sglang.launch_server --model-path {} --attention-backend {} "
                   "--enable-deterministic-inference".format(M, "fa4"), shell=True)
    """


def test_str_format_resolves_with_origins(tmp_path, capsys):
    [launch] = extract(tmp_path, FORMAT).launches
    assert values(launch) == KNOWN[:2] + ["--attention-backend", "fa4", "--enable-deterministic-inference"]
    assert launch.args[1].span_of().line == 3 and launch.args[3].span_of().line == 5
    write_tree(tmp_path, {"f.py": src(FORMAT)})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    [d] = diags
    assert (d["code"], d["line"], d["column"]) == ("SGL101", 5, col(FORMAT, 5, '"fa4"') + 1)
    after = fix(tmp_path, capsys, {"f.py": FORMAT})
    assert after["f.py"] == src(FORMAT).replace('"fa4"', '"fa3"')


PERCENT = """
    import os
    # lint-configs: target-gpu=H100
    BACKEND = "fa4"
    os.system("python3 -m sglang.launch_server --model-path %s --attention-backend %s --tp %d %s" % (
        "deepseek-ai/DeepSeek-V3", BACKEND, 8, "--enable-deterministic-inference"))
    """


def test_percent_formatting_resolves_with_origins(tmp_path, capsys):
    [launch] = extract(tmp_path, PERCENT).launches
    assert values(launch) == KNOWN[:2] + ["--attention-backend", "fa4", "--tp", "8",
                                          "--enable-deterministic-inference"]
    assert launch.args[3].span_of().line == 3 and launch.args[5].span_of().text == "8"
    write_tree(tmp_path, {"p.py": src(PERCENT)})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    assert [(d["code"], d["line"], d["column"]) for d in diags] == [("SGL101", 3, col(PERCENT, 3, "fa4"))]
    after = fix(tmp_path, capsys, {"p.py": PERCENT})
    assert after["p.py"] == src(PERCENT).replace('BACKEND = "fa4"', 'BACKEND = "fa3"')


@pytest.mark.parametrize("expr, words", [
    ('"sglang serve {m} --tp {tp}".format(m="x", tp=2)', ["x", "--tp", "2"]),
    ('"sglang serve {0} --served-model-name {0}".format("x")', ["x", "--served-model-name", "x"]),
    ('"sglang serve {{x}} {}".format("y")', ["{x}", "y"]),
    ('"sglang serve {!r}".format("x")', [None]),
    ('"sglang serve {:>5}".format("x")', [None]),
    ('"sglang serve {}".format(UNKNOWN_NAME)', [None]),
    ('"sglang serve {} {}".format(*ARGS)', [None, None]),
    ('"sglang serve %(m)s --tp %(tp)d" % {"m": "x", "tp": 2}', ["x", "--tp", "2"]),
    ('"sglang serve %s" % "x"', ["x"]),
    ('"sglang serve %s 100%%" % ("x",)', ["x", "100%"]),
    ('"sglang serve %r" % ("x",)', [None]),
    ('"sglang serve %s --tp %s" % ARGS', [None, "--tp", None]),
])
def test_format_forms(tmp_path, expr, words):
    text = f"import subprocess\nsubprocess.run({expr}, shell=True)\n"
    [launch] = py.extract(SourceFile(tmp_path / "c.py", "c.py", text), Workspace(tmp_path)).launches
    assert values(launch) == words


@pytest.mark.parametrize("expr", ['"sglang serve {} {}".format("x")', '"sglang serve %s %s" % ("x",)',
                                  '"sglang serve {".format("x")', '"sglang serve %(m)s" % ("x",)',
                                  '"sglang serve {0} {}".format("x", "y")'])
def test_format_errors_are_unknown(tmp_path, expr):
    # Python raises for these: the whole string is unknown, so there is no program and no launch
    text = f"import subprocess\nsubprocess.run({expr}, shell=True)\n"
    assert py.extract(SourceFile(tmp_path / "c.py", "c.py", text), Workspace(tmp_path)).launches == []


# --- Modal images ----------------------------------------------------------------------------------------

MODAL_IMAGES = """
    import subprocess
    import modal

    app = modal.App("sglang")
    OLD = "lmsysorg/sglang:v0.5.18-cu129"
    old_image = modal.Image.from_registry(OLD).pip_install("requests")
    new_image = (
        modal.Image.from_registry("lmsysorg/sglang:v0.5.23-cu130", add_python="3.12")
        .env({"HF_HOME": "/cache"})
    )
    CMD = ["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4",
           "--enable-deterministic-inference"]


    @app.function(gpu="H100", image=old_image)
    def old():
        subprocess.Popen(CMD)


    @app.cls(gpu="H100", image=new_image)
    class New:
        @modal.enter()
        def start(self):
            subprocess.Popen(CMD)


    def helper():
        subprocess.Popen(CMD)


    @app.function(image=modal.Image.debian_slim().pip_install("sglang==0.5.20"))
    def third():
        helper()
    """


def test_modal_image_sets_the_release_per_function(tmp_path, capsys):
    old, new, helper = extract(tmp_path, MODAL_IMAGES).launches
    assert old.image.text == "lmsysorg/sglang:v0.5.18-cu129" and old.image.span_of().line == 5
    assert new.image.text == "lmsysorg/sglang:v0.5.23-cu130" and new.image.span_of().line == 8
    assert helper.image is None
    write_tree(tmp_path, {"app.py": src(MODAL_IMAGES)})
    code, out, _ = run(tmp_path, capsys, "--explain", "app.py")
    assert code == 0
    blocks = out.split("\napp.py:")
    assert "app.py:17: sglang serve (old:deepseek-ai/DeepSeek-V3)" in out
    assert "release:   SGLang 0.5.18, from image tag lmsysorg/sglang:v0.5.18-cu129; torch built for CUDA 12.9" in blocks[0]
    assert "release:   SGLang 0.5.23, from image tag lmsysorg/sglang:v0.5.23-cu130; torch built for CUDA 13.0" in blocks[1]
    assert "0.5.20" in blocks[2]


# --- launches that a test expects SGLang to refuse ----------------------------------------------------

def test_launches_inside_expect_raises_blocks_are_not_launches(tmp_path, capsys):
    text = """
        import subprocess, unittest
        import pytest
        import sglang as sgl
        from pytest import raises
        # lint-configs: target-gpu=H100
        DSV3 = "deepseek-ai/DeepSeek-V3"


        def test_refused():
            with pytest.raises(ValueError, match="SM100"):
                sgl.Engine(model_path=DSV3, attention_backend="fa4", enable_deterministic_inference=True)
            with raises(ValueError):
                sgl.Engine(model_path=DSV3, attention_backend="fa4", enable_deterministic_inference=True)


        class T(unittest.TestCase):
            def test_refused(self):
                with self.assertRaises(SystemExit), open("log") as log:
                    subprocess.run(["sglang", "serve", DSV3, "--attention-backend", "fa4",
                                    "--enable-deterministic-inference"], check=True, stdout=log)
                with self.assertRaisesRegex(ValueError, "fa4"):
                    sgl.Engine(model_path=DSV3, attention_backend="fa4", enable_deterministic_inference=True)
                sgl.Engine(model_path=DSV3, attention_backend="fa4", enable_deterministic_inference=True)
        """
    [launch] = extract(tmp_path, text).launches
    assert launch.span.line == 23
    write_tree(tmp_path, {"test_x.py": src(text)})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    assert [(d["line"], d["code"]) for d in diags] == [(23, "SGL101")]
    after = fix(tmp_path, capsys, {"test_x.py": text})
    lines = src(text).splitlines(keepends=True)
    lines[22] = lines[22].replace('"fa4"', '"fa3"')
    assert after["test_x.py"] == "".join(lines)


# --- PEP 263 coding declarations --------------------------------------------------------------------------

LATIN1 = ('# -*- coding: latin-1 -*-\n# lint-configs: target-gpu=H100\nimport subprocess\n'
          'NAME = "mod\u00e8le"\n'
          'subprocess.run(["sglang", "serve", "deepseek-ai/DeepSeek-V3", "--served-model-name", NAME, '
          '"--attention-backend", "fa4", "--enable-deterministic-inference"])\n')


def test_coding_declaration_is_not_a_crash(tmp_path, capsys):
    # The text (decoded by source.py) is what is analysed; the declaration itself changes nothing.
    [launch] = py.extract(SourceFile(tmp_path / "l.py", "l.py", LATIN1), Workspace(tmp_path)).launches
    assert values(launch)[:4] == [DSV3, "--served-model-name", "mod\u00e8le", "--attention-backend"]
    # ASCII-only text under a latin-1 declaration reads the same in both codecs: linted as usual
    write_tree(tmp_path, {"ascii.py": LATIN1.replace("\u00e8", "e"), "latin.py": LATIN1.encode("latin-1")})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    # latin-1 bytes are not UTF-8: source.py refuses the file (SGL001), the extractor is never reached
    assert codes_at(diags) == [("ascii.py", 5, "SGL101"), ("latin.py", 4, "SGL001")]


# --- the cheap early exit ---------------------------------------------------------------------------------

def _tokenized(text: str):
    """What Python's tokenizer says: (comment offsets, a call name as a code token), or None."""
    import io
    import tokenize

    from linter.extract.python.names import CALL_NAME_RE, CALL_NAMES

    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    comments, named = [], False
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                comments.append((starts[tok.start[0] - 1] + tok.start[1], starts[tok.end[0] - 1] + tok.end[1]))
            elif tok.type == tokenize.NAME:
                named = named or tok.string in CALL_NAMES
            elif tok.type not in (tokenize.OP, tokenize.NUMBER, tokenize.NEWLINE, tokenize.NL, tokenize.INDENT,
                                  tokenize.DEDENT, tokenize.ENDMARKER, tokenize.COMMENT):
                prefix = tok.string[:len(tok.string) - len(tok.string.lstrip("rRbBuUfF"))]
                is_f = tok.type != tokenize.STRING or "f" in prefix.lower()
                named = named or (is_f and bool(CALL_NAME_RE.search(tok.string)))
    except (tokenize.TokenError, SyntaxError):
        return None
    return comments, named


@pytest.mark.parametrize("text", [
    "x = 1  # Popen\n",
    "s = 'Popen # no comment'  # a comment\nsubprocess.run(x)\n",
    'if"a": pass  # c\nrb"#"\nf"{Popen}"\n',
    "d = {'a': '''x\n# not a comment\n'''}  # c\n",
    'x = "a\\\n# still the string" # c\n',
    "x = 'lone\nsystem(1)\n",
    "x = '''open\n",
    "f(\n  1,  # c\n",
    "x = 1 + \\\n",
    "x = [1]\n)\n",
    "x = 1\n)(\n",
    "# only\r\n# comments\r\n",
])
def test_comment_scan_agrees_with_the_tokenizer(text):
    from linter.extract.python.lexical import scan
    from linter.extract.python.names import CALL_NAME_RE

    assert scan(text, CALL_NAME_RE) == _tokenized(text)


def test_no_recognised_call_name_means_no_parse(tmp_path):
    rows = "\n".join(f'    {{"engine": "sglang", "model": "m{i}", "runs": {i}}},' for i in range(50))
    text = f'"""sglang benchmark results (sglang.launch_server runs)."""  # a comment\nROWS = [\n{rows}\n]\n'
    ex = py.extract(SourceFile(tmp_path / "r.py", "r.py", text), Workspace(tmp_path))
    assert ex.launches == [] and ex.problems == [] and ex.comments is None
    # with a directive in the file, its comments are still listed exactly (a string is no comment)
    text2 = text + 'NOTE = "# lint-configs: ignore[SGL101]"  # lint-configs: target-gpu=H100\n'
    ex = py.extract(SourceFile(tmp_path / "r.py", "r.py", text2), Workspace(tmp_path))
    assert ex.launches == [] and [c.text for c in ex.comments] == ["# a comment", "# lint-configs: target-gpu=H100"]
    # a broken file without any call name is not parsed either (as a file that does not mention SGLang)
    ex = py.extract(SourceFile(tmp_path / "r.py", "r.py", "X = {'sglang': (\n"), Workspace(tmp_path))
    assert ex.launches == [] and ex.problems == []
    # the names only in strings and comments: not code, not parsed
    text3 = '"""How to run sglang.Engine."""\nX = ["Popen", "check_output"]  # os.system\n'
    ex = py.extract(SourceFile(tmp_path / "r.py", "r.py", text3), Workspace(tmp_path))
    assert ex.launches == [] and ex.problems == [] and [c.text for c in ex.comments] == ["# os.system"]
    # a name in code, even an unknown one, is parsed (a syntax error is then reported)
    ex = py.extract(SourceFile(tmp_path / "r.py", "r.py", text3 + "run(\n"), Workspace(tmp_path))
    assert [p.span.line for p in ex.problems] == [3]
    script = ("from pathlib import Path; from linter.extract import python as py;"
              "from linter.source import SourceFile; from linter.workspace import Workspace;"
              f"py.extract(SourceFile(Path('r.py'), 'r.py', {text!r}), Workspace(Path('.')))")
    res = subprocess.run([sys.executable, "-X", "importtime", "-c", script], capture_output=True, text=True,
                         timeout=60, check=False)
    assert res.returncode == 0, res.stderr[-500:]
    assert "linter.extract.python.names" in res.stderr  # the import log works
    assert "linter.extract.python.analysis" not in res.stderr  # nothing was parsed


@pytest.mark.parametrize("code", [
    "from subprocess import Popen as P\nP(['sglang', 'serve', 'm'])\n",
    "import subprocess as sp\nsp.run(['sglang', 'serve', 'm'])\n",
    "import subprocess\nr = subprocess.check_output\nr(['sglang', 'serve', 'm'])\n",
    "import os\nos.execvp('sglang', ['sglang', 'serve', 'm'])\n",
    "from sglang import Engine as E\nE(model_path='m')\n",
    "from sglang.test.test_utils import popen_launch_server as pls\npls('m', 'http://x')\n",
    "import subprocess\nx = f\"{subprocess.run(['sglang', 'serve', 'm'])}\"\n",
])
def test_early_exit_keeps_aliased_calls(tmp_path, code):
    ex = py.extract(SourceFile(tmp_path / "c.py", "c.py", code), Workspace(tmp_path))
    assert len(ex.launches) == 1


def test_deeply_nested_loops_are_not_followed_and_stay_fast(tmp_path):
    def nest(depth: int) -> str:
        lines = ["import subprocess", "def f(xs):", "    cmd = ['sglang', 'serve', 'm']"]
        ind = "    "
        for d in range(depth):
            lines += [f"{ind}for x{d} in xs:", f"{ind}    cmd.append(x{d})"]
            ind += "    "
        return "\n".join(lines + [f"{ind}subprocess.run(cmd)"]) + "\n"

    import time
    [launch] = py.extract(SourceFile(tmp_path / "n.py", "n.py", nest(3)), Workspace(tmp_path)).launches
    # each loop may have run any number of rounds before the next one starts
    assert ["*" if t.splat else t.value for t in launch.args] == ["m", "*", None, "*", None, "*", None]
    start = time.perf_counter()
    assert py.extract(SourceFile(tmp_path / "n.py", "n.py", nest(25)), Workspace(tmp_path)).launches == []
    assert time.perf_counter() - start < 10  # following every nested loop was exponential in the depth


def test_nesting_deeper_than_python_allows_is_sgl001_not_a_crash(tmp_path):
    import json
    import subprocess
    import sys

    (tmp_path / "deep.py").write_text("x = " + "[" * 2000 + "]" * 2000 + "\nimport subprocess\n"
                                      "subprocess.run(['python3', '-m', 'sglang.launch_server'])\n")
    (tmp_path / "unary.py").write_text("import subprocess\nx = " + "-" * 20000 + "1\n"
                                       "subprocess.run(['python3', '-m', 'sglang.launch_server'])\n")
    res = subprocess.run([sys.executable, "-m", "linter", "--format", "json", "."], cwd=tmp_path,
                         capture_output=True, text=True)
    assert res.returncode == 1, res.stderr
    assert sorted((d["path"], d["code"]) for d in json.loads(res.stdout)) == [("deep.py", "SGL001"),
                                                                               ("unary.py", "SGL001")]
