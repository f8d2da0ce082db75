"""Python launches assembled across functions, classes and modules (issue 19): method resolution
per concrete class, return values, keyword dicts built across functions, imports resolved to files of
the same repository (never imported), SGLang's CI registration as the target GPU."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from linter.extract import python as py
from linter.workspace import Workspace
from tests.helpers import codes_at, lint_json, run, write_tree


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def extract(root: Path, name: str):
    ws = Workspace(root)
    return py.extract(ws.read(root / name), ws)


def values(launch) -> list[str | None]:
    return [t.value for t in launch.args]


# SGLang's deterministic test pattern (field notes #40-#42): a base class in one module launches the
# server with the subclass's model and arguments; the common arguments live in a third module.
COMMON = """
    COMMON_SERVER_ARGS = [
        "--trust-remote-code",
        "--enable-deterministic-inference",
    ]
    """
BASE = """
    from sglang.test.test_utils import DEFAULT_URL_FOR_TEST, popen_launch_server

    from .common import COMMON_SERVER_ARGS


    class DeterministicBase:
        @classmethod
        def get_model(cls):
            return "zai-org/GLM-4.7-Flash"

        @classmethod
        def get_server_args(cls):
            return COMMON_SERVER_ARGS

        @classmethod
        def setUpClass(cls):
            cls.model = cls.get_model()
            cls.process = popen_launch_server(
                cls.model,
                DEFAULT_URL_FOR_TEST,
                timeout=600,
                other_args=cls.get_server_args(),
            )
    """
SUBCLASSES = """
    from sglang.test.ci.ci_register import register_cuda_ci
    from tests_pkg.base import DeterministicBase
    from tests_pkg.common import COMMON_SERVER_ARGS

    register_cuda_ci(est_time=360, stage="nightly", runner_config="4-gpu-b200")

    SERVER_ARGS = COMMON_SERVER_ARGS + ["--tp", "4"]


    class TestFa4(DeterministicBase):
        @classmethod
        def get_server_args(cls):
            return SERVER_ARGS + ["--attention-backend", "fa4"]


    class TestFa3(DeterministicBase):
        @classmethod
        def get_server_args(cls):
            return SERVER_ARGS + ["--attention-backend", "fa3"]


    class TestTriton(DeterministicBase):
        @classmethod
        def get_server_args(cls):
            return super().get_server_args() + ["--tp", "4", "--attention-backend", "triton"]
    """


def deterministic_repo(root: Path) -> None:
    (root / ".git").mkdir()
    write_tree(root, {"tests_pkg/__init__.py": "", "tests_pkg/common.py": src(COMMON),
                      "tests_pkg/base.py": src(BASE), "tests_pkg/test_det.py": src(SUBCLASSES)})


def test_each_subclass_is_a_launch_with_its_own_values(tmp_path):
    deterministic_repo(tmp_path)
    ex = extract(tmp_path, "tests_pkg/test_det.py")
    assert [launch.key for launch in ex.launches] == ["TestFa4.setUpClass", "TestFa3.setUpClass",
                                                       "TestTriton.setUpClass"]
    fa4, fa3, triton = ex.launches
    common = ["--trust-remote-code", "--enable-deterministic-inference"]
    assert values(fa4) == ["--model-path", "zai-org/GLM-4.7-Flash", *common, "--tp", "4",
                           "--attention-backend", "fa4"]
    assert values(fa3)[-1] == "fa3"
    assert values(triton) == ["--model-path", "zai-org/GLM-4.7-Flash", *common, "--tp", "4",
                              "--attention-backend", "triton"]
    # each value keeps the file where it is written
    where = {t.value: (t.span_of().source.display, t.span_of().line) for t in fa4.args[1:]}
    assert where["zai-org/GLM-4.7-Flash"] == ("tests_pkg/base.py", 9)
    assert where["--enable-deterministic-inference"] == ("tests_pkg/common.py", 3)
    assert where["fa4"] == ("tests_pkg/test_det.py", 13)
    # the launch itself is the subclass, in the linted file
    assert (fa4.source.display, fa4.span.line, fa4.span.text) == ("tests_pkg/test_det.py", 10, "TestFa4")
    assert {s.display for s in ex.related} == {"tests_pkg/common.py", "tests_pkg/base.py"}
    # the CI registration names the runner's GPU
    [decl] = ex.gpu_decls
    assert (decl.name, decl.span.line, decl.span.text) == ("b200", 5, "b200")


def test_deterministic_pattern_verdicts_on_b200_and_h100(tmp_path, capsys):
    deterministic_repo(tmp_path)
    # on the B200 runner the CI registration names: fa4 runs; fa3 asserts at model load
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    assert codes_at(diags) == [("tests_pkg/test_det.py", 19, "SGL104")]
    assert diags[0]["fix"]["edits"][0]["content"] == "triton"
    # on H100: fa4 with deterministic inference and an absorbed-MLA model is refused; fa3 runs
    code, diags = lint_json(tmp_path, capsys, "--target-gpu", "H100")
    assert codes_at(diags) == [("tests_pkg/test_det.py", 13, "SGL101")]
    assert diags[0]["fix"]["applicability"] == "safe" and diags[0]["fix"]["edits"][0]["content"] == "fa3"
    # the base class alone (its own module) is a launch too, without a backend
    ex = extract(tmp_path, "tests_pkg/base.py")
    [base] = ex.launches
    assert base.key == "DeterministicBase.setUpClass" and values(base)[-1] == "--enable-deterministic-inference"


def test_a_finding_lands_in_the_module_that_writes_the_value(tmp_path, capsys):
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/args.py": src("""
            DET = ["--enable-deterministic-inference", "--attention-backend", "fa4"]
            """),
        "pkg/test_h100.py": src("""
            # lint-configs: target-gpu=H100
            import subprocess
            import pkg.args as a

            subprocess.Popen(["sglang", "serve", "deepseek-ai/DeepSeek-V3", *a.DET])
            """),
    })
    code, diags = lint_json(tmp_path, capsys)
    assert codes_at(diags) == [("pkg/args.py", 1, "SGL101")]
    assert diags[0]["fix"]["applicability"] == "safe"
    code, _, _ = run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "pkg/args.py").read_text() == \
        'DET = ["--enable-deterministic-inference", "--attention-backend", "fa3"]\n'
    # a second reader of the value that runs fa4 (a B200 runner): the fix there is no longer safe
    (tmp_path / "pkg/args.py").write_text(src("""
        DET = ["--enable-deterministic-inference", "--attention-backend", "fa4"]
        """))
    write_tree(tmp_path, {"pkg/test_b200.py": src("""
        # lint-configs: target-gpu=B200
        import subprocess
        from pkg.args import DET

        subprocess.Popen(["sglang", "serve", "deepseek-ai/DeepSeek-V3"] + DET)
        """)})
    code, diags = lint_json(tmp_path, capsys)
    assert codes_at(diags) == [("pkg/args.py", 1, "SGL101")]
    assert diags[0]["fix"]["applicability"] == "unsafe"


def test_keyword_dict_built_across_functions(tmp_path, capsys):
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {
        "rollout/__init__.py": "",
        "rollout/config.py": src("""
            def base_kwargs():
                kw = {"model_path": "deepseek-ai/DeepSeek-V3", "tp_size": 16}
                kw["enable_deterministic_inference"] = True
                return kw
            """),
        "rollout/server.py": src("""
            # lint-configs: target-gpu=H100
            import sglang
            from .config import base_kwargs


            def engine_kwargs(backend="triton"):
                kwargs = base_kwargs()
                kwargs.update(attention_backend="fa4")
                return kwargs


            class Server:
                def start(self):
                    self.engine = sglang.Engine(**engine_kwargs(), log_level="info")
            """),
    })
    ex = extract(tmp_path, "rollout/server.py")
    [launch] = ex.launches
    assert {k.name: k.value for k in launch.kwargs} == {
        "model_path": "deepseek-ai/DeepSeek-V3", "tp_size": 16, "enable_deterministic_inference": True,
        "attention_backend": "fa4", "log_level": "info"}
    code, diags = lint_json(tmp_path, capsys)
    assert codes_at(diags) == [("rollout/server.py", 8, "SGL101")]


def test_a_cycle_of_imports_terminates(tmp_path):
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": src("""
            import subprocess
            from .b import B_ARGS

            A_ARGS = B_ARGS + ["--tp", "2"]
            subprocess.Popen(["sglang", "serve", "m"] + A_ARGS)
            """),
        "pkg/b.py": src("""
            from .a import A_ARGS

            B_ARGS = A_ARGS + ["--attention-backend", "fa4"]
            """),
    })
    for name in ("pkg/a.py", "pkg/b.py"):
        ex = extract(tmp_path, name)
        assert len(ex.launches) == (name == "pkg/a.py")
    [launch] = extract(tmp_path, "pkg/a.py").launches
    # a's A_ARGS, needed again while it is being worked out, is unknown (any number of words);
    # the words each module adds around it are known
    assert values(launch)[0] == "m" and launch.args[1].splat
    assert values(launch)[-4:] == ["--attention-backend", "fa4", "--tp", "2"]


def test_a_module_outside_the_repository_is_unknown(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write_tree(tmp_path, {
        "shared/__init__.py": "",
        "shared/args.py": 'ARGS = ["--attention-backend", "fa4"]\n',
        "repo/shared/__init__.py": "",  # a package of the repository with that name, without the module
        "repo/run.py": src("""
            import subprocess
            from shared.args import ARGS
            from ..shared.args import ARGS as UP

            subprocess.Popen(["sglang", "serve", "m"] + ARGS)
            subprocess.Popen(["sglang", "serve", "m"] + UP)
            """),
    })
    ws = Workspace(tmp_path)
    ex = py.extract(ws.read(repo / "run.py"), ws)
    assert [values(launch) for launch in ex.launches] == [["m", None], ["m", None]]
    assert all(launch.args[1].splat for launch in ex.launches)
    assert ex.related == []


def test_method_return_values_within_a_module(tmp_path):
    write_tree(tmp_path, {"launch.py": src("""
        import subprocess

        def backend():
            return "fa4"

        class Base:
            extra = ["--tp", "2"]

            def args(self):
                return ["--attention-backend", backend()] + self.extra

            def start(self):
                subprocess.Popen(["sglang", "serve", "m"] + self.args())


        class Wide(Base):
            extra = ["--tp", "8"]

            def args(self):
                return super().args() + ["--enable-deterministic-inference"]
        """)})
    ex = extract(tmp_path, "launch.py")
    assert [(launch.key, values(launch)) for launch in ex.launches] == [
        ("Base.start", ["m", "--attention-backend", "fa4", "--tp", "2"]),
        ("Wide.start", ["m", "--attention-backend", "fa4", "--tp", "8", "--enable-deterministic-inference"]),
    ]


def test_instance_keyword_dicts_from_init(tmp_path):
    write_tree(tmp_path, {"rollout.py": src("""
        import sglang


        class Rollout:
            def __init__(self, config):
                self.engine_kwargs = {"model_path": "deepseek-ai/DeepSeek-V3", "attention_backend": "fa4"}
                self.extra = dict(enable_deterministic_inference=True)
                self.later = {"tp_size": 16}

            def reset(self):
                self.later = {}

            def launch(self):
                kwargs = {**self.engine_kwargs, **self.extra, "log_level": "info"}
                return sglang.Engine(**kwargs, **self.later)
        """)})
    launches = extract(tmp_path, "rollout.py").launches
    # self.later is set outside __init__ too: a path each, before and after reset() (issue 35, rev36 D12)
    common = {"model_path": "deepseek-ai/DeepSeek-V3", "attention_backend": "fa4",
              "enable_deterministic_inference": True, "log_level": "info"}
    assert [{k.name: k.value for k in launch.kwargs} for launch in launches] == [{**common, "tp_size": 16}, common]
    assert [launch.kwargs[1].value_text.where.line for launch in launches] == [6, 6]


def test_ci_runner_names_declare_a_gpu_only_when_the_catalog_knows_it():
    from linter.sglang.ci import runner_gpu

    text = "stage-c-test-dsv4-4-gpu-b200"
    i, j = runner_gpu(text)
    assert text[i:j] == "b200"
    assert runner_gpu("deepep-8-gpu-h200") == (len("deepep-8-gpu-"), len("deepep-8-gpu-h200"))
    assert runner_gpu("4-gpu-gb300-qwen35-fp8") == (6, 11)
    for none in ("1-gpu-large", "1-gpu-small", "nightly-1-gpu", "nightly-8-gpu-common", "stress"):
        assert runner_gpu(none) is None, none


def test_ci_registration_forms(tmp_path, capsys):
    write_tree(tmp_path, {
        "test_suite.py": src("""
            from sglang.test.ci import ci_register as ci
            from sglang.test.test_utils import popen_launch_server

            ci.register_cuda_ci(900, "stage-c-test-dsv4-4-gpu-b200")
            popen_launch_server("deepseek-ai/DeepSeek-V3", "http://127.0.0.1:2", 600,
                                other_args=["--attention-backend", "fa4", "--enable-deterministic-inference"])
            """),
        "test_large.py": src("""
            from sglang.test.ci.ci_register import register_cuda_ci
            from sglang.test.test_utils import popen_launch_server

            register_cuda_ci(est_time=60, stage="base-b", runner_config="1-gpu-large")
            popen_launch_server("deepseek-ai/DeepSeek-V3", "http://127.0.0.1:2", 600,
                                other_args=["--attention-backend", "fa4", "--enable-deterministic-inference"])
            """),
    })
    [decl] = extract(tmp_path, "test_suite.py").gpu_decls
    assert (decl.name, decl.span.line) == ("b200", 4)
    assert decl.how == "SGLang CI registration suite='stage-c-test-dsv4-4-gpu-b200'"
    assert extract(tmp_path, "test_large.py").gpu_decls == []
    code, diags = lint_json(tmp_path, capsys)
    # B200 runs fa4; the runner named by size declares nothing: unverifiable, not unknown-gpu
    assert [(d["path"], d["code"]) for d in diags] == [("test_large.py", "SGL901")]


def test_a_chain_of_imports_is_followed_to_a_depth_limit(tmp_path):
    from linter.extract.python.modules import MAX_DEPTH

    (tmp_path / ".git").mkdir()
    files = {"pkg/__init__.py": ""}
    n = MAX_DEPTH + 2
    for k in range(1, n):
        files[f"pkg/m{k}.py"] = f'from .m{k + 1} import ARGS as NEXT\nARGS = ["--w{k}"] + NEXT\n'
    files[f"pkg/m{n}.py"] = f'ARGS = ["--w{n}"]\n'
    files["pkg/main.py"] = src("""
        import subprocess
        from .m1 import ARGS

        subprocess.Popen(["sglang", "serve", "m"] + ARGS)
        """)
    write_tree(tmp_path, files)
    [launch] = extract(tmp_path, "pkg/main.py").launches
    # m1 … m{MAX_DEPTH} are read; the module after them is not: its words are unknown
    assert values(launch)[:-1] == ["m"] + [f"--w{k}" for k in range(1, MAX_DEPTH + 1)]
    assert launch.args[-1].splat


def test_a_launch_helper_re_exported_by_a_module_of_the_repository(tmp_path):
    # SGLang's own test helpers re-export popen_launch_server (python/sglang/test/vlm_utils.py)
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {
        "python/sglang/__init__.py": "",
        "python/sglang/test/__init__.py": "",
        "python/sglang/test/vlm_utils.py":
            "from sglang.test.test_utils import DEFAULT_URL_FOR_TEST, popen_launch_server\n",
        "test/test_named.py": src("""
            from sglang.test.vlm_utils import DEFAULT_URL_FOR_TEST, popen_launch_server

            popen_launch_server("Qwen/Qwen3-8B", DEFAULT_URL_FOR_TEST, 600, other_args=["--tp", "2"])
            """),
        "test/test_star.py": src("""
            from sglang.test.vlm_utils import *

            popen_launch_server("Qwen/Qwen3-8B", DEFAULT_URL_FOR_TEST, 600, other_args=["--tp", "2"])
            """),
    })
    for name in ("test/test_named.py", "test/test_star.py"):
        [launch] = extract(tmp_path, name).launches
        assert values(launch) == ["--model-path", "Qwen/Qwen3-8B", "--tp", "2"]


# -- a file's result does not depend on the files linted before it (issue 35: -j 1 and -j 2 differed) --

_LAUNCH_OF = """
    import subprocess
    from heavy import BACKEND, backend
    subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
                    "--enable-deterministic-inference", "--attention-backend", {value}])
    """


def _heavy_repo(root: Path) -> None:
    """``heavy.py`` costs about 15,000 steps to analyse; ``a.py`` spends 8,000 of its own before its
    launch (together past a budget of 20,000 steps), ``b.py`` almost none, both read ``heavy``."""
    (root / ".git").mkdir()
    rows = "".join(f"V{k} = [{', '.join(['1'] * 60)}]\n" for k in range(240))
    own = "".join(f"W{k} = [{', '.join(['2'] * 60)}]\n" for k in range(130))
    write_tree(root, {
        "heavy.py": rows + 'BACKEND = "fa4"\n\n\ndef backend():\n    return BACKEND\n',
        "a.py": "# lint-configs: target-gpu=H100\n" + own + src(_LAUNCH_OF.format(value="BACKEND")),
        "b.py": "# lint-configs: target-gpu=H100\n" + src(_LAUNCH_OF.format(value="backend()")),
    })


def _lint_in_order(root: Path, order: list[str]) -> dict[str, list[tuple]]:
    """Each file of ``order`` linted in turn by one engine (one process, as ``-j 1`` does): its
    diagnostics as (code, file, line, message)."""
    from linter.config import ConfigResolver
    from linter.engine import Engine, RunOptions
    from linter.isolate import lint_file

    engine = Engine(Workspace(root), RunOptions(), ConfigResolver(isolated=True))
    out = {}
    for name in order:
        result = lint_file(engine, root / name)
        out[name] = sorted((d.code, d.span.source.display, d.span.line, d.message) for d in result.diagnostics)
    return out


def test_a_files_result_does_not_depend_on_the_files_linted_before_it(tmp_path, monkeypatch):
    from linter import limits

    monkeypatch.setattr(limits, "MAX_EVAL_STEPS", 20_000)
    _heavy_repo(tmp_path)
    alone = {name: _lint_in_order(tmp_path, [name])[name] for name in ("a.py", "b.py")}
    # a.py pays for heavy.py's analysis under its own budget: past it, alone or not
    assert [d[:3] for d in alone["a.py"]] == [("SGL004", "a.py", 1)]
    assert "MAX_EVAL_STEPS" in alone["a.py"][0][3]
    # b.py reads heavy.py's function and value whole: fa4 is refused on H100, where heavy.py writes it
    assert [d[:3] for d in alone["b.py"]] == [("SGL101", "heavy.py", 241)]
    assert _lint_in_order(tmp_path, ["a.py", "b.py"]) == alone
    assert _lint_in_order(tmp_path, ["b.py", "a.py"]) == alone


# -- a command or a launching function imported from another module (issue 35) -----------------------

CMD_MODULE = ('CMD = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", '
              '"--attention-backend", "fa4", "--enable-deterministic-inference"]\n')


@pytest.mark.parametrize("main", [
    # only the imported module spells SGLang (the review's D20: skipped by the mention filter before)
    "import subprocess\nfrom p.good import CMD\nsubprocess.run(CMD + ['--tp', '1'])\n",
    "import subprocess\nimport p.good as g\nsubprocess.run(g.CMD)\n",
    "import subprocess\nfrom p import good\nsubprocess.run(good.CMD)\n",
    "from subprocess import run\nfrom .p.good import CMD\nrun(CMD)\n",
])
def test_a_command_imported_from_a_module_that_mentions_sglang_is_a_launch(tmp_path, capsys, main):
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {"p/__init__.py": "", "p/good.py": CMD_MODULE, "main.py": main})
    code, diags = lint_json(tmp_path, capsys, "--target-gpu", "H100", "main.py")
    # located where the literal is written: 'fa4' in p/good.py
    assert [(d["path"], d["line"], d["column"], d["code"]) for d in diags] == [("p/good.py", 1, 115, "SGL101")]


@pytest.mark.parametrize("name, text, expected", [
    ("main.py", "from p.good import CMD\n", True),
    ("main.py", "from .good import CMD\n", True),  # relative: a module of the package
    ("main.py", "if x:\n    import numpy as np\n", True),  # outside the standard library: maybe the repository's
    ("main.py", "import os\nfrom subprocess import run\n", False),  # the standard library only
    ("main.py", "print('no imports')\n", False),
    ("notes.txt", "from p.good import CMD\n", False),  # not a Python file
])
def test_which_files_without_a_mention_the_byte_filter_lets_through(name, text, expected):
    from linter.mentions import imports_other_modules

    assert imports_other_modules(name, text.encode()) is expected


def test_a_target_gpu_directive_applies_to_a_command_imported_from_another_module(tmp_path, capsys):
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {"good.py": CMD_MODULE,
                          "main.py": "# lint-configs: target-gpu=H100\nimport subprocess\nfrom good import CMD\n"
                                     "subprocess.run(CMD)\n"})
    code, diags = lint_json(tmp_path, capsys, "main.py")
    assert [(d["path"], d["line"], d["code"], d["severity"]) for d in diags] == [("good.py", 1, "SGL101", "error")]


@pytest.mark.parametrize("main", [
    "import subprocess\nfrom p.plain import CMD\nsubprocess.run(CMD)\n",  # the module does not mention SGLang
    "import subprocess\nimport json\nsubprocess.run(json.loads('[]'))\n",  # the standard library only
    "from p.good import CMD\nprint(CMD)\n",  # a value of a module that does, but nothing runs it
])
def test_files_that_neither_mention_sglang_nor_run_what_a_module_that_does_holds_are_skipped(tmp_path, capsys,
                                                                                           main):
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {"p/__init__.py": "", "p/good.py": CMD_MODULE, "p/plain.py": "CMD = ['ls']\n",
                          "main.py": main})
    code, out, _ = run(tmp_path, capsys, "--list-launches", "main.py")
    assert "0 launches" in out


RUN_SCRIPT = """
    import subprocess

    import miles.utils.external_utils.command_utils as U


    def _execute_train(backend, det=True):
        cmd = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
               "--attention-backend", backend]
        if det:
            cmd.append("--enable-deterministic-inference")
        subprocess.run(cmd)


    def _train(args):
        U.execute_train(train_args=args, num_gpus_per_node=8, megatron_model_type="deepseek-v3")


    def _indirect(backend):
        _execute_train(backend)  # the launch is _execute_train's, where it is written


    def _run(cmd):
        subprocess.run(cmd)


    def _wrapped(backend):
        _run(["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
              "--attention-backend", backend, "--enable-deterministic-inference"])


    def _prepare(args):
        print(args)
    """


@pytest.mark.parametrize("call, expected", [
    ('_execute_train("fa4")', [("tests/model_scripts/test_x.py", 6, "SGL101", "error")]),
    ('_wrapped("fa4")', [("tests/model_scripts/test_x.py", 6, "SGL101", "error")]),  # through a module wrapper
    ('_execute_train("fa3")', []),
])
def test_a_launching_function_imported_from_another_module_is_a_launch_where_it_is_called(tmp_path, capsys,
                                                                                          call, expected):
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {
        "scripts/__init__.py": "",
        "scripts/run_x.py": src(RUN_SCRIPT),
        # the model script names no runner and does not mention SGLang (miles' DeepSeek-V4 one)
        "tests/model_scripts/test_x.py": src(f"""
            import os
            if os.getenv("PLATFORM") == "rocm":
                from scripts.amd.run_x import _execute_train, _wrapped
            else:
                from scripts.run_x import _execute_train, _wrapped
            {call}
            """),
    })
    code, diags = lint_json(tmp_path, capsys, "--target-gpu", "H100", "tests/model_scripts/test_x.py")
    # the constant this file passes decides the helper's launch
    assert [(d["path"], d["line"], d["code"], d["severity"]) for d in diags] == expected
    code, out, _ = run(tmp_path, capsys, "--list-launches", "tests/model_scripts/test_x.py")
    assert [line.split()[0] for line in out.splitlines() if line.startswith("tests/")] == [
        "tests/model_scripts/test_x.py:6"]


def test_the_miles_trainer_started_by_an_imported_function_is_a_launch_where_it_is_called(tmp_path, capsys):
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {
        "scripts/__init__.py": "",
        "scripts/run_x.py": src(RUN_SCRIPT),
        "test_x.py": "from scripts.run_x import _prepare, _train\n\n_prepare(1)\n_train('--sglang-tp 2')\n",
    })
    code, out, _ = run(tmp_path, capsys, "--list-launches", "test_x.py")
    assert [line.split()[0] for line in out.splitlines() if line.startswith("test_x")] == ["test_x.py:4"]


def test_functions_imported_in_a_cycle_start_nothing_twice(tmp_path, capsys):
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {
        "a.py": src("""
            import subprocess
            from b import g


            def f(c):
                g(c)
                subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "m", "--tp", c])
            """),
        "b.py": src("""
            from a import f


            def g(c):
                f(c)
            """),
        "c.py": "from a import f\n\nf('2')\n",
    })
    code, out, _ = run(tmp_path, capsys, "--list-launches", "c.py", "b.py")
    assert [line.split()[0] for line in out.splitlines() if line[:2] in ("b.", "c.")] == ["b.py:5", "c.py:3"]


@pytest.mark.parametrize("text", [
    "from os import system\n\nsystem('ls')\n",  # the standard library: not a module of the repository
    "from helpers import tidy\n\ntidy()\n",  # a function of the repository that starts nothing
    "from helpers import Tidy\n\nTidy()\n",  # a class
])
def test_calls_of_imported_functions_that_start_nothing_are_no_launch(tmp_path, capsys, text):
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {"helpers.py": "def tidy():\n    return 1\n\n\nclass Tidy:\n    pass\n", "run.py": text})
    code, out, _ = run(tmp_path, capsys, "--list-launches", "run.py")
    assert "0 launches" in out


@pytest.mark.parametrize("name, expected", [
    ("_execute_train", True),  # subprocess.run in its body
    ("_train", True),  # miles' U.execute_train
    ("_wrapped", True),  # through the module's wrapper _run
    ("_run", True),
    ("_indirect", False),  # _execute_train's launch is found in _execute_train
    ("_prepare", False),
    ("missing", False),
])
def test_which_functions_of_a_module_may_launch(tmp_path, name, expected):
    from linter.extract.python.launchers import can_launch
    from linter.extract.python.modules import cache_for

    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {"scripts/run_x.py": src(RUN_SCRIPT)})
    assert can_launch(cache_for(Workspace(tmp_path)), tmp_path / "scripts/run_x.py", name) is expected


def test_an_imported_launch_does_not_depend_on_the_files_linted_before_it(tmp_path, monkeypatch):
    from linter import limits

    monkeypatch.setattr(limits, "MAX_EVAL_STEPS", 20_000)
    _heavy_repo(tmp_path)
    write_tree(tmp_path, {
        "run_x.py": src(RUN_SCRIPT),
        "c.py": "# lint-configs: target-gpu=H100\nfrom run_x import _execute_train\n\n_execute_train('fa4')\n",
    })
    alone = {name: _lint_in_order(tmp_path, [name])[name] for name in ("a.py", "c.py", "run_x.py")}
    assert [d[:3] for d in alone["c.py"]] == [("SGL101", "c.py", 4)]
    for order in (["a.py", "run_x.py", "c.py"], ["c.py", "run_x.py", "a.py"], ["run_x.py", "c.py", "a.py"]):
        assert {k: v for k, v in _lint_in_order(tmp_path, order).items()} == alone


def test_an_imported_function_named_like_a_process_starter_is_not_read(tmp_path, monkeypatch):
    # miles' tests import ``run`` from miles.utils.async_utils: the name of subprocess.run, not a launcher;
    # reading it for every call (the review's tests/fast/rollout/rm_hub/test_rm_hub.py) spent the budget
    from linter.extract.python.launches import LaunchFinder

    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {
        "async_utils.py": "def run(coro):\n    return loop().run(coro)\n",
        "test_x.py": "from async_utils import run\n\nrun(1)  # sglang\n",
    })

    def refuse(*args):
        raise AssertionError("read")

    monkeypatch.setattr(LaunchFinder, "_imported_helper", refuse)
    assert extract(tmp_path, "test_x.py").launches == []


SHARED_BASE = ('BASE = ["python", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", '
               '"--attention-backend", "fa4"]\n')


@pytest.mark.parametrize("module, importer, other", [
    # the other importer two folders away from the module: `from pkg.cmds import BASE`
    ("pkg/cmds.py", "from pkg.cmds import BASE", "b.py"),
    ("pkg/cmds.py", "from pkg import cmds\nBASE = cmds.BASE", "jobs/b.py"),
    # a package's __init__ is named by its folder
    ("pkg/__init__.py", "from pkg import BASE", "b.py"),
])
def test_a_fix_in_a_module_another_file_imports_is_unsafe_when_only_one_importer_is_linted(
        tmp_path, capsys, module, importer, other):
    """A pre-commit run names only the staged importer: the fix it would make edits a module that
    another launch (not named) reads too, so it is unsafe and names that launch, as it does when the
    whole tree is linted (fresh review of issue 35, d18: a safe fix rewrote the shared module)."""
    head = "# lint-configs: target-gpu=H100\nimport subprocess\n"
    files = {module: SHARED_BASE, "a.py": f'{head}{importer}\nsubprocess.run(BASE + ["--enable-deterministic-inference"])\n',
             other: f"{head}{importer}\nsubprocess.run(BASE)\n"}
    if module != "pkg/__init__.py":
        files["pkg/__init__.py"] = ""
    write_tree(tmp_path, files)
    for named in ("a.py", "."):
        _, diags = lint_json(tmp_path, capsys, named)
        [d] = [d for d in diags if d["code"] == "SGL101"]
        assert (d["path"], d["fix"]["applicability"]) == (module, "unsafe")
        line = 4 + importer.count("\n")
        assert f"the fix is unsafe: the value is also read by the launch at {other}:{line}:1" in d["notes"]
    run(tmp_path, capsys, "--fix", "a.py")
    assert (tmp_path / module).read_text() == SHARED_BASE  # --fix alone leaves the shared module as it is


def test_only_the_modules_beside_a_shared_module_that_name_it_are_linted_for_its_readers(tmp_path):
    """A fix in ``scripts/run_x.py`` (reached through an import) asks who else reads the module: in a
    folder of launch scripts (miles' ``scripts/``: forty), only those whose text names the module can
    import it, so only they are linted whole — every one of them took 8 s for one named file."""
    from linter.engine import _beside

    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {
        "scripts/run_x.py": SHARED_BASE,
        "scripts/run_y.py": "import subprocess\nsubprocess.run(['python', '-m', 'sglang.launch_server'])\n",
        "scripts/run_z.py": "from run_x import BASE\n",
        "scripts/run_w.py": "from . import run_x\n",
        "scripts/.env": "A=1\n",
        "scripts/pkg/__init__.py": SHARED_BASE,
        "scripts/pkg/a.py": "from . import BASE\n",
        "scripts/pkg/b.py": "import os\n",
        "tests/test_x.py": "from scripts.run_x import BASE\n",
        "tests/test_y.py": "import os\n",
        "compose/.env": "A=1\n",
        "compose/docker-compose.yml": "services: {}\n",
        "compose/other.txt": "x\n",
    })
    names = lambda paths: sorted(str(p.relative_to(tmp_path)) for p in paths)  # noqa: E731
    assert names(_beside(tmp_path / "scripts/run_x.py", tmp_path)) == [
        "scripts/run_w.py", "scripts/run_x.py", "scripts/run_z.py", "tests/test_x.py"]
    assert names(_beside(tmp_path / "scripts/pkg/__init__.py", tmp_path)) == [
        "scripts/pkg/__init__.py", "scripts/pkg/a.py"]
    # a compose .env is read without being named: every file beside it stays a candidate
    assert names(_beside(tmp_path / "compose/.env", tmp_path)) == [
        "compose/.env", "compose/docker-compose.yml", "compose/other.txt"]


def test_a_link_beside_a_shared_module_is_not_read_to_find_its_readers(tmp_path):
    """Looking for the files that name a module a fix would edit never opens a link (it may lead out
    of the repository root) nor a FIFO."""
    import os

    from linter.engine import _beside

    (tmp_path / "repo" / ".git").mkdir(parents=True)
    write_tree(tmp_path, {"repo/scripts/run_x.py": SHARED_BASE, "outside/secret.py": "from run_x import BASE\n"})
    (tmp_path / "repo/scripts/link.py").symlink_to(tmp_path / "outside/secret.py")
    os.mkfifo(tmp_path / "repo/scripts/pipe_run_x.py")
    got = _beside(tmp_path / "repo/scripts/run_x.py", tmp_path / "repo")
    assert [p.name for p in got] == ["run_x.py"]
