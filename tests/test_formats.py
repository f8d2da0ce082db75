"""Machine output formats: ``--format sarif`` (validated against the SARIF 2.1.0 schema) and
``--format github`` (workflow commands, checked line by line), on realistic compose files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from linter import __version__
from linter.report import github, sarif
from linter.rules import ALL_RULES
from linter.rules.base import Diagnostic, Fix
from linter.source import Edit, SourceFile, Span
from tests.helpers import FOLDED_H100, run, write_tree

DATA = Path(__file__).parent / "data"
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"

# c01 (folded command, DeepSeek-V3, fa4 + deterministic, H100 from a directive) plus a second
# service with a suppression that suppresses nothing (SGL002, a warning).
COMPOSE = FOLDED_H100 + """\
  # lint-configs: ignore[SGL103] kept from the old config
  qwen:
    image: lmsysorg/sglang:v0.5.23-cu129
    command: python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --attention-backend fa3
"""

CLEAN = """\
# lint-configs: target-gpu=H100
services:
  sglang:
    image: lmsysorg/sglang:v0.5.23-cu129
    command: >
      python3 -m sglang.launch_server
      --model-path deepseek-ai/DeepSeek-V3
      --attention-backend fa3
      --enable-deterministic-inference
"""


@pytest.fixture(autouse=True)
def _not_in_github_actions(monkeypatch):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


def _json(root: Path, capsys) -> list[dict]:
    code, out, _ = run(root, capsys, "--format", "json", ".")
    return json.loads(out)


# --- SARIF -------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sarif_schema() -> dict:
    raw = (DATA / "sarif-schema-2.1.0.json").read_bytes()
    assert hashlib.sha256(raw).hexdigest() == SCHEMA_SHA256, "tests/data/sarif-schema-2.1.0.json was modified"
    return json.loads(raw)


def _validate(log: dict, schema: dict) -> None:
    import jsonschema

    validator = jsonschema.Draft4Validator(schema)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


def test_sarif_is_valid_and_complete(tmp_path, capsys, sarif_schema):
    write_tree(tmp_path, {"deploy/docker-compose.yml": COMPOSE})
    code, out, err = run(tmp_path, capsys, "--format", "sarif", ".")
    assert code == 1
    log = json.loads(out)  # stdout holds the SARIF and nothing else
    _validate(log, sarif_schema)
    assert log["version"] == "2.1.0"
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert len(log["runs"]) == 1
    run_ = log["runs"][0]
    assert run_["columnKind"] == "unicodeCodePoints"
    driver = run_["tool"]["driver"]
    assert driver["name"] == "lint-configs"
    assert driver["version"] == __version__
    assert "informationUri" not in driver  # no project address declared: none printed (tests/test_links.py)

    # every rule, in ALL_RULES order, with its documentation
    assert [r["id"] for r in driver["rules"]] == [r.code for r in ALL_RULES]
    for desc, rule in zip(driver["rules"], ALL_RULES):
        assert desc["name"] == rule.name
        assert desc["shortDescription"] == {"text": rule.summary}
        # the whole page of docs/rules, so code scanning shows it without a link
        page = (Path(__file__).resolve().parent.parent / "docs" / "rules" / f"{rule.code}.md").read_text("utf-8")
        assert desc["help"] == {"text": page, "markdown": page}
        assert "helpUri" not in desc
        assert 0 < len(desc["fullDescription"]["text"]) <= 1024
        assert desc["defaultConfiguration"] == {"level": "error" if rule.severity == "error" else "warning"}
    sgl101 = next(r for r in driver["rules"] if r["id"] == "SGL101")
    assert sgl101["fullDescription"]["text"].startswith("Reports a launch that turns on deterministic inference")

    results = run_["results"]
    assert [r["ruleId"] for r in results] == ["SGL101", "SGL002"]
    for r in results:
        assert driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"]

    error, warning = results
    assert error["level"] == "error"
    assert error["message"]["text"].startswith(
        "fa4 with deterministic inference and the absorbed-MLA model deepseek-ai/DeepSeek-V3 (DeepseekV3ForCausalLM) "
        "needs an SM100/SM110 GPU")
    assert error["locations"] == [{"physicalLocation": {
        "artifactLocation": {"uri": "deploy/docker-compose.yml"},
        "region": {"startLine": 9, "startColumn": 27, "endLine": 9, "endColumn": 30}}}]
    assert error["fixes"] == [{
        "description": {"text": "Use --attention-backend fa3"},
        "artifactChanges": [{"artifactLocation": {"uri": "deploy/docker-compose.yml"}, "replacements": [{
            "deletedRegion": {"startLine": 9, "startColumn": 27, "endLine": 9, "endColumn": 30},
            "insertedContent": {"text": "fa3"}}]}]}]
    expected_fp = hashlib.sha256("deploy/docker-compose.yml\0SGL101\0services.sglang:deepseek-ai/DeepSeek-V3:attention_backend"
                                 .encode()).hexdigest()[:32]
    assert error["partialFingerprints"] == {"lintConfigs/v1": expected_fp}

    assert warning["level"] == "warning"
    assert warning["message"]["text"] == ("unused suppression: no SGL103 finding on this line, the next line or a "
                                          "launch starting there")
    assert warning["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 12, "startColumn": 3, "endLine": 12, "endColumn": 58}
    assert "fixes" not in warning


def test_sarif_region_matches_the_json_output(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE})
    as_json = _json(tmp_path, capsys)
    _, out, _ = run(tmp_path, capsys, "--format", "sarif", ".")
    results = json.loads(out)["runs"][0]["results"]
    assert len(results) == len(as_json)
    for r, j in zip(results, as_json):
        assert r["ruleId"] == j["code"]
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == j["path"]
        assert loc["region"] == {"startLine": j["line"], "startColumn": j["column"], "endLine": j["end_line"],
                                 "endColumn": j["end_column"]}


def test_sarif_fingerprints_survive_lines_moving(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE})
    _, before, _ = run(tmp_path, capsys, "--format", "sarif", ".")
    moved = COMPOSE.replace("services:\n", "# deployed by the platform team\n\nservices:\n  # the main model\n", 1)
    write_tree(tmp_path, {"docker-compose.yml": moved})
    _, after, _ = run(tmp_path, capsys, "--format", "sarif", ".")
    b = json.loads(before)["runs"][0]["results"]
    a = json.loads(after)["runs"][0]["results"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in b] == [9, 12]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in a] == [12, 15]
    assert [r["partialFingerprints"] for r in a] == [r["partialFingerprints"] for r in b]


def test_sarif_fingerprints_differ_per_service_and_repeat_with_a_counter(tmp_path, capsys):
    bad_service = COMPOSE.split("  # lint-configs: ignore")[0].split("services:\n")[1]
    two = "# lint-configs: target-gpu=H100\nservices:\n" + bad_service + bad_service.replace("  sglang:", "  sglang-b:")
    write_tree(tmp_path, {"docker-compose.yml": two})
    _, out, _ = run(tmp_path, capsys, "--format", "sarif", ".")
    fps = [r["partialFingerprints"]["lintConfigs/v1"] for r in json.loads(out)["runs"][0]["results"]]
    assert len(fps) == 2 and fps[0] != fps[1]

    # two findings with the same identity in one file: the second gets ":1"
    src = SourceFile(Path("/x/a.yml"), "a.yml", "abc\nabc\n")
    d1 = Diagnostic("SGL002", "unused-suppression", "warning", "m", Span(src, 0, 3), key="SGL002")
    d2 = Diagnostic("SGL002", "unused-suppression", "warning", "m", Span(src, 4, 7), key="SGL002")
    res = sarif.log([d1, d2])["runs"][0]["results"]
    first, second = (r["partialFingerprints"]["lintConfigs/v1"] for r in res)
    assert second == first + ":1"


def test_sarif_without_findings_has_empty_results(tmp_path, capsys, sarif_schema):
    write_tree(tmp_path, {"docker-compose.yml": CLEAN})
    code, out, err = run(tmp_path, capsys, "--format", "sarif", ".")
    assert code == 0
    log = json.loads(out)
    _validate(log, sarif_schema)
    assert log["runs"][0]["results"] == []
    assert len(log["runs"][0]["tool"]["driver"]["rules"]) == len(ALL_RULES)


def test_sarif_to_output_file_with_exit_zero(tmp_path, capsys, sarif_schema):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE})
    code, out, err = run(tmp_path, capsys, "--format", "sarif", "--output-file", "lint-configs.sarif", "--exit-zero",
                         ".")
    assert code == 0
    assert out == ""
    log = json.loads((tmp_path / "lint-configs.sarif").read_text("utf-8"))
    _validate(log, sarif_schema)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["SGL101", "SGL002"]


def test_sarif_unsafe_fix_multi_file_and_odd_paths(sarif_schema):
    env = SourceFile(Path("/r/deploy dir/.env"), "deploy dir/.env", "BACKEND=fa4\n")
    compose = SourceFile(Path("/r/deploy dir/compose #1.yml"), "deploy dir/compose #1.yml", "x: é${BACKEND}\n")
    fix = Fix("unsafe", "Use --attention-backend triton",
              [Edit(Span(env, 8, 11), "triton"), Edit(Span(compose, 3, 4), "e")])
    d = Diagnostic("SGL101", "fa4-deterministic-mla-needs-sm100", "error", "msg", Span(compose, 4, 14), fix=fix,
                   key="services.a:attention_backend", notes=["note one"])
    log = sarif.log([d])
    _validate(log, sarif_schema)
    result = log["runs"][0]["results"][0]
    assert result["message"]["text"] == "msg\nnote one"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "deploy%20dir/compose%20%231.yml"
    # columns count code points: "é" is one column
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 1, "startColumn": 5, "endLine": 1, "endColumn": 15}
    assert result["fixes"] == [{
        "description": {"text": "Use --attention-backend triton (unsafe fix)"},
        "artifactChanges": [
            {"artifactLocation": {"uri": "deploy%20dir/.env"}, "replacements": [{
                "deletedRegion": {"startLine": 1, "startColumn": 9, "endLine": 1, "endColumn": 12},
                "insertedContent": {"text": "triton"}}]},
            {"artifactLocation": {"uri": "deploy%20dir/compose%20%231.yml"}, "replacements": [{
                "deletedRegion": {"startLine": 1, "startColumn": 4, "endLine": 1, "endColumn": 5},
                "insertedContent": {"text": "e"}}]},
        ]}]


# --- github ------------------------------------------------------------------------------------------

def test_github_output_line_by_line(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE})
    diags = _json(tmp_path, capsys)
    code, out, err = run(tmp_path, capsys, "--format", "github", ".")
    assert code == 1
    assert out.endswith("\n")
    lines = out.splitlines()
    assert len(lines) == 3

    head = "::error file=docker-compose.yml,line=9,col=27,endLine=9,endColumn=30,title=lint-configs (SGL101)::"
    assert lines[0].startswith(head)
    data = lines[0][len(head):]
    message = diags[0]["message"]
    assert data.startswith(github.escape_data(message) + "%0Afix: Use --attention-backend fa3%0Anote: ")
    assert "\n" not in data and "%0A" in data
    assert "%0Anote: target H100 (SM90), declared by a lint-configs: target-gpu= comment at docker-compose.yml:1" \
        in data

    assert lines[1] == ("::warning file=docker-compose.yml,line=12,col=3,endLine=12,endColumn=58,"
                        "title=lint-configs (SGL002)::unused suppression: no SGL103 finding on this line, the next "
                        "line or a launch starting there")
    assert lines[2] == "lint-configs: Found 1 error and 1 warning. [*] 1 fixable with `lint-configs --fix`."


def test_github_is_the_default_in_github_actions(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE})
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    code, out, _ = run(tmp_path, capsys, ".")
    assert code == 1
    assert out.splitlines()[0].startswith("::error file=docker-compose.yml,line=9,col=27,")


def test_github_clean_run_prints_only_the_summary(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": CLEAN})
    code, out, _ = run(tmp_path, capsys, "--format", "github", ".")
    assert code == 0
    assert out == "lint-configs: All checks passed!\n"


def test_github_escaping_and_multi_line_spans():
    src = SourceFile(Path("/r/a,b:c%.yml"), "deploy/a,b:c%.yml", "one\ntwo\nthree\n")
    d = Diagnostic("SGL001", "unparseable-file", "error", "50% broken\r\nat: here, there", Span(src, 2, 9))
    assert github.annotation(d) == (
        "::error file=deploy/a%2Cb%3Ac%25.yml,line=1,endLine=3,title=lint-configs (SGL001)::"
        "50%25 broken\\r\\nat: here, there")  # a file's control characters are shown, never acted on
    w = Diagnostic("SGL003", "unknown-gpu", "warning", "unknown target GPU 'H99'", Span(src, 4, 7),
                   fix=Fix("unsafe", "Use B200", []), notes=["a:b,c"])
    assert github.annotation(w) == (
        "::warning file=deploy/a%2Cb%3Ac%25.yml,line=2,col=1,endLine=2,endColumn=4,title=lint-configs (SGL003)::"
        "unknown target GPU 'H99'%0Aunsafe fix (with --unsafe-fixes): Use B200%0Anote: a:b,c")
    assert github.render([d, w]).splitlines()[-1] == (
        "lint-configs: Found 1 error and 1 warning. (1 more fix available with --unsafe-fixes.)")


@pytest.mark.parametrize(("raw", "data", "prop"), [
    ("plain", "plain", "plain"),
    ("100%", "100%25", "100%25"),
    ("a\nb\r\n", "a%0Ab%0D%0A", "a%0Ab%0D%0A"),
    ("k: v, w", "k: v, w", "k%3A v%2C w"),
    ("%0A", "%250A", "%250A"),
])
def test_github_escape_tables(raw, data, prop):
    assert github.escape_data(raw) == data
    assert github.escape_property(raw) == prop


def test_github_lists_findings_past_the_annotation_limit_in_the_log(tmp_path, capsys):
    line = ("python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
            "--enable-deterministic-inference\n")
    write_tree(tmp_path, {"serve.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\n" + line * 12})
    code, out, _ = run(tmp_path, capsys, "--format", "github", ".")
    lines = out.splitlines()
    assert sum(1 for x in lines if x.startswith("::error ")) == 12
    assert lines[12] == "lint-configs: 2 more findings than GitHub annotates in one step:"
    assert lines[13].startswith("serve.sh:13:") and lines[14].startswith("serve.sh:14:")
    assert lines[-1].startswith("lint-configs: Found 12 errors.")


def test_output_file_in_a_missing_folder_is_a_usage_error(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100})
    code, _, err = run(tmp_path, capsys, "--output-file", "nodir/out.json", ".")
    assert code == 2 and "internal error" not in err and "nodir/out.json" in err
