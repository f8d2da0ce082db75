"""Every launch rule's invalid examples in each format of the registry (its ``sample`` file), with the
fix checked byte for byte (unsafe fixes applied with --unsafe-fixes)."""

from __future__ import annotations

import pytest

from linter.formats import REGISTRY, by_name
from linter.rules import LAUNCH_RULES
from tests.helpers import lint_json, run, write_tree


def render(fmt: str, example) -> tuple[str, str]:
    """A file of format ``fmt`` (its registry sample) holding the example's launch."""
    row = by_name(fmt)
    targets = ", ".join(example.targets)
    head = f"# lint-configs: target-gpu={targets}\n" if targets else ""
    image = f"lmsysorg/sglang:v{example.sglang}-cu129" if example.sglang else "lmsysorg/sglang:latest"
    command = f"{example.program} {example.args}"
    return row.sample_name, row.sample.format(head=head, image=image, command=command)


FORMATS = [f.name for f in REGISTRY if f.sample]
CASES = [(fmt, rule, ex) for fmt in FORMATS for rule in LAUNCH_RULES for ex in rule.INVALID]


@pytest.mark.parametrize("fmt,rule,example", CASES,
                         ids=[f"{f}-{r.code}-{i}" for i, (f, r, _) in enumerate(CASES)])
def test_invalid_example_in_every_format(tmp_path, capsys, fmt, rule, example):
    name, text = render(fmt, example)
    write_tree(tmp_path, {name: text})
    preview = ["--preview"] if rule.preview else []
    _, diags = lint_json(tmp_path, capsys, *preview)
    mine = [d for d in diags if d["code"] == rule.code]
    assert len(mine) == 1, diags
    if example.fixed is None:
        assert mine[0]["fix"] is None
        return
    flags = preview + ["--fix"] + (["--unsafe-fixes"] if mine[0]["fix"]["applicability"] == "unsafe" else [])
    run(tmp_path, capsys, *flags, ".")
    assert (tmp_path / name).read_text() == text.replace(example.args, example.fixed)


@pytest.mark.parametrize("fmt", FORMATS)
def test_option_resolution_in_every_format(tmp_path, capsys, fmt):
    from linter.rules.base import Example

    # --model (alias), --tp and --mem-fraction (unique prefixes) resolve: nothing to report ...
    ok = Example("--model Qwen/Qwen3-8B --tp 8 --mem-fraction 0.8", ())
    name, text = render(fmt, ok)
    write_tree(tmp_path, {name: text})
    assert lint_json(tmp_path, capsys) == (0, [])
    # ... --attention is ambiguous, and --tp then --tensor-parallel-size repeat one option.
    bad = Example("--model Qwen/Qwen3-8B --attention fa3 --tp 4 --tensor-parallel-size 8", ())
    name, text = render(fmt, bad)
    write_tree(tmp_path, {name: text})
    _, diags = lint_json(tmp_path, capsys)
    assert sorted(d["code"] for d in diags) == ["SGL202", "SGL207"]


def test_version_dependent_abbreviation_in_a_docker_run_script(tmp_path, capsys):
    text = ("#!/bin/bash\ndocker run --gpus all lmsysorg/sglang:{tag} python3 -m sglang.launch_server "
            "--model-path Qwen/Qwen3-8B --cont 32768\n")
    write_tree(tmp_path, {"a.sh": text.format(tag="v0.5.18-cu129"), "b.sh": text.format(tag="v0.5.23-cu129")})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"]) for d in diags] == [("b.sh", "SGL202")]
