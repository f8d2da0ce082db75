"""Python launches assembled across functions, classes and modules (issue 19): method resolution
per concrete class, return values, keyword dicts built across functions, imports resolved to files of
the same repository (never imported), SGLang's CI registration as the target GPU."""

from __future__ import annotations

import textwrap
from pathlib import Path

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
