"""argparse semantics from the generated tables, the SGL2xx rules, and which release a launch runs."""

from __future__ import annotations

import pytest

from linter.launch import MStr, Token
from linter.sglang.entrypoints import LAUNCH_SERVER, SERVE
from linter.sglang.options import load_table, parse_args
from linter.sglang.release import parse_image_tag
from tests.helpers import codes_at, lint_json, run, write_tree


def parsed(line: str, version: str = "0.5.23", program: str = LAUNCH_SERVER, model: bool = True):
    """Parse a fragment; ``--model-path m`` is added (it is required) unless the fragment names one."""
    words = line.split()
    if model and not any(w.startswith("--model") for w in words) and program != SERVE:
        words = ["--model-path", "m"] + words
    return parse_args(load_table(version), [Token(MStr.plain(w)) for w in words], program)


@pytest.mark.parametrize("line,dest,value", [
    ("--tp 8", "tp_size", "8"),
    ("--tp-size=8", "tp_size", "8"),
    ("--tensor-parallel-size 8", "tp_size", "8"),
    ("--mem-fraction 0.8", "mem_fraction_static", "0.8"),
    ("--model deepseek-ai/DeepSeek-V3", "model_path", "deepseek-ai/DeepSeek-V3"),
    ("--attention-b fa4", "attention_backend", "fa4"),
    ("--attention-backend=fa4", "attention_backend", "fa4"),
    ("--nccl-init 10.0.0.1:5000", "dist_init_addr", "10.0.0.1:5000"),
    ("--ep 8", "ep_size", "8"),
    ("--enable-deterministic", "enable_deterministic_inference", True),
    ("--attention-backend fa3 --attention-backend fa4", "attention_backend", "fa4"),  # last one wins
])
def test_argparse_resolution(line, dest, value):
    p = parsed(line)
    assert p.problems == []
    assert p.value(dest) == value


def test_sglang_serve_takes_a_positional_model_and_drops_model_type():
    p = parsed("deepseek-ai/DeepSeek-V3 --model-type llm --tp 8", program=SERVE)
    assert p.value("model_path") == "deepseek-ai/DeepSeek-V3" and p.value("tp_size") == "8"
    assert p.problems == []


@pytest.mark.parametrize("line,kind", [
    ("--attention fa3", "ambiguous-option"),
    ("--pp 2", "ambiguous-option"),
    ("--attention_backend fa3", "unknown-option"),
    ("--enable-deterministic-inference=true", "unexpected-value"),
    ("--enable-deterministic-inference true", "unrecognized-argument"),
    ("--tp", "missing-value"),
    ("--attention-backend --tp 2", "missing-value"),
])
def test_parser_problems(line, kind):
    assert [p.kind for p in parsed(line).problems] == [kind]


def test_abbreviation_depends_on_the_release():
    assert parsed("--cont 32768", "0.5.18").value("context_length") == "32768"
    assert [p.kind for p in parsed("--cont 32768", "0.5.23").problems] == ["ambiguous-option"]


def test_matches_the_recorded_real_parser_on_the_rules_options():
    import json
    from pathlib import Path

    fixture = json.loads((Path(__file__).parent / "fixtures" / "sglang_parser_0.5.18.json").read_text())
    cases = fixture["cases"] if isinstance(fixture, dict) else fixture
    checked = 0
    for case in cases:
        p = parse_args(load_table("0.5.18"), [Token(MStr.plain(w)) for w in case["argv"]], LAUNCH_SERVER)
        if case["ok"]:
            assert p.problems == [], case
            for dest, want in (case.get("namespace") or {}).items():
                if dest in ("tp_size",):
                    want = str(want)
                got = p.value(dest)
                if isinstance(want, (str, bool)):
                    assert got == want, (case, dest)
            checked += 1
        else:
            assert p.problems, case
            checked += 1
    assert checked >= 20


# --- the SGL2xx rules on compose files --------------------------------------------------------------

def compose(args: str, image: str = "lmsysorg/sglang:latest") -> str:
    return f"services:\n  s:\n    image: {image}\n    command: python3 -m sglang.launch_server {args}\n"


@pytest.mark.parametrize("args,code", [
    ("--model-path Qwen/Qwen3-8B --attention_backend fa3", "SGL201"),
    ("--model-path Qwen/Qwen3-8B --attention fa3", "SGL202"),
    ("--model-path Qwen/Qwen3-8B --attention-backend FA3", "SGL203"),
    ("--model-path Qwen/Qwen3-8B --attention-backend cutlass_mla", "SGL203"),  # gone from 0.5.20
    ("--model-path Qwen/Qwen3-8B --enable-deterministic-inference=true", "SGL204"),
    ("--model-path Qwen/Qwen3-8B --enable-deterministic-inference true", "SGL204"),
    ("--model-path Qwen/Qwen3-8B --tp", "SGL205"),
    ("--model-path Qwen/Qwen3-8B --config=serve.yaml", "SGL206"),
    ("--model-path Qwen/Qwen3-8B --tp 4 --tensor-parallel-size 8", "SGL207"),
])
def test_option_rules_in_compose(tmp_path, capsys, args, code):
    write_tree(tmp_path, {"compose.yaml": compose(args)})
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == [code]


@pytest.mark.parametrize("args", [
    "--model-path Qwen/Qwen3-8B --tp 8 --mem-fraction 0.8 --attention-b fa3",
    "--model Qwen/Qwen3-8B --max-running-requests 8 --enable-metrics",
    "--model-path Qwen/Qwen3-8B --config serve.yaml",
])
def test_valid_options_have_no_finding(tmp_path, capsys, args):
    write_tree(tmp_path, {"compose.yaml": compose(args)})
    assert lint_json(tmp_path, capsys) == (0, [])


def test_version_dependent_abbreviation_follows_the_image_tag(tmp_path, capsys):
    write_tree(tmp_path, {"a/compose.yaml": compose("--model-path Qwen/Qwen3-8B --cont 32768", "lmsysorg/sglang:v0.5.18-cu129"),
                          "b/compose.yaml": compose("--model-path Qwen/Qwen3-8B --cont 32768", "lmsysorg/sglang:v0.5.23-cu129")})
    _, diags = lint_json(tmp_path, capsys)
    assert codes_at(diags) == [("b/compose.yaml", 4, "SGL202")]


def test_underscore_option_is_fixed_to_dashes(tmp_path, capsys):
    text = compose("--model-path Qwen/Qwen3-8B --attention_backend fa3 --port 30000")
    write_tree(tmp_path, {"compose.yaml": text})
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "compose.yaml").read_text() == text.replace("--attention_backend", "--attention-backend")


# --- which release ------------------------------------------------------------------------------------

@pytest.mark.parametrize("tag,expected", [
    ("v0.5.18-cu129", ("0.5.18", (12, 9))),
    ("v0.5.18-cu126", ("0.5.18", (12, 6))),
    ("v0.5.23-cu130", ("0.5.23", (13, 0))),
    ("v0.5.20.post1", ("0.5.20.post1", None)),
    ("v0.5.1.post1-cu126", ("0.5.1.post1", (12, 6))),
    ("latest", (None, None)),
    ("dev-cu130", (None, (13, 0))),
])
def test_image_tags(tag, expected):
    assert parse_image_tag(tag) == expected


BAD_ON_B200 = ("# lint-configs: target-gpu=B200\nservices:\n  s:\n    image: lmsysorg/sglang:{tag}\n    command: "
               "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
               "--enable-deterministic-inference\n")


@pytest.mark.parametrize("tag,codes", [
    ("v0.5.18-cu129", []),
    ("v0.5.18-cu126", ["SGL101"]),  # torch built for CUDA 12.6 fails SGLang's SM100/SM110 test
    ("v0.5.16-cu129", ["SGL102"]),  # 0.5.16 rejects fa4 for DeepSeek models on every GPU (error B)
    ("latest", []),
])
def test_release_and_cuda_build_from_the_image_tag(tmp_path, capsys, tag, codes):
    write_tree(tmp_path, {"compose.yaml": BAD_ON_B200.format(tag=tag)})
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == codes


def test_cuda_build_is_named_in_the_message(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": BAD_ON_B200.format(tag="v0.5.18-cu126")})
    _, diags = lint_json(tmp_path, capsys)
    assert "CUDA 12.6" in diags[0]["message"] and "SGLang 0.5.18" in diags[0]["message"]


def test_sglang_version_option_and_pins(tmp_path, capsys):
    text = BAD_ON_B200.format(tag="latest").replace("B200", "B200")
    write_tree(tmp_path, {"compose.yaml": text})
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.16")
    assert [d["code"] for d in diags] == ["SGL102"]
    write_tree(tmp_path, {"requirements.txt": "sglang[all]==0.5.16\n"})
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == ["SGL102"]
    write_tree(tmp_path, {"pyproject.toml": '[tool.lint-configs]\nsglang-version = "0.5.18"\n'})
    _, diags = lint_json(tmp_path, capsys)
    assert diags == []
