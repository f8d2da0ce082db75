"""Every rule's own VALID and INVALID examples (Fixit style), run through the whole linter as a
compose launch; an invalid example's fix is applied (unsafe ones with --unsafe-fixes) and compared
with the expected arguments, and the fix must converge."""

from __future__ import annotations

import pytest

from linter.rules import LAUNCH_RULES
from tests.helpers import lint_json, run, write_tree


def compose_for(example) -> str:
    head = f"# lint-configs: target-gpu={', '.join(example.targets)}\n" if example.targets else ""
    image = f"lmsysorg/sglang:v{example.sglang}-cu129" if example.sglang else "lmsysorg/sglang:latest"
    return (f"{head}services:\n  sglang:\n    image: {image}\n"
            f"    command: {example.program} {example.args}\n")


CASES = [(rule, ex, kind) for rule in LAUNCH_RULES for kind, exs in (("valid", rule.VALID), ("invalid", rule.INVALID))
         for ex in exs]


@pytest.mark.parametrize("rule,example,kind", CASES,
                         ids=[f"{r.code}-{k}-{i}" for i, (r, _, k) in enumerate(CASES)])
def test_rule_example(tmp_path, capsys, rule, example, kind):
    text = compose_for(example)
    write_tree(tmp_path, {"compose.yaml": text})
    preview = ["--preview"] if rule.preview else []  # a rule in preview runs when asked for
    code, diags = lint_json(tmp_path, capsys, *preview)
    mine = [d for d in diags if d["code"] == rule.code]
    if kind == "valid":
        assert mine == []
        return
    assert len(mine) == 1, diags
    d = mine[0]
    assert d["name"] == rule.name and d["severity"] == rule.severity
    if example.fixed is None:
        assert d["fix"] is None
        return
    assert d["fix"] is not None
    flags = preview + ["--fix"] + (["--unsafe-fixes"] if d["fix"]["applicability"] == "unsafe" else [])
    run(tmp_path, capsys, *flags, ".")
    assert (tmp_path / "compose.yaml").read_text() == text.replace(example.args, example.fixed)
    run(tmp_path, capsys, *flags, ".")
    assert (tmp_path / "compose.yaml").read_text() == text.replace(example.args, example.fixed)


@pytest.mark.parametrize("rule", LAUNCH_RULES, ids=[r.code for r in LAUNCH_RULES])
def test_rule_documentation_has_the_sections(rule):
    docs = rule.docs()
    for section in ("## What it does", "## Why it fails", "## Fix safety"):
        assert section in docs, (rule.code, section)
    assert rule.code.startswith("SGL") and rule.name == rule.name.lower()
    assert rule.INVALID, "each rule documents at least one invalid example"
