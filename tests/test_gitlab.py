"""``--format gitlab``: a GitLab Code Quality report, validated against the fields GitLab documents
(``tests/data/gitlab-codequality-fields.json``), with fingerprints that survive lines moving."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linter.report import gitlab, sarif
from linter.rules.base import Diagnostic, Fix
from linter.source import Edit, SourceFile, Span
from tests.helpers import run, write_tree
from tests.test_formats import CLEAN, COMPOSE

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def _not_in_github_actions(monkeypatch):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


@pytest.fixture(scope="module")
def validator():
    import jsonschema

    schema = json.loads((DATA / "gitlab-codequality-fields.json").read_text("utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def _check(report, validator) -> None:
    errors = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


def test_the_field_schema_rejects_what_gitlab_would(validator):
    good = {"description": "d", "check_name": "c", "fingerprint": "f", "severity": "minor",
            "location": {"path": "a.yml", "lines": {"begin": 3}}}
    _check([good], validator)
    _check([{**good, "location": {"path": "a.yml", "positions": {"begin": {"line": 3}}}}], validator)
    for bad in ({**good, "severity": "error"}, {k: v for k, v in good.items() if k != "fingerprint"},
                {**good, "location": {"path": "a.yml"}}, {**good, "location": {"path": "/abs/a.yml", "lines": {"begin": 1}}},
                {**good, "location": {"path": "a.yml", "lines": {"begin": "3"}}}):
        assert list(validator.iter_errors([bad])), bad
    assert list(validator.iter_errors(good)), "a report is an array"


def test_gitlab_report_is_valid_and_complete(tmp_path, capsys, validator):
    write_tree(tmp_path, {"deploy/docker-compose.yml": COMPOSE})
    code, out, err = run(tmp_path, capsys, "--format", "gitlab", ".")
    assert code == 1
    assert not out.startswith("\ufeff")
    report = json.loads(out)  # stdout holds the report and nothing else
    _check(report, validator)
    assert [(i["check_name"], i["severity"], i["location"]) for i in report] == [
        ("SGL101", "major", {"path": "deploy/docker-compose.yml", "lines": {"begin": 9, "end": 9}}),
        ("SGL002", "minor", {"path": "deploy/docker-compose.yml", "lines": {"begin": 12, "end": 12}}),
    ]
    error, warning = report
    assert error["description"].startswith("fa4 with deterministic inference and the absorbed-MLA model "
                                           "deepseek-ai/DeepSeek-V3 (DeepseekV3ForCausalLM) needs an SM100/SM110 GPU")
    assert "\nfix: Use --attention-backend fa3" in error["description"]
    assert warning["description"] == ("unused suppression: no SGL103 finding on this line, the next line or a "
                                      "launch starting there")
    # the same identity as the SARIF alert of the same finding
    _, sarif_out, _ = run(tmp_path, capsys, "--format", "sarif", ".")
    assert [i["fingerprint"] for i in report] == [
        r["partialFingerprints"][sarif.FINGERPRINT] for r in json.loads(sarif_out)["runs"][0]["results"]]


def test_gitlab_fingerprints_survive_lines_moving(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": COMPOSE})
    _, before, _ = run(tmp_path, capsys, "--format", "gitlab", ".")
    moved = COMPOSE.replace("services:\n", "# deployed by the platform team\n\nservices:\n  # the main model\n", 1)
    write_tree(tmp_path, {"docker-compose.yml": moved})
    _, after, _ = run(tmp_path, capsys, "--format", "gitlab", ".")
    b, a = json.loads(before), json.loads(after)
    assert [i["location"]["lines"]["begin"] for i in b] == [9, 12]
    assert [i["location"]["lines"]["begin"] for i in a] == [12, 15]
    assert [i["fingerprint"] for i in a] == [i["fingerprint"] for i in b]
    assert len({i["fingerprint"] for i in a}) == 2


def test_repeated_findings_get_distinct_fingerprints_and_unsafe_fixes_say_so(validator):
    src = SourceFile(Path("/x/a.yml"), "a.yml", "abc\nabc\n")
    fix = Fix("unsafe", "Use --attention-backend triton", [Edit(Span(src, 4, 7), "xyz")])
    d1 = Diagnostic("SGL002", "unused-suppression", "warning", "m", Span(src, 0, 3), key="SGL002")
    d2 = Diagnostic("SGL002", "unused-suppression", "warning", "m", Span(src, 4, 7), key="SGL002", fix=fix,
                    notes=["assumed SGLang 0.5.23"])
    report = gitlab.issues([d1, d2])
    _check(report, validator)
    assert report[1]["fingerprint"] == report[0]["fingerprint"] + ":1"
    assert report[1]["description"] == ("m\nunsafe fix (with --unsafe-fixes): Use --attention-backend triton\n"
                                        "note: assumed SGLang 0.5.23")
    assert report[1]["location"] == {"path": "a.yml", "lines": {"begin": 2, "end": 2}}


def test_gitlab_without_findings_is_an_empty_array_in_the_output_file(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": CLEAN})
    code, out, _ = run(tmp_path, capsys, "--format", "gitlab", "--output-file", "gl-code-quality-report.json", ".")
    assert (code, out) == (0, "")
    assert (tmp_path / "gl-code-quality-report.json").read_text("utf-8") == "[]\n"
