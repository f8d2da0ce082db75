"""Checks of the generated SGLang option tables (linter/sglang/data/options-*.json).

The tables and the parser fixtures (tests/fixtures/sglang_parser_*.json) are
produced by scripts/generate_sglang_options.py from the published wheels; these
tests need no network. They check the schema, the values the linter's rules
rely on, and that a parser rebuilt from a table behaves like SGLang's real
parser on every recorded command line.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "linter" / "sglang" / "data"
FIXTURES = REPO / "tests" / "fixtures"

def _v(version: str) -> tuple:
    """Sort key of ``X.Y.Z`` / ``X.Y.Z.postN`` (``.postN`` after ``X.Y.Z``)."""
    m = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?", version)
    assert m, version
    return tuple(int(x) for x in m.groups(default="-1"))


# Every list of releases comes from the data folder, never from this file.
VERSIONS = sorted((p.name[len("options-"):-len(".json")] for p in DATA.glob("options-*.json")), key=_v)
UNAVAILABLE = json.loads((DATA / "unavailable.json").read_text(encoding="utf-8"))["releases"]
# Releases whose tables the rules below were written against (the parser of 0.5.16 onwards).
MODERN = [v for v in VERSIONS if _v(v) >= (0, 5, 16, -1)]
FIXTURE_VERSIONS = sorted((p.name[len("sglang_parser_"):-len(".json")] for p in FIXTURES.glob("sglang_parser_*.json")),
                          key=_v)

TOP_KEYS = ["sglang_version", "source", "options", "fields", "types", "actions", "startup_checks", "lists",
            "lists_source"]
SOURCE_KEYS = ["wheel", "sha256", "generator", "method", "files"]
OPTION_KEYS = [
    "dest", "option_strings", "action", "type", "choices", "default",
    "nargs", "const", "required", "deprecated", "deprecation",
]
# A key at this value is left out of a table's option row (the generator's OPTION_DEFAULTS).
OPTION_DEFAULTS = {"action": "store", "type": None, "choices": None, "default": None, "nargs": None, "const": None,
                   "required": False, "deprecated": False, "deprecation": None}
LIST_KEYS = [
    "attention_backend_choices",
    "deterministic_attention_backends",
    "radix_supported_deterministic_attention_backends",
    "absorbed_mla_architectures",
    "rl_on_policy_target_choices",
]
# sha256 of each wheel, as recorded when the tables were generated.
WHEEL_SHA256 = {
    "0.5.16": "d5f345a18953dd35df568ac56bdcb7f5ee910ab39efea4469b714556d1070713",
    "0.5.17": "575e38f5683624ded3b4bb267f637a098e5ed37d13a1d1ff5ea09bd781a04d16",
    "0.5.18": "e97b585dd2d5db2802599feba47c84cce972f5e1231a6816fef996200207b5cf",
    "0.5.19": "425e87377e725d03db8262382008f3fd9561a6cf5d82f485f8b9929f02ffe12b",
    "0.5.20": "1573527042f4f6b4ead838302818595fc77fdc611dbcc2e40cd150fbc8f8513c",
    "0.5.21": "96c029f75dec99baa33a5db3d41b1bebefdd6bcfba3a2f7c807fe1cf49a87c20",
    "0.5.22": "cc9a0f15bd8f877a0584fdb7a1702240177a1f1cc8d17c978715161717b9037b",
    "0.5.23": "00b3cd5b265ac76c64185fbb6b95424f324ddd9f428d0306b77bc9db9d859937",
}
ABSORBED_7 = [
    "DeepseekV2ForCausalLM",
    "DeepseekV3ForCausalLM",
    "DeepseekV32ForCausalLM",
    "MistralLarge3ForCausalLM",
    "PixtralForConditionalGeneration",
    "GlmMoeDsaForCausalLM",
    "Glm4MoeLiteForCausalLM",
]


def _load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


_TABLES: dict = {}


def table(version: str) -> dict:
    """The table with every option row expanded to all OPTION_KEYS."""
    if version not in _TABLES:
        t = _load(DATA / f"options-{version}.json")
        t["options"] = [{k: o.get(k, OPTION_DEFAULTS.get(k)) for k in OPTION_KEYS} for o in t["options"]]
        _TABLES[version] = t
    return _TABLES[version]


def option(version: str, dest: str) -> dict:
    found = [o for o in table(version)["options"] if o["dest"] == dest]
    assert found, f"{version}: no option with dest {dest}"
    return found[0]


def _load_generator():
    path = REPO / "scripts" / "generate_sglang_options.py"
    spec = importlib.util.spec_from_file_location("generate_sglang_options", path)
    mod = importlib.util.module_from_spec(spec)
    saved, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # no scripts/__pycache__
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.dont_write_bytecode = saved
    return mod


# --------------------------------------------------------------------------
# schema
# --------------------------------------------------------------------------


def test_every_release_is_a_table_or_recorded_unavailable():
    gen = _load_generator()
    assert VERSIONS[0] == gen.OLDEST == "0.4.0"
    assert not set(VERSIONS) & set(UNAVAILABLE)
    # what `generate_sglang_options.py --check` reproduces by default: the whole data folder
    assert gen.committed_versions(DATA) == sorted(VERSIONS + list(UNAVAILABLE), key=_v)
    assert [v for v in VERSIONS if ".post" in v], "the .postN releases have tables too"
    for version, entry in UNAVAILABLE.items():
        assert list(entry) == ["wheel", "sha256", "reason"]
        assert re.fullmatch(rf"sglang-{re.escape(version)}-(cp311-cp311-manylinux_2_34_x86_64|py3-none-any)\.whl",
                            entry["wheel"])
        assert re.fullmatch(r"[0-9a-f]{64}", entry["sha256"])
        assert entry["reason"].startswith("argparse-dump failed: ")
    assert gen.dumps_unavailable(UNAVAILABLE) == (DATA / "unavailable.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("version", VERSIONS)
def test_schema(version):
    raw = _load(DATA / f"options-{version}.json")
    t = table(version)
    assert list(t) == TOP_KEYS
    assert t["sglang_version"] == version

    src = t["source"]
    assert list(src) == SOURCE_KEYS
    assert re.fullmatch(rf"sglang-{re.escape(version)}-(cp311-cp311-manylinux_2_34_x86_64|py3-none-any)\.whl",
                        src["wheel"])
    assert re.fullmatch(r"[0-9a-f]{64}", src["sha256"])
    if version in WHEEL_SHA256:
        assert src["sha256"] == WHEEL_SHA256[version]
    assert src["generator"] == "scripts/generate_sglang_options.py"
    assert src["method"] == "argparse-dump"
    assert src["files"][0] == "sglang/srt/server_args.py"
    assert all(f.startswith("sglang/") and f.endswith(".py") for f in src["files"])
    if version in MODERN:
        assert "sglang/srt/arg_groups/arg_utils.py" in src["files"]

    # compact rows: no help text, no key at its default
    for row in raw["options"]:
        assert list(row) == [k for k in OPTION_KEYS if k in row], row
        assert all(k not in OPTION_DEFAULTS or type(v) is not type(OPTION_DEFAULTS[k]) or v != OPTION_DEFAULTS[k]
                   for k, v in row.items()), row
    opts = t["options"]
    assert len(opts) > (400 if version in MODERN else 75)
    seen_strings = set()
    for o in opts:
        assert isinstance(o["dest"], str) and o["dest"]
        assert o["option_strings"] and all(s.startswith("--") for s in o["option_strings"]), o
        assert "--help" not in o["option_strings"] and "-h" not in o["option_strings"]
        assert not (seen_strings & set(o["option_strings"])), f"duplicate option string in {o}"
        seen_strings.update(o["option_strings"])
        assert re.fullmatch(r"store|store_true|store_false|store_const|append|custom:[A-Za-z_]\w*", o["action"]), o
        assert o["type"] is None or isinstance(o["type"], str)
        assert o["choices"] is None or isinstance(o["choices"], list)
        assert o["nargs"] is None or o["nargs"] in ("?", "*", "+") or isinstance(o["nargs"], int)
        assert isinstance(o["required"], bool) and isinstance(o["deprecated"], bool)
        if o["action"] == "store_true":
            # Optional[bool] fields (enable_lora, enable_multimodal, ...) default to None
            assert o["type"] is None and o["nargs"] == 0 and o["default"] in (False, None), o
        if o["deprecated"]:
            assert o["action"].startswith("custom:Deprecated"), o
        if o["action"].startswith("custom:Deprecated"):
            # what the release's own action does when the option is given (issue 31)
            dep = o["deprecation"]
            assert dep["behaviour"] in ("raises", "warns", "maps", "stores", "ignored"), o
            assert re.fullmatch(r"sglang/[\w/]+\.py:\d+ \(Deprecated\w*Action\)", dep["source"]), dep
            assert dep["source"].split(":")[0] in src["files"]
            if dep["behaviour"] in ("raises", "warns", "maps"):
                assert dep["message"] and "\x1b" not in dep["message"], dep
            if dep["behaviour"] == "maps":
                res = dep["resolution"]
                assert re.fullmatch(r"sglang/[\w/]+\.py:\d+", res["source"]) and res["rule"]["set"], res
        else:
            assert o["deprecation"] is None, o
        if o["type"] not in (None, "str", "int", "float", "json", "bool"):
            assert o["type"] in t["types"], o
    for name, info in t["types"].items():
        assert re.fullmatch(r"sglang/[\w/]+\.py:\d+", info["source"]) and info["source"].split(":")[0] in src["files"]
        assert info["accepts"] == "unknown" or isinstance(info["accepts"], dict) and info["accepts"]["kind"], name
    for name, info in t["actions"].items():
        assert re.fullmatch(r"sglang/[\w/]+\.py:\d+", info["source"]) and info["source"].split(":")[0] in src["files"]
    assert {c["dest"] for c in t["startup_checks"]} == {"log_level", "json_model_override_args"}
    for check in t["startup_checks"]:
        assert check["kind"] in ("log-level", "json") and check["sources"], check
        assert all(re.fullmatch(r"sglang/[\w/]+\.py:\d+ \(.+\)", w) for w in check["sources"]), check
    assert {"--model-path", "--tp-size", "--port", "--attention-backend"} <= seen_strings

    fields = t["fields"]
    assert fields[0] == "model_path"
    assert len(fields) == len(set(fields)) > (400 if version in MODERN else 75)
    assert all(re.fullmatch(r"_?[a-z][a-z0-9_]*", f) for f in fields)

    assert list(t["lists"]) == LIST_KEYS
    assert list(t["lists_source"]) == LIST_KEYS
    for key in LIST_KEYS:
        value = t["lists"][key]
        where = t["lists_source"][key]
        if value is None:
            assert version not in MODERN and where.startswith("not found: "), (key, where)
            continue
        assert isinstance(value, list) and value and all(isinstance(x, str) for x in value), key
        m = re.fullmatch(r"(sglang/[\w/]+\.py):(\d+)", where)
        assert m, where
        assert m.group(1) in src["files"]


@pytest.mark.parametrize("version", VERSIONS)
def test_files_are_canonical_generator_output(version):
    """The committed text is exactly what the generator's serializer writes."""
    gen = _load_generator()
    path = DATA / f"options-{version}.json"
    assert gen.dumps_table(_load(path)) == path.read_text(encoding="utf-8")


def test_total_size_of_the_tables():
    """About 3 MB for ~90 releases (help text dropped, default keys left out); the gate catches a
    format change that would bloat the package."""
    total = sum(p.stat().st_size for p in DATA.glob("options-*.json"))
    assert total < 40_000 * len(VERSIONS), total


def test_options_across_releases():
    """Facts read from the tables: when options appeared and went (the parser a pinned file meets)."""
    def have(s):
        return [v for v in VERSIONS if any(s in o["option_strings"] for o in table(v)["options"])]

    assert have("--enable-ep-moe")[0] == "0.4.0.post1" and have("--enable-ep-moe")[-1] == "0.5.4"
    assert have("--disable-mla")[0] == "0.4.0" and have("--disable-mla")[-1] == "0.4.5.post1"
    assert have("--enable-deterministic-inference")[0] == "0.5.3"
    piecewise = have("--enable-piecewise-cuda-graph")
    assert "0.5.9" in piecewise and VERSIONS[-1] not in piecewise
    assert "--attn-dp-size" in [s for o in table(VERSIONS[-1])["options"] for s in o["option_strings"]]
    assert "0.5.9" not in have("--attn-dp-size")
    assert option("0.4.0", "attention_backend")["choices"] == ["flashinfer", "triton", "torch_native"]
    assert option("0.4.5", "attention_backend")["choices"] == ["flashinfer", "triton", "torch_native", "fa3"]
    assert "fa4" in option("0.5.9", "attention_backend")["choices"]
    assert "dsa" not in option("0.5.9", "attention_backend")["choices"]


@pytest.mark.parametrize("version", MODERN)
def test_non_store_dests_and_fields(version):
    t = table(version)
    dests = {o["dest"] for o in t["options"]}
    fields = set(t["fields"])
    # Every option that is not deprecated lands in a ServerArgs field, except --config.
    not_fields = sorted(
        o["dest"] for o in t["options"] if o["dest"] not in fields and not o["deprecated"]
    )
    assert not_fields == ["config"]
    # Fields without a CLI surface exist (Python-only kwargs).
    assert "stat_loggers" in fields and "stat_loggers" not in dests
    assert "custom_sigquit_handler" in fields and "custom_sigquit_handler" not in dests


# --------------------------------------------------------------------------
# options used by the rules
# --------------------------------------------------------------------------


@pytest.mark.parametrize("version", MODERN)
def test_rule_options(version):
    lists = table(version)["lists"]
    for dest, strings in [
        ("attention_backend", ["--attention-backend"]),
        ("prefill_attention_backend", ["--prefill-attention-backend"]),
        ("decode_attention_backend", ["--decode-attention-backend"]),
    ]:
        o = option(version, dest)
        assert o["option_strings"] == strings
        assert o["action"] == "store" and o["type"] == "str"
        assert o["default"] is None and o["nargs"] is None and not o["required"]
        assert o["choices"] == lists["attention_backend_choices"]
        assert "fa4" in o["choices"] and "fa3" in o["choices"] and "triton" in o["choices"]
        assert "FA4" not in o["choices"]

    o = option(version, "enable_deterministic_inference")
    assert o["option_strings"] == ["--enable-deterministic-inference"]
    assert o["action"] == "store_true" and o["default"] is False and o["nargs"] == 0

    o = option(version, "rl_on_policy_target")
    assert o["option_strings"] == ["--rl-on-policy-target"]
    assert o["choices"] == lists["rl_on_policy_target_choices"] == ["fsdp"]
    assert o["default"] is None

    o = option(version, "model_path")
    assert o["option_strings"] == ["--model-path", "--model"]
    assert o["required"] is True and o["type"] == "str" and o["default"] is None

    o = option(version, "tp_size")
    assert o["option_strings"] == ["--tp-size", "--tensor-parallel-size"]
    assert o["type"] == "int" and o["default"] == 1

    o = option(version, "json_model_override_args")
    assert o["option_strings"] == ["--json-model-override-args"]
    assert o["type"] == "str" and o["default"] == "{}"

    o = option(version, "kv_cache_dtype")
    assert o["option_strings"] == ["--kv-cache-dtype"]
    assert o["default"] == "auto"
    assert {"auto", "fp8_e4m3", "fp8_e5m2", "bf16"} <= set(o["choices"])

    o = option(version, "quantization")
    assert o["option_strings"] == ["--quantization"]
    assert o["default"] is None and {"fp8", "awq", "gptq", "modelopt_fp4"} <= set(o["choices"])

    o = option(version, "config")
    assert o["option_strings"] == ["--config"] and o["default"] is None

    o = option(version, "dist_init_addr")
    assert o["option_strings"] == ["--dist-init-addr", "--nccl-init-addr"]


def test_fp4_e2m1_kv_cache_dtype_dropped_in_0_5_21():
    for v in MODERN:
        present = "fp4_e2m1" in option(v, "kv_cache_dtype")["choices"]
        assert present == (_v(v) <= (0, 5, 20, -1)), v
    assert option("0.5.18", "enable_lora")["default"] is None


# --------------------------------------------------------------------------
# lists
# --------------------------------------------------------------------------


def test_absorbed_mla_architectures_per_version():
    for v in MODERN:
        absorbed = table(v)["lists"]["absorbed_mla_architectures"]
        if _v(v) <= (0, 5, 17, -1):
            assert absorbed == ABSORBED_7[:6], v
        elif _v(v) <= (0, 5, 19, -1):
            assert absorbed == ABSORBED_7, v
        else:
            assert absorbed == ABSORBED_7 + ["Glm5NextForConditionalGeneration"], v
    assert "Glm5NextForConditionalGeneration" not in table("0.5.18")["lists"]["absorbed_mla_architectures"]


def test_absorbed_list_location():
    assert table("0.5.18")["lists_source"]["absorbed_mla_architectures"] == "sglang/srt/server_args.py:8221"
    for v in MODERN:
        where = table(v)["lists_source"]["absorbed_mla_architectures"]
        expected = "sglang/srt/server_args.py" if _v(v) <= (0, 5, 18, -1) else "sglang/srt/arg_groups/attention_hook.py"
        assert where.split(":")[0] == expected, v


def test_deterministic_backends_per_version():
    assert table("0.5.18")["lists"]["deterministic_attention_backends"] == [
        "ascend", "fa3", "fa4", "flashinfer", "triton",
    ]
    for v in MODERN:
        det = table(v)["lists"]["deterministic_attention_backends"]
        assert ("intel_xpu" in det) == (_v(v) >= (0, 5, 19, -1)), v
        if _v(v) >= (0, 5, 19, -1):
            assert det == ["ascend", "fa3", "fa4", "flashinfer", "intel_xpu", "triton"]
        assert table(v)["lists"]["radix_supported_deterministic_attention_backends"] == [
            "ascend", "fa3", "fa4", "triton",
        ]
        # every deterministic backend is a valid --attention-backend choice
        assert set(det) <= set(table(v)["lists"]["attention_backend_choices"])


def test_list_constants_location():
    assert table("0.5.18")["lists_source"]["attention_backend_choices"] == "sglang/srt/server_args.py:181"
    assert table("0.5.18")["lists_source"]["deterministic_attention_backends"] == "sglang/srt/server_args.py:226"
    for v in MODERN:
        src = table(v)["lists_source"]
        expected = "sglang/srt/server_args.py" if _v(v) <= (0, 5, 19, -1) else "sglang/srt/arg_groups/choices.py"
        for key in LIST_KEYS:
            if key != "absorbed_mla_architectures":
                assert src[key].split(":")[0] == expected, (v, key)


def test_attention_backend_choices_changes():
    for v in MODERN:
        choices = table(v)["lists"]["attention_backend_choices"]
        assert {"fa3", "fa4", "flashinfer", "triton", "flashmla", "trtllm_mla", "dsa", "intel_xpu"} <= set(choices)
        assert ("cutlass_mla" in choices) == (_v(v) <= (0, 5, 19, -1)), v
        assert ("minicpm_flashattn" in choices) == (_v(v) >= (0, 5, 19, -1)), v
        assert ("hpc_ops" in choices) == (_v(v) >= (0, 5, 17, -1)), v
    assert len(table("0.5.18")["lists"]["attention_backend_choices"]) == 23


# --------------------------------------------------------------------------
# agreement with the recorded real parser
# --------------------------------------------------------------------------


def _fixture(version: str) -> dict:
    return _load(FIXTURES / f"sglang_parser_{version}.json")


_TYPES = {"int": int, "float": float, "str": str, "json": json.loads}


def parser_from_table(version: str) -> argparse.ArgumentParser:
    """An argparse parser rebuilt from the table only (same order, strings, choices)."""
    parser = argparse.ArgumentParser(prog="sglang serve")

    def error(message):
        raise ValueError(message)

    parser.error = error
    for o in table(version)["options"]:
        kwargs = {"dest": o["dest"], "default": o["default"]}
        strings = list(o["option_strings"])
        if o["action"] == "custom:BooleanOptionalAction":
            strings = [s for s in strings if not s.startswith("--no-")]
            kwargs["action"] = argparse.BooleanOptionalAction
        elif o["action"] == "store_true" or (o["action"].startswith("custom:") and o["nargs"] == 0):
            kwargs["action"] = "store_true" if o["action"] == "store_true" else "store_const"
            if kwargs["action"] == "store_const":
                kwargs["const"] = True
        else:
            kwargs["type"] = _TYPES.get(o["type"], str)
            if o["choices"] is not None:
                kwargs["choices"] = o["choices"]
            if o["nargs"] is not None:
                kwargs["nargs"] = o["nargs"]
            if o["required"]:
                kwargs["required"] = True
        if kwargs["default"] == argparse.SUPPRESS:
            kwargs["default"] = argparse.SUPPRESS
        parser.add_argument(*strings, **kwargs)
    return parser


def _error_kind(message: str) -> str:
    for kind in (
        "ambiguous option",
        "invalid choice",
        "unrecognized arguments",
        "ignored explicit argument",
        "the following arguments are required",
    ):
        if kind in message:
            return kind
    return message


@pytest.mark.parametrize("version", FIXTURE_VERSIONS)
def test_fixture_shape(version):
    fx = _fixture(version)
    assert fx["sglang_version"] == version
    assert fx["source"]["sha256"] == WHEEL_SHA256[version] == table(version)["source"]["sha256"]
    assert fx["source"]["method"] == "argparse-dump"
    ids = [c["id"] for c in fx["cases"]]
    assert len(ids) == len(set(ids)) >= 30
    for c in fx["cases"]:
        assert set(c) == ({"id", "argv", "ok", "namespace"} if c["ok"] else {"id", "argv", "ok", "error"})


@pytest.mark.parametrize("version", FIXTURE_VERSIONS)
def test_table_reproduces_real_parser(version):
    """Replay every recorded argv on a parser rebuilt from the table."""
    fx = _fixture(version)
    same_python = sys.version.split()[0].rsplit(".", 1)[0] == fx["source"]["python"].rsplit(".", 1)[0]
    parser = parser_from_table(version)
    defaults = {}
    for a in parser._actions:
        if a.dest not in defaults and a.default is not argparse.SUPPRESS:
            defaults[a.dest] = a.default
    for case in fx["cases"]:
        try:
            ns = vars(parser.parse_args(case["argv"]))
            got = {"ok": True, "namespace": {k: v for k, v in ns.items() if k not in defaults or v != defaults[k]}}
        except ValueError as e:
            got = {"ok": False, "error": str(e)}
        assert got["ok"] == case["ok"], (case, got)
        if case["ok"]:
            assert got["namespace"] == case["namespace"], case["id"]
        else:
            assert _error_kind(got["error"]) == _error_kind(case["error"]), (case, got)
            if same_python:
                assert got["error"] == case["error"], case["id"]


def _case(version: str, case_id: str) -> dict:
    return next(c for c in _fixture(version)["cases"] if c["id"] == case_id)


@pytest.mark.parametrize("version", FIXTURE_VERSIONS)
def test_fixture_records_the_known_argparse_facts(version):
    assert _case(version, "tp_abbrev")["namespace"] == {"model_path": "m", "tp_size": 8}
    assert _case(version, "tp_alias_tensor_parallel_size")["namespace"]["tp_size"] == 4
    assert _case(version, "mem_fraction_abbrev")["namespace"]["mem_fraction_static"] == 0.8
    assert _case(version, "model_alias")["namespace"] == {"model_path": "x"}
    assert _case(version, "attention_b_abbrev")["namespace"]["attention_backend"] == "fa4"
    assert _case(version, "enable_deterministic_abbrev")["namespace"]["enable_deterministic_inference"] is True
    assert _case(version, "nccl_init_abbrev")["namespace"]["dist_init_addr"] == "1.2.3.4:5"
    assert _case(version, "ep_alias")["namespace"]["ep_size"] == 4
    assert _case(version, "disable_radix_abbrev")["namespace"]["disable_radix_cache"] is True
    assert _case(version, "config_equals")["namespace"]["config"] == "x.yaml"
    assert _case(version, "json_model_override_args")["namespace"]["json_model_override_args"] == (
        '{"architectures": ["DeepseekV3ForCausalLM"]}'
    )

    amb = _case(version, "attention_ambiguous")
    assert not amb["ok"] and amb["error"].startswith("ambiguous option: --attention could match")
    assert "--attention-backend" in amb["error"] and "--attention-context-parallel-size" in amb["error"]
    pp = _case(version, "pp_abbrev")
    assert not pp["ok"] and pp["error"] == (
        "ambiguous option: --pp could match --pp-size, --pp-max-micro-batch-size, --pp-async-batch-depth"
    )
    assert "invalid choice: 'FA4'" in _case(version, "attention_backend_uppercase")["error"]
    assert _case(version, "attention_backend_underscore")["error"] == "unrecognized arguments: --attention_backend fa3"
    assert _case(version, "enable_deterministic_inference_equals_true")["error"] == (
        "argument --enable-deterministic-inference: ignored explicit argument 'true'"
    )
    assert _case(version, "enable_deterministic_inference_space_true")["error"] == "unrecognized arguments: true"
    assert _case(version, "missing_model_path")["error"] == (
        "the following arguments are required: --model-path/--model"
    )


def test_fixture_version_differences():
    assert _case("0.5.18", "attention_backend_cutlass_mla")["ok"] is True
    assert "invalid choice: 'cutlass_mla'" in _case("0.5.23", "attention_backend_cutlass_mla")["error"]
    assert "--attention-data-parallel-size" not in _case("0.5.18", "attention_ambiguous")["error"]
    assert "--attention-data-parallel-size" in _case("0.5.23", "attention_ambiguous")["error"]


# --------------------------------------------------------------------------
# the generator's ast readers, on a synthetic source tree
# --------------------------------------------------------------------------


def test_generator_ast_readers(tmp_path):
    gen = _load_generator()
    srt = tmp_path / "sglang" / "srt"
    (srt / "arg_groups").mkdir(parents=True)
    (srt / "server_args.py").write_text("X = 1\n")
    (srt / "arg_groups" / "choices.py").write_text(textwrap.dedent("""\
        ATTENTION_BACKEND_CHOICES = [
            "triton",
            "fa4",
        ]
        DETERMINISTIC_ATTENTION_BACKEND_CHOICES = ["fa3", "fa4"]
        RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND = ["fa3"]
        RL_ON_POLICY_TARGET_CHOICES = ["fsdp"]
    """))
    (srt / "arg_groups" / "attention_hook.py").write_text(textwrap.dedent("""\
        def handle_deterministic_inference(server_args):
            is_deepseek_model = False
            try:
                is_deepseek_model = model_arch in [
                    "DeepseekV3ForCausalLM",
                    "Glm5NextForConditionalGeneration",
                ]
            except Exception:
                pass
    """))
    lists, sources = gen.read_lists(tmp_path)
    assert lists == {
        "attention_backend_choices": ["triton", "fa4"],
        "deterministic_attention_backends": ["fa3", "fa4"],
        "radix_supported_deterministic_attention_backends": ["fa3"],
        "absorbed_mla_architectures": ["DeepseekV3ForCausalLM", "Glm5NextForConditionalGeneration"],
        "rl_on_policy_target_choices": ["fsdp"],
    }
    assert sources["attention_backend_choices"] == "sglang/srt/arg_groups/choices.py:1"
    assert sources["absorbed_mla_architectures"] == "sglang/srt/arg_groups/attention_hook.py:4"
    # a missing list is reported as null with an explanation
    (srt / "arg_groups" / "choices.py").write_text("ATTENTION_BACKEND_CHOICES = ['a']\n")
    lists, sources = gen.read_lists(tmp_path)
    assert lists["rl_on_policy_target_choices"] is None
    assert sources["rl_on_policy_target_choices"].startswith("not found")


@pytest.mark.skipif(not os.environ.get("SGLANG_WHEEL_DIR"),
                    reason="needs the sglang wheels in $SGLANG_WHEEL_DIR (and PyPI once, for the worker venv)")
def test_generator_check_reproduces_a_sample():
    """`generate_sglang_options.py --check` on the oldest, a middle and the newest table of the data
    folder and on one release recorded as unavailable: rebuilt byte for byte."""
    sample = [VERSIONS[0], VERSIONS[len(VERSIONS) // 2], VERSIONS[-1], *sorted(UNAVAILABLE, key=_v)[:1]]
    proc = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "generate_sglang_options.py"), "--check",
         "--wheel-dir", os.environ["SGLANG_WHEEL_DIR"], *sample],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stderr.count(": identical") == len(sample) - min(1, len(UNAVAILABLE)) + 1
