"""Issue 31: exact at parse time — types, deprecated options, multi-value choices, argparse's order,
start-up checks (point 6), phantom and duplicate Python launches (point 7), a DSA model's own KV
cache choice (point 8). The recorded oracle verdicts are replayed in ``test_parser_oracle.py``."""

from __future__ import annotations

import json

import pytest

from linter.launch import MStr, Token
from linter.sglang.options import load_table, parse_args
from tests.helpers import lint_json, run, write_tree


def _parse(version: str, words: list[str]):
    return parse_args(load_table(version), [Token(MStr.plain(w)) for w in words])


def _codes(tmp_path, capsys, script: str, *args: str) -> list[tuple[int, str]]:
    write_tree(tmp_path, {"serve.sh": script})
    _, diags = lint_json(tmp_path, capsys, *args)
    return sorted((d["line"], d["code"]) for d in diags)


# -- point 1: types as argparse applies them ---------------------------------------------------------

@pytest.mark.parametrize("version,words,error", [
    ("0.5.23", ["--nnodes", "1.5"], "argument --nnodes: invalid int value: '1.5'"),
    ("0.5.23", ["--port", "0x10"], "argument --port: invalid int value: '0x10'"),
    ("0.5.23", ["--port="], "argument --port: invalid int value: ''"),
    ("0.5.9", ["--context-length", "abc"], "argument --context-length: invalid int value: 'abc'"),
    ("0.5.23", ["--mem-fraction-static", "fast"], "argument --mem-fraction-static: invalid float value: 'fast'"),
    ("0.5.23", ["--preferred-sampling-params", "{bad"], "argument --preferred-sampling-params: invalid loads value: "
                                                          "'{bad'"),
    ("0.5.23", ["--cuda-graph-backend-decode", "tc_piecewise"],
     "argument --cuda-graph-backend-decode: tc_piecewise was removed; select breakable, full, or disabled"),
])
def test_a_value_the_type_rejects_is_argparses_error(version, words, error):
    parsed = _parse(version, ["--model-path", "m", *words])
    assert parsed.sglang_error() == ("ArgparseError", error)


@pytest.mark.parametrize("words", [["--port", "+4"], ["--port", " 8 "], ["--port", "8_000"], ["--port", "-1"],
                                   ["--mem-fraction-static", "1e-1"], ["--log-requests-level", "00"]])
def test_what_python_converts_is_accepted(words):
    assert _parse("0.5.23", ["--model-path", "m", *words]).sglang_error() is None


def test_a_value_the_linter_cannot_see_is_not_judged(tmp_path, capsys):
    script = "python3 -m sglang.launch_server --model-path m --port $PORT --nnodes=${NODES}\n"
    assert [c for _, c in _codes(tmp_path, capsys, script, "--sglang-version", "0.5.23")] == []


def test_a_type_error_is_sgl209_at_the_value(tmp_path, capsys):
    write_tree(tmp_path, {"serve.sh": "python3 -m sglang.launch_server --model-path m --nnodes 1.5\n"})
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.23")
    assert [(d["code"], d["column"], d["end_column"]) for d in diags] == [("SGL209", 57, 60)]
    assert "invalid int value: '1.5'" in diags[0]["message"]


# -- point 2: deprecated options per release ---------------------------------------------------------

def test_a_deprecated_option_that_raises_is_sglangs_own_error():
    parsed = _parse("0.4.0", ["--model-path", "m", "--enable-overlap-schedule"])
    assert parsed.sglang_error() == ("ValueError", "'--enable-overlap-schedule' is deprecated. It is enabled by "
                                                   "default now. Please drop this argument.")
    opt = load_table("0.4.0").by_string["--enable-overlap-schedule"]
    assert opt.deprecation["behaviour"] == "raises"
    assert opt.deprecation["source"] == "sglang/srt/server_args.py:850 (DeprecatedAction)"


def test_the_same_kind_of_option_only_warns_from_0_5_9(tmp_path, capsys):
    assert load_table("0.5.9").by_string["--enable-piecewise-cuda-graph" if "--enable-piecewise-cuda-graph" in
                                         load_table("0.5.9").by_string else "--hybrid-kvcache-ratio"]
    opt = load_table("0.5.12").by_string["--enable-piecewise-cuda-graph"]
    assert opt.deprecation["behaviour"] == "warns"
    script = ("python3 -m sglang.launch_server --model-path m --enable-piecewise-cuda-graph\n"
              "python3 -m sglang.launch_server --model-path m --enable-ep-moe\n")
    write_tree(tmp_path, {"a.sh": script})
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.12")
    assert [(d["line"], d["code"], d["severity"]) for d in diags] == [(1, "SGL211", "warning"), (2, "SGL201", "error")]
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.3")
    assert [(d["line"], d["code"]) for d in diags] == [(1, "SGL201"), (2, "SGL210")]
    assert "Please set `--ep-size` to the same value as `--tp-size` instead" in diags[1]["message"] or \
        "--ep-size" in diags[1]["message"]


def test_0_5_23_maps_enable_dp_attention_onto_attn_dp_size():
    parsed = _parse("0.5.23", ["--model-path", "m", "--tp", "8", "--dp", "8", "--enable-dp-attention"])
    assert parsed.sglang_error() is None
    assert parsed.value("attn_dp_size") == "8" and parsed.value("dp_size") == "1"
    assert parsed.value("enable_dp_attention") is False
    mapped = parsed.get("attn_dp_size")
    assert mapped.value_token.raw == "8" and "handle_deprecated_dp_attention" in mapped.via
    # an explicit --attn-dp-size wins: SGLang only clears the old flag
    parsed = _parse("0.5.23", ["--model-path", "m", "--dp", "4", "--attn-dp-size", "2", "--enable-dp-attention"])
    assert parsed.value("attn_dp_size") == "2" and parsed.value("dp_size") == "4"
    # 0.5.22 maps it the same way (its handle_deprecated_dp_attention); 0.5.21 has a plain flag
    parsed = _parse("0.5.22", ["--model-path", "m", "--dp", "8", "--enable-dp-attention"])
    assert parsed.value("attn_dp_size") == "8" and parsed.value("dp_size") == "1"
    parsed = _parse("0.5.21", ["--model-path", "m", "--dp", "8", "--enable-dp-attention"])
    assert parsed.value("enable_dp_attention") is True and parsed.value("dp_size") == "8"
    assert parsed.problems == []


def test_engine_keywords_are_mapped_too():
    from linter.launch import KwArg
    from linter.sglang.options import settings_from_kwargs

    kwargs = [KwArg(name, value, None) for name, value in (("model_path", "m"), ("dp_size", 4),
                                                            ("enable_dp_attention", True))]
    parsed = settings_from_kwargs(load_table("0.5.23"), kwargs)
    assert (parsed.value("attn_dp_size"), parsed.value("dp_size"), parsed.value("enable_dp_attention")) == (4, 1, False)


def test_the_deprecation_data_is_what_issue_32_reads():
    dep = load_table("0.5.23").by_string["--enable-dp-attention"].deprecation
    assert dep["behaviour"] == "maps" and dep["new_flag"] == "--attn-dp-size <dp-size>"
    assert dep["resolution"]["source"] == "sglang/srt/arg_groups/parallel_hook.py:39"
    assert dep["message"] == ("'--enable-dp-attention' is deprecated and will be removed in a future release. "
                              "Use '--attn-dp-size <dp-size>' instead.")
    alias = load_table("0.5.16").by_string["--cuda-graph-max-bs"]
    assert alias.dest == "cuda_graph_max_bs_decode" and alias.deprecation["stores"] == {
        "cuda_graph_max_bs_decode": {"given": True}}
    assert _parse("0.5.16", ["--model-path", "m", "--cuda-graph-max-bs", "16"]).value("cuda_graph_max_bs_decode") == "16"


# -- point 3: every value of a multi-value option ----------------------------------------------------

def test_every_value_of_a_multi_value_option_is_checked(tmp_path, capsys):
    parsed = _parse("0.5.1", ["--model-path", "m", "--lora-target-modules", "q_proj", "FA3"])
    assert parsed.sglang_error()[1].startswith("argument --lora-target-modules: invalid choice: 'FA3'")
    write_tree(tmp_path, {"serve.sh": "python3 -m sglang.launch_server --model-path m "
                                      "--lora-target-modules q_proj FA3 k_proj\n"})
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.1")
    assert [(d["code"], d["column"]) for d in diags] == [("SGL203", 77)]


# -- point 4: argparse's order of tests ----------------------------------------------------------------

@pytest.mark.parametrize("words,error", [
    (["--json-model-override-args={\"rope_scaling\": {\"factor\": 4.0}}"], None),  # '=' before the space test
    (["--json-model-override={\"a\": 1}"], None),  # an abbreviation with '=' and a space
    (["--host", "-x"], "argument --host: expected one argument"),
    (["--host", "-x y"], None),  # a space: an argument
    (["--port", "-1"], None),  # a negative number: an argument
    (["--port", "-1e3"], "argument --port: expected one argument"),
    (["-tp", "8"], "unrecognized arguments: -tp 8"),
    (["--tp=8"], None),
    (["--", "--tp", "8"], "unrecognized arguments: -- --tp 8"),
    (["--host=--"], None),  # argparse removes the '--': an empty list is stored
    (["-hx"], "argument -h/--help: ignored explicit argument 'x'"),
])
def test_argparse_order_for_words_that_start_with_a_dash(words, error):
    parsed = _parse("0.5.23", ["--model-path", "m", *words])
    assert parsed.sglang_error() == (None if error is None else ("ArgparseError", error))


def test_no_false_sgl204_on_json_written_with_equals(tmp_path, capsys):
    script = ("python3 -m sglang.launch_server --model-path m "
              "--json-model-override-args='{\"rope_scaling\": {\"factor\": 4.0}}'\n")
    assert _codes(tmp_path, capsys, script, "--sglang-version", "0.5.23") == []


# -- point 6: start-up checks right after parsing --------------------------------------------------------

@pytest.mark.parametrize("version", ["0.4.0", "0.5.1", "0.5.9", "0.5.12", "0.5.23"])
def test_a_log_level_logging_does_not_know_stops_start_up(tmp_path, capsys, version):
    script = ("python3 -m sglang.launch_server --model-path m --log-level x\n"
              "python3 -m sglang.launch_server --model-path m --log-level WARN\n"
              "python3 -m sglang.launch_server --model-path m --log-level basic_format\n")
    write_tree(tmp_path, {"serve.sh": script})
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", version)
    assert [(d["line"], d["code"]) for d in diags] == [(1, "SGL212"), (3, "SGL212")]
    assert "module 'logging' has no attribute 'X'" in diags[0]["message"]
    assert "configure_logger" in diags[0]["message"]


def test_a_json_option_typed_str_fails_at_start_up(tmp_path, capsys):
    script = "python3 -m sglang.launch_server --model-path m --json-model-override-args '{\"rope_scaling\": }'\n"
    write_tree(tmp_path, {"serve.sh": script})
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.9")
    assert [d["code"] for d in diags] == ["SGL212"]
    assert "JSONDecodeError" in diags[0]["message"] and "model_config.py" in diags[0]["message"]


def test_an_engine_keyword_log_level_is_checked_too(tmp_path, capsys):
    write_tree(tmp_path, {"run.py": "import sglang as sgl\nengine = sgl.Engine(model_path='m', log_level='loud')\n"})
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.23")
    assert [d["code"] for d in diags] == ["SGL212"]


# -- point 7: no phantom or duplicate launches ---------------------------------------------------------------

PYTHON_CLASSES = '''\
import subprocess


class Base:
    def server_args(self):
        raise NotImplementedError

    def start(self):
        cmd = ["python3", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-8B", *self.server_args()]
        return subprocess.Popen(cmd)


class A(Base):
    def server_args(self):
        return ["--tp", "2"]


class B(Base):
    def server_args(self):
        return ["--tp", "4"]


class Runner:
    def start(self):
        return subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-8B", "--tp", "4"])


class R1(Runner):
    pass


class R2(Runner):
    pass
'''


def test_a_method_that_raises_first_starts_nothing_and_identical_launches_are_one(tmp_path, capsys):
    write_tree(tmp_path, {"launch.py": PYTHON_CLASSES})
    code, out, _ = run(tmp_path, capsys, "--list-launches", "--format", "json")
    launches = json.loads(out)
    assert sorted((entry["line"], entry["scope"]) for entry in launches) == [
        (10, "A.start:Qwen/Qwen3-8B"), (10, "B.start:Qwen/Qwen3-8B"), (25, "Runner.start:Qwen/Qwen3-8B")]
    code, out, _ = run(tmp_path, capsys, "--explain", "launch.py:25")
    assert "reached:   by Runner.start, R1.start, R2.start" in out
    assert out.count("launch.py:25:") == 1


def test_a_raise_in_a_branch_does_not_remove_the_launch(tmp_path, capsys):
    text = PYTHON_CLASSES.replace("        raise NotImplementedError",
                                  "        if self.strict:\n            raise NotImplementedError\n        return []")
    write_tree(tmp_path, {"launch.py": text})
    _, out, _ = run(tmp_path, capsys, "--list-launches", "--format", "json")
    assert any(entry["scope"].startswith("Base.start") for entry in json.loads(out))


# -- point 8: a DSA model's own KV-cache choice ---------------------------------------------------------------

DSA_SCRIPT = """\
# lint-configs: target-gpu={gpu}
python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.2-Exp --attention-backend trtllm_mha
python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.2-Exp --attention-backend trtllm_mha --kv-cache-dtype bf16
python3 -m sglang.launch_server --model-path zai-org/GLM-5 --prefill-attention-backend trtllm_mha
python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --attention-backend trtllm_mha
"""


@pytest.mark.parametrize("version,gpu,lines", [
    ("0.5.23", "RTX PRO 6000 Blackwell", [2, 4]),  # SM120: SGLang's own fp8_e4m3 for DSA, then the FMHAv2 check
    ("0.5.23", "DGX Spark", [2, 4]),  # SM121
    ("0.5.19", "RTX 5090", [2, 4]),
    ("0.5.23", "B200", []),  # fp8_e4m3 too, but the check is SM120's
    ("0.5.23", "H100", []),  # SM90: SGLang picks bfloat16
])
def test_a_dsa_models_own_fp8_kv_cache_fails_trtllm_mha_prefill_on_sm120(tmp_path, capsys, version, gpu, lines):
    write_tree(tmp_path, {"serve.sh": DSA_SCRIPT.format(gpu=gpu)})
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", version, "--select", "SGL108")
    assert sorted(d["line"] for d in diags) == lines
    for d in diags:
        assert "SGLang's own choice for this DSA checkpoint" in d["message"] or any(
            "SGLang's own choice" in n for n in d.get("notes", []))


def test_the_dsa_kv_default_is_read_per_release():
    from linter.sglang.decision import Hardware, model_kv_cache_dtype

    sm120 = Hardware("SM120", True, 12, (12, 9))
    sm90 = Hardware("SM90", True, 9, (12, 9))
    t23, t18 = load_table("0.5.23"), load_table("0.5.18")
    assert model_kv_cache_dtype(t23, "DeepseekV32ForCausalLM", True, sm120) == "fp8_e4m3"
    assert model_kv_cache_dtype(t23, "DeepseekV32ForCausalLM", True, sm90) == "bfloat16"
    assert model_kv_cache_dtype(t23, "DeepseekV32ForCausalLM", True, sm120, learnable_sink=True) == "bfloat16"
    assert model_kv_cache_dtype(t18, "DeepseekV32ForCausalLM", True, sm120, learnable_sink=True) == "fp8_e4m3"
    assert model_kv_cache_dtype(t23, "Glm5NextForConditionalGeneration", True, sm120) == "fp8_e4m3"
    assert model_kv_cache_dtype(t18, "Glm5NextForConditionalGeneration", True, sm120) is None  # not yet in 0.5.18
    assert model_kv_cache_dtype(t23, "DeepseekV3ForCausalLM", False, sm120) is None  # no index_topk: not DSA
    assert model_kv_cache_dtype(load_table("0.5.9"), "DeepseekV32ForCausalLM", True, sm120) is None  # not read


# -- point 4, against the running Python's own argparse -----------------------------------------------------

def _replica(table):
    """CPython's argparse with the release's options as plain actions (types int/float/json.loads/str,
    choices, nargs, flags): what the linter's reading must match word for word."""
    import argparse

    class Stop(Exception):
        pass

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise Stop(message)

    parser = Parser(prog="sglang serve")
    types = {"int": int, "float": float, "json": json.loads}
    for o in table.options:  # every option string, in the parser's order (the ambiguity lists' order)
        if o.action == "custom:BooleanOptionalAction":
            if not o.option_strings[0].startswith("--no-"):
                parser.add_argument(o.option_strings[0], dest=o.dest, action=argparse.BooleanOptionalAction)
        elif not o.takes_value:
            parser.add_argument(*o.option_strings, dest=o.dest, action="store_true")
        else:
            parser.add_argument(*o.option_strings, dest=o.dest, type=types.get(o.type), choices=o.choices,
                                nargs=o.nargs, required=o.required, const=o.const)
    return parser, Stop


CORNER_WORDS = ["-1", "-1.5", "-.5", "-1e3", "+4", "0x10", " 8 ", "8_000", "", "--", "-", "-x", "-x y", "a b", "a=b",
                "--x", "---", "true", "1.0", "nan", "FA3", "fa3", "{\"a\": 1}", "{bad", "-h", "--he", "-hx", "-h=x"]


@pytest.mark.skipif(__import__("sys").version_info[:3] >= (3, 12, 7),
                    reason="CPython 3.12.7+ changed argparse's handling of '--' and of single-dash prefixes")
@pytest.mark.parametrize("version", ["0.4.0", "0.5.9", "0.5.23"])
def test_argparse_itself_agrees_word_for_word(version):
    import contextlib
    import io
    import random

    table = load_table(version)
    parser, Stop = _replica(table)
    # values are drawn for the options whose conversion and action the replica has exactly
    opts = [o for o in table.options if o.deprecation is None and o.type in (None, "str", "int", "float", "json")
            and (not o.action.startswith("custom:") or o.action == "custom:BooleanOptionalAction")
            and o.dest != "config"]  # (SGLang merges a --config file before argparse sees the words)
    rng = random.Random(31)
    disagree = []
    for n in range(3000):
        words = ["--model-path", "m"]
        for _ in range(rng.randint(1, 3)):
            o = rng.choice(opts)
            s = rng.choice(o.option_strings)
            if rng.random() < 0.2 and len(s) > 5:
                s = s[:rng.randint(3, len(s) - 1)]
            v = rng.choice(CORNER_WORDS + [str(c) for c in (o.choices or ())])
            form = rng.random()
            words += [f"{s}={v}"] if form < 0.3 else [s] if form < 0.4 else [s, v] if form < 0.9 else [s, v, v]
        rng.shuffle(words)
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                parser.parse_args(words)
            want = None
        except Stop as e:
            want = ("ArgparseError", str(e))
        except SystemExit:
            want = "help"
        parsed = _parse(version, words)
        got = "help" if parsed.help else parsed.sglang_error()
        if got != want:
            disagree.append((words, want, got))
    assert not disagree, (len(disagree), disagree[:5])


def test_json_nested_past_the_recursion_limit_is_a_start_up_failure_not_an_internal_error(tmp_path, capsys):
    deep = "[" * 30000 + "]" * 30000
    write_tree(tmp_path, {"serve.sh": "python3 -m sglang.launch_server --model-path m "
                                      f"--json-model-override-args '{deep}'\n"})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1 and [d["code"] for d in diags] == ["SGL212"]
    assert "RecursionError while reading --json-model-override-args as JSON" in diags[0]["message"]


def test_a_baseline_nested_too_deeply_is_a_clear_error(tmp_path, capsys):
    write_tree(tmp_path, {"b.json": "[" * 30000 + "]" * 30000, "x.sh": "echo\n"})
    code, out, err = run(tmp_path, capsys, "--baseline", "b.json", "x.sh")
    assert code == 2 and "b.json: the baseline is not valid JSON: nested too deeply" in err


@pytest.mark.parametrize("args,said", [
    ("--tp", "expected one argument"),
    ("--cuda-graph-bs-decode --port 1", "expected at least one argument"),  # nargs='+' (argparse's own words)
])
def test_a_missing_value_quotes_argparse_for_the_option_s_nargs(tmp_path, capsys, args, said):
    write_tree(tmp_path, {"serve.sh": f"sglang serve --model-path m {args}\n"})
    code, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.23")
    assert [d["code"] for d in diags] == ["SGL205"]
    assert diags[0]["message"].endswith(f"SGLang's parser stops with '{said}'")


def test_explain_and_the_inventory_say_the_parser_refuses_before_any_gpu_check(tmp_path, capsys):
    write_tree(tmp_path, {"p.sh": "# lint-configs: target-gpu=H100\n"
                                  "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --port 0x10\n"})
    _, out, _ = run(tmp_path, capsys, "--explain", "p.sh:2", "--color", "never")
    assert ("verdict:   refused on every GPU: SGLang's parser stops (argument --port: invalid int value: '0x10') "
            "before any start-up check") in out
    assert "accepted" not in out
    _, out, _ = run(tmp_path, capsys, "--list-launches", "--color", "never", "p.sh")
    assert "H100 (SM90): refused (SGL209)" in out and "accepted" not in out
    _, out, _ = run(tmp_path, capsys, "--list-launches", "--format", "json", "p.sh")
    [row] = json.loads(out)["launches"] if isinstance(json.loads(out), dict) else json.loads(out)
    assert [(t["verdict"], t["check"]) for t in row["targets"]] == [("refused", "SGL209")]


@pytest.mark.parametrize("value", ["-0x1", "-1e3x", "-.5.5"])
def test_a_number_argparse_reads_as_an_option_is_one_missing_value(tmp_path, capsys, value):
    """argparse stops at `expected one argument`; the word it refused is the value, not an unknown option."""
    write_tree(tmp_path, {"serve.sh": f"python -m sglang.launch_server --model-path m --port {value}\n"})
    code, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.23")
    assert [d["code"] for d in diags] == ["SGL205"]


def test_an_unknown_option_after_a_missing_value_is_still_reported(tmp_path, capsys):
    write_tree(tmp_path, {"serve.sh": "python -m sglang.launch_server --model-path m --port --bogus-flag\n"})
    code, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.23")
    assert sorted(d["code"] for d in diags) == ["SGL201", "SGL205"]
