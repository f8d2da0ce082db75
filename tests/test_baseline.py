"""``--write-baseline FILE`` / ``--baseline FILE``: adopt lint-configs and fail only on new findings.

Entries are keyed by path (relative to the baseline file), rule code and ``Diagnostic.key`` (launch
and option), never by line, with a count per key."""

from __future__ import annotations

import json

from linter.cli import main
from tests.helpers import chdir, lint_json, run, write_tree

SERVICE = """\
  {name}:
    image: lmsysorg/sglang:v0.5.23-cu129
    command: >
      python3 -m sglang.launch_server
      --model-path deepseek-ai/DeepSeek-V3
      --tp 16
      --attention-backend {backend}
      --enable-deterministic-inference
"""


def compose(*services: tuple[str, str], header: str = "") -> str:
    return ("# lint-configs: target-gpu=H100\n" + header + "services:\n"
            + "".join(SERVICE.format(name=n, backend=b) for n, b in services))


LEGACY = compose(("sglang", "fa4"), ("sglang-small", "fa3"))


def test_write_baseline(tmp_path, capsys):
    write_tree(tmp_path, {"deploy/docker-compose.yml": LEGACY,
                          "b200/docker-compose.yml": compose(("sglang", "flashinfer")).replace("H100", "B200")})
    code, out, err = run(tmp_path, capsys, "--write-baseline", "lint-configs-baseline.json", ".")
    assert code == 0
    assert out == ""
    assert err == "lint-configs: recorded 2 findings in lint-configs-baseline.json\n"
    text = (tmp_path / "lint-configs-baseline.json").read_text("utf-8")
    assert json.loads(text) == {"version": 1, "tool": "lint-configs", "findings": [
        {"path": "b200/docker-compose.yml", "code": "SGL102", "key": "services.sglang:deepseek-ai/DeepSeek-V3:attention_backend",
         "count": 1},
        {"path": "deploy/docker-compose.yml", "code": "SGL101", "key": "services.sglang:deepseek-ai/DeepSeek-V3:attention_backend",
         "count": 1},
    ]}
    assert text.endswith("}\n")
    # writing again gives the same bytes (sorted, stable)
    run(tmp_path, capsys, "--write-baseline", "lint-configs-baseline.json", ".")
    assert (tmp_path / "lint-configs-baseline.json").read_text("utf-8") == text


def test_baseline_survives_lines_moving(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": LEGACY})
    assert run(tmp_path, capsys, "--write-baseline", "baseline.json", ".")[0] == 0
    moved = compose(("sglang", "fa4"), ("sglang-small", "fa3"),
                    header="\n\n# Production deployment; see the runbook.\n\n")
    write_tree(tmp_path, {"docker-compose.yml": moved})
    code, diags = lint_json(tmp_path, capsys)
    assert [(d["line"], d["code"]) for d in diags] == [(13, "SGL101")]  # moved from line 9
    code, diags = lint_json(tmp_path, capsys, "--baseline", "baseline.json")
    assert (code, diags) == (0, [])
    code, out, _ = run(tmp_path, capsys, "--baseline", "baseline.json", ".")
    assert (code, out) == (0, "Checked 2 launches in 1 file.\nAll checks passed!\n")


def test_new_finding_in_another_service_is_reported(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": LEGACY})
    run(tmp_path, capsys, "--write-baseline", "baseline.json", ".")
    write_tree(tmp_path, {"docker-compose.yml": compose(("sglang", "fa4"), ("sglang-small", "fa4"))})
    code, diags = lint_json(tmp_path, capsys, "--baseline", "baseline.json")
    assert code == 1
    assert [(d["line"], d["code"], d["column"]) for d in diags] == [(17, "SGL101", 27)]
    assert diags[0]["fix"]["edits"][0]["content"] == "fa3"


def test_a_second_identical_finding_is_new(tmp_path, capsys):
    # unused suppressions have no launch: both have the identity (path, SGL002, SGL002); the count tells
    one = compose(("sglang", "fa3"), header="# lint-configs: ignore[SGL101] left over\n")
    write_tree(tmp_path, {"docker-compose.yml": one})
    run(tmp_path, capsys, "--write-baseline", "baseline.json", ".")
    assert json.loads((tmp_path / "baseline.json").read_text())["findings"] == [
        {"path": "docker-compose.yml", "code": "SGL002", "key": "SGL002", "count": 1}]
    assert lint_json(tmp_path, capsys, "--baseline", "baseline.json") == (0, [])
    two = one.replace("services:\n", "services:\n  # lint-configs: ignore[SGL103] also left over\n")
    write_tree(tmp_path, {"docker-compose.yml": two})
    code, diags = lint_json(tmp_path, capsys, "--baseline", "baseline.json")
    assert code == 1
    assert [(d["line"], d["code"]) for d in diags] == [(4, "SGL002")]


def test_fixed_findings_leave_nothing_to_report(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": LEGACY})
    run(tmp_path, capsys, "--write-baseline", "baseline.json", ".")
    write_tree(tmp_path, {"docker-compose.yml": compose(("sglang", "fa3"), ("sglang-small", "fa3"))})
    assert lint_json(tmp_path, capsys, "--baseline", "baseline.json") == (0, [])


def test_paths_are_relative_to_the_baseline_file(tmp_path, capsys):
    write_tree(tmp_path, {"deploy/docker-compose.yml": LEGACY})
    run(tmp_path, capsys, "--write-baseline", "ci/baseline.json", "deploy")
    data = json.loads((tmp_path / "ci" / "baseline.json").read_text())
    assert [f["path"] for f in data["findings"]] == ["../deploy/docker-compose.yml"]
    # used from another working directory, the same baseline still matches
    capsys.readouterr()
    with chdir(tmp_path / "deploy"):
        code = main(["--format", "json", "--baseline", "../ci/baseline.json", "."])
    assert code == 0
    assert json.loads(capsys.readouterr().out) == []


def test_other_formats_are_filtered_too(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": LEGACY})
    run(tmp_path, capsys, "--write-baseline", "baseline.json", ".")
    code, out, _ = run(tmp_path, capsys, "--format", "sarif", "--baseline", "baseline.json", ".")
    assert code == 0
    assert json.loads(out)["runs"][0]["results"] == []


def test_write_baseline_with_a_baseline_rewrites_it(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": LEGACY})
    run(tmp_path, capsys, "--write-baseline", "baseline.json", ".")
    write_tree(tmp_path, {"docker-compose.yml": compose(("sglang", "fa4"), ("sglang-small", "fa4"))})
    code, out, err = run(tmp_path, capsys, "--baseline", "baseline.json", "--write-baseline", "baseline.json", ".")
    assert code == 0
    assert [f["key"] for f in json.loads((tmp_path / "baseline.json").read_text())["findings"]] == [
        "services.sglang-small:deepseek-ai/DeepSeek-V3:attention_backend",
        "services.sglang:deepseek-ai/DeepSeek-V3:attention_backend"]


def test_bad_baselines_exit_2(tmp_path, capsys):
    write_tree(tmp_path, {"docker-compose.yml": LEGACY, "not-json.json": "{", "old.json": '{"version": 0}',
                          "bad-entry.json": '{"version": 1, "findings": [{"path": "a", "code": "SGL101"}]}'})
    code, out, err = run(tmp_path, capsys, "--baseline", "missing.json", ".")
    assert (code, out) == (2, "")
    assert err == "lint-configs: error: missing.json: cannot read the baseline: No such file or directory\n"
    code, _, err = run(tmp_path, capsys, "--baseline", "not-json.json", ".")
    assert code == 2 and err.startswith("lint-configs: error: not-json.json: the baseline is not valid JSON: ")
    code, _, err = run(tmp_path, capsys, "--baseline", "old.json", ".")
    assert code == 2
    assert err == ("lint-configs: error: old.json: not a lint-configs baseline of version 1 (version: 0); write one "
                   "with --write-baseline\n")
    code, _, err = run(tmp_path, capsys, "--baseline", "bad-entry.json", ".")
    assert code == 2
    assert err.startswith("lint-configs: error: bad-entry.json: findings[0]: expected path, code and key strings")


def test_shell_launch_identity_survives_a_launch_added_above(tmp_path, capsys):
    bad = ("python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
           "--enable-deterministic-inference\n")
    clean = "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --attention-backend fa3\n"
    write_tree(tmp_path, {"serve.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\n" + bad})
    assert run(tmp_path, capsys, "--write-baseline", "baseline.json", ".")[0] == 0
    write_tree(tmp_path, {"serve.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\n" + clean + "\n" + bad})
    assert lint_json(tmp_path, capsys, "--baseline", "baseline.json") == (0, [])
