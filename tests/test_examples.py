"""The bundled examples/ tree (the README's first command) shows its failing launches with fixes."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.helpers import codes_at, lint_json, run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_examples_report_the_failing_launches_with_fixes(tmp_path, capsys):
    tree = tmp_path / "examples"
    shutil.copytree(EXAMPLES, tree)
    code, diags = lint_json(tree, capsys)
    assert code == 1
    found = {(p, c) for p, _, c in codes_at(diags)}
    assert ("inference/docker-compose.yml", "SGL101") in found
    assert ("rl/docker-compose.rollout.yml", "SGL101") in found
    assert ("bench/compose.yaml", "SGL901") in found
    assert [(p, ln, c) for p, ln, c in codes_at(diags) if p.startswith("runbooks/")] == \
        [("runbooks/deepseek-v3-h100.md", 22, "SGL101")]
    assert not any(c == "SGL403" for _, _, c in codes_at(diags))  # in preview: off by default
    assert ("cloud/sglang-glm.sky.yaml", "SGL101") in found          # SkyPilot any-of {H100, B200}
    assert ("docker/Dockerfile", "SGL104") in found                  # shell-form CMD, ENV from ARG
    assert (".github/workflows/smoke.yml", "SGL101") in found        # run: step, container image
    assert not any(p == "inference/compose.b200.yml" for p, _ in found)  # B200 runs it
    assert ("k8s/deepseek-r1-lws.yaml", "SGL101") in found  # at the ConfigMap value both pods read
    assert not any(p == "k8s/qwen-b200.yaml" for p, _ in found)
    assert ("helm/sglang-pd/values.yaml", "SGL101") in found  # the chart's value, rendered from a template
    fixes = {d["path"]: d["fix"]["edits"][0]["content"] for d in diags if d["fix"]}
    assert fixes["inference/docker-compose.yml"] == "fa3"            # H100 (p5.48xlarge)
    assert fixes["rl/docker-compose.rollout.yml"] == "triton"        # SM120
    assert fixes["k8s/deepseek-r1-lws.yaml"] == "fa3"                # GKE H100 nodes
    assert fixes["helm/sglang-pd/values.yaml"] == "fa3"              # GKE H200 nodes
    assert fixes["runbooks/deepseek-v3-h100.md"] == "fa3"            # H100, from the HTML comment
    assert fixes["cloud/sglang-glm.sky.yaml"] == "triton"            # runs on both candidates (unsafe)
    assert fixes["docker/Dockerfile"] == "flashinfer"                # at the ARG default
    assert fixes[".github/workflows/smoke.yml"] == "fa3"
    run(tree, capsys, "--fix", ".")
    code, diags = lint_json(tree, capsys)
    assert all(d["fix"] is None or d["fix"]["applicability"] == "unsafe" for d in diags)
    assert [d["path"] for d in diags if d["fix"]] == ["cloud/sglang-glm.sky.yaml"]
