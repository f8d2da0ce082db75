"""Issue 20: lint-configs agrees with SGLang on the model-specific start-up checks, per release.

``tests/fixtures/model_checks_matrix.jsonl`` was recorded by ``scripts/record_model_checks_matrix.py``
with the shared oracle (each release's unmodified parser and resolution on a faked GPU and a
synthetic checkpoint). The oracle never runs here: each case is replayed through lint-configs (one
shell file per release and GPU, one launch per line, the checkpoint's ``config.json`` beside it) and
must agree:

* SGLang starts -> lint-configs reports no error (SGL104, the fa3 assert when the model loads, is
  outside the oracle and is checked on its own below);
* SGLang stops -> lint-configs reports exactly the code of SGLang's error, and only it (after a
  parser error nothing else runs);
* where SGLang starts, the attention backends SGLang resolved are the ones lint-configs computes.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.helpers import write_tree

FIXTURE = Path(__file__).parent / "fixtures" / "model_checks_matrix.jsonl"
CASES = [json.loads(line) for line in FIXTURE.read_text("utf-8").splitlines() if line.strip()]
GPU = {"8.0": "A100", "9.0": "H100", "10.0": "B200", "11.0": "Jetson Thor", "12.0": "RTX PRO 6000 Blackwell"}
AFTER_RESOLUTION = {"SGL104"}  # asserts when the model loads: outside the oracle's scope
WARNINGS = {"SGL211"}  # a deprecated alias SGLang maps and warns about (0.5.23 tokenspeed_mla): no error
GENERAL_DEFAULT = {("0.5.18", "glm5next-default"), ("0.5.19", "glm5next-default")}
"""Cases whose backend is SGLang's general default (``get_default_attn_backend``) for an architecture
the release does not know: it reads the checkpoint's shape (0.5.19 ``model_override_base.py:273-340``:
``has_asymmetric_kv`` gives fa4 on SM100, attention sinks rule out flashinfer; 0.5.18 alike), which the synthetic
config decides; the verdict is compared, the backend only for not being the family's ``dsa``."""
NEEDLES = (
    ("GptOssForCausalLM requires one of", "SGL112"),
    ("requires SM100/SM110", "SGL101"),
    ("But you're using", "SGL102"),
    ("but you explicitly specified", "SGL103"),
    ("TRTLLM MLA backend is only", "SGL105"),
    ("tokenspeed_mla backend", "SGL106"),
    ("CuteDSL MLA", "SGL107"),
    ("TRTLLM MHA backend", "SGL108"),
    ("TRTLLM FMHAv2 prefill on SM120", "SGL108"),
)
PARSER = (("invalid choice", "SGL203"), ("ignored explicit argument", "SGL204"),
          ("unrecognized arguments", "SGL204"), ("expected one argument", "SGL205"), ("ambiguous option", "SGL202"))


def oracle_code(oracle: dict) -> str | None:
    """The lint-configs code for SGLang's answer (None when SGLang starts)."""
    if oracle["ok"]:
        return None
    error = oracle["error"] or ""
    table = PARSER if oracle["error_type"] == "ArgparseError" else NEEDLES
    return next((code for needle, code in table if needle in error), "other")


def _argv(case: dict) -> list[str]:
    args = list(case["args"])
    i = args.index("--model-path")
    args[i + 1] = f"ckpt/{case['id'].split('@')[0]}"
    return ["python3", "-m", "sglang.launch_server", *args]


@pytest.fixture(scope="module")
def linted(tmp_path_factory):
    """{(release, case id): sorted codes lint-configs reports for it}."""
    from contextlib import redirect_stdout
    from io import StringIO

    from linter.cli import main
    from tests.helpers import chdir

    out: dict[tuple[str, str], list[str]] = {}
    for version in sorted({c["sglang"] for c in CASES}):
        root = tmp_path_factory.mktemp(f"model-checks-{version}")
        files: dict[str, str] = {}
        where: dict[tuple[str, int], str] = {}
        for c in CASES:
            files[f"ckpt/{c['id'].split('@')[0]}/config.json"] = json.dumps(c["config"])
        for cc, gpu in GPU.items():
            lines = ["#!/bin/bash", f"# lint-configs: target-gpu={gpu}"]
            for c in CASES:
                if c["cc"] == cc and c["sglang"] == version:
                    lines.append(" ".join(shlex.quote(w) for w in _argv(c)))
                    where[(f"cc-{cc}.sh", len(lines))] = c["id"]
            files[f"cc-{cc}.sh"] = "\n".join(lines) + "\n"
        write_tree(root, files)
        buf = StringIO()
        with chdir(root), redirect_stdout(buf):
            main(["--format", "json", "--sglang-version", version, "."])
        out.update({(version, cid): [] for cid in where.values()})
        for d in json.loads(buf.getvalue()):
            out[(version, where[(d["path"], d["line"])])].append(d["code"])
    return {k: sorted(v) for k, v in out.items()}


def test_the_matrix_covers_every_shape_of_issue_20():
    by_release: dict[str, set[str]] = {}
    for c in CASES:
        by_release.setdefault(c["sglang"], set()).add(c["id"].split("@")[0])
    shapes = {"gptoss-flashinfer", "gptoss-prefill-only", "gptoss-decode-only", "gptoss-det", "tokenspeed",
              "glm5next-default", "glm5next-split-det", "trtllm_mha-fp8", "pixtral-mla-default", "FA4-det",
              "ambiguous", "valueless", "rl-invalid"}
    assert {"0.5.18", "0.5.19", "0.5.22", "0.5.23"} <= set(by_release)
    for release, ids in by_release.items():
        assert shapes <= ids, (release, shapes - ids)
    # the oracle really loaded each architecture (a synthetic config that failed would test nothing)
    for c in CASES:
        if c["oracle"]["error_type"] != "ArgparseError":
            assert c["oracle"]["hf_architectures"] == [c["arch"]], c["id"]


def test_the_matrix_has_the_release_before_each_change():
    """Each change issue 20 names, found in model_checks.json, is recorded on its release and the one before."""
    from linter.sglang.decision import release_fact
    from linter.sglang.options import load_table

    recorded = {c["sglang"] for c in CASES}

    def changes(key, test):
        releases = sorted(recorded | {"0.5.20", "0.5.21"}, key=lambda v: load_table(v).version_tuple)
        return [(a, b) for a, b in zip(releases, releases[1:])
                if test(release_fact(load_table(a), key)) != test(release_fact(load_table(b), key))]

    glm5 = "Glm5NextForConditionalGeneration"
    assert changes("attention_backend_aliases", lambda v: "tokenspeed_mla" in v) == [("0.5.22", "0.5.23")]
    assert changes("deepseek_family_override_architectures", lambda v: glm5 in v) == [("0.5.19", "0.5.20")]
    assert changes("trtllm_mha_sm120_fp8_prefill_check", bool) == [("0.5.18", "0.5.19")]
    assert glm5 not in release_fact(load_table("0.5.23"), "deterministic_fill_mla_architectures")
    assert glm5 in load_table("0.5.23").list("absorbed_mla_architectures")
    for before, after in [("0.5.22", "0.5.23"), ("0.5.19", "0.5.20"), ("0.5.18", "0.5.19")]:
        assert before in recorded and (after in recorded or after == "0.5.20")


@pytest.mark.parametrize("case", CASES, ids=[f"{c['sglang']}:{c['id']}" for c in CASES])
def test_lint_configs_agrees_with_sglang(case, linted):
    want = oracle_code(case["oracle"])
    got = [c for c in linted[(case["sglang"], case["id"])] if c not in AFTER_RESOLUTION | WARNINGS]
    assert got == ([] if want is None else [want]), case["oracle"]["error"]


@pytest.mark.parametrize("case", [c for c in CASES if c["oracle"]["ok"]],
                         ids=[f"{c['sglang']}:{c['id']}" for c in CASES if c["oracle"]["ok"]])
def test_the_backends_are_the_ones_sglang_resolves(case):
    from linter.launch import MStr, Token
    from linter.sglang.analysis import hardware_of  # noqa: F401  (the same Hardware the rules use)
    from linter.sglang.decision import Hardware, deterministic, evaluate
    from linter.sglang.gates import effective
    from linter.sglang.options import load_table, parse_args

    table = load_table(case["sglang"])
    parsed = parse_args(table, [Token(MStr.plain(w)) for w in case["args"]])
    cfg = case["config"]
    dsa = "index_topk" in cfg
    mla = "kv_lora_rank" in cfg.get("text_config", {})
    major = int(case["cc"].split(".")[0])
    hw = Hardware(case["cc"], True, major, (13, 0))
    o = evaluate(parsed, table, case["arch"], dsa, hw) if deterministic(parsed)[0] is True else None
    b = effective(parsed, case["arch"], dsa, hw, o, table, mla)
    oracle = case["oracle"]
    assert b is not None
    if (case["sglang"], case["id"].split("@")[0]) in GENERAL_DEFAULT:
        # Not the family override: before 0.5.20 Glm5Next gets no dsa (the point of this case)
        assert "dsa" not in (b.attention, oracle["attention_backend"])
        return
    prefill = oracle["prefill_attention_backend"] or oracle["attention_backend"]
    decode = oracle["decode_attention_backend"] or oracle["attention_backend"]
    assert (b.prefill, b.decode) == (prefill, decode)


def test_deterministic_gpt_oss_on_thor_runs_triton_not_fa3(tmp_path, capsys):
    """SGL104 used to claim fa3 here: gpt-oss's own default (triton off SM90/SM100) comes first."""
    from tests.helpers import lint_json

    write_tree(tmp_path, {"serve.sh": "# lint-configs: target-gpu=Jetson Thor\n"
                                      "python3 -m sglang.launch_server --model-path openai/gpt-oss-120b "
                                      "--enable-deterministic-inference\n"})
    _, diags = lint_json(tmp_path, capsys)
    assert diags == []


def test_pixtral_with_kv_lora_rank_is_mla_for_the_fa3_load_check(tmp_path, capsys):
    from tests.helpers import lint_json

    launch = "python3 -m sglang.launch_server --model-path ckpt --attention-backend fa3\n"
    write_tree(tmp_path, {"a/serve.sh": "# lint-configs: target-gpu=A100\n" + launch,
                          "a/ckpt/config.json": json.dumps({"architectures": ["PixtralForConditionalGeneration"],
                                                            "text_config": {"kv_lora_rank": 512}}),
                          "b/serve.sh": "# lint-configs: target-gpu=A100\n" + launch,
                          "b/ckpt/config.json": json.dumps({"architectures": ["PixtralForConditionalGeneration"]})})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"]) for d in diags] == [("a/serve.sh", "SGL104")]


def test_gpt_oss_whitelist_is_reported_without_a_target_and_fixed_to_triton(tmp_path, capsys):
    """The whitelist does not depend on the GPU: SGL112 fires with no target declared, its fix is safe."""
    from tests.helpers import lint_json

    write_tree(tmp_path, {"serve.sh": "python3 -m sglang.launch_server --model-path openai/gpt-oss-120b "
                                      "--attention-backend flashinfer\n"
                                      "python3 -m sglang.launch_server --model-path openai/gpt-oss-120b "
                                      "--decode-attention-backend fa3\n"})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["line"], d["code"]) for d in diags] == [(1, "SGL112"), (2, "SGL112")]
    assert [d["fix"]["applicability"] for d in diags] == ["safe", "safe"]
    assert [e["content"] for d in diags for e in d["fix"]["edits"]] == ["triton", " --prefill-attention-backend triton"]
