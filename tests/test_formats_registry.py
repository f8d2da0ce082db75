"""The format registry is the one list of formats: detection, the pre-commit ``files`` pattern and the
per-format samples all follow it."""

from __future__ import annotations

import re
from pathlib import PurePath

import pytest
from ruamel.yaml import YAML

from linter.formats import REGISTRY, detect, precommit_files_pattern
from tests.helpers import ROOT


def test_precommit_hooks_files_pattern_is_generated_from_the_registry():
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {h["files"] for h in hooks} == {precommit_files_pattern()}


@pytest.mark.parametrize("fmt", REGISTRY, ids=lambda f: f.name)
def test_every_registered_extension_passes_the_precommit_filter(fmt):
    pattern = re.compile(precommit_files_pattern())
    for ext in fmt.extensions:
        assert pattern.search(f"deploy/x{ext}"), ext
    if fmt.sample_name:
        assert pattern.search(f"deploy/{fmt.sample_name}")


@pytest.mark.parametrize("fmt", [f for f in REGISTRY if f.sample], ids=lambda f: f.name)
def test_each_sample_is_detected_as_its_own_format(fmt):
    text = fmt.sample.format(head="", image="lmsysorg/sglang:latest",
                             command="python3 -m sglang.launch_server --model-path m")
    assert detect(PurePath(fmt.sample_name), text) is fmt


@pytest.mark.parametrize("name,text,expected", [
    ("compose.yaml", "services:\n  a: {}\n", "compose"),
    ("values.yaml", "image: x\n", None),
    ("run.zsh", "echo\n", "shell"),
    ("job.ksh", "echo\n", "shell"),
    ("serve", "#!/usr/bin/env bash\necho\n", "shell"),
    ("serve", "#!/usr/bin/env -S python3 -u\nprint()\n", "python"),
    ("notes.txt", "#!/bin/sh\n", "shell"),
    ("notes.txt", "plain\n", None),
])
def test_detection(name, text, expected):
    fmt = detect(PurePath(name), text)
    assert (fmt.name if fmt else None) == expected


def _generator():
    import importlib.util

    spec = importlib.util.spec_from_file_location("generate_hooks", ROOT / "scripts" / "generate_hooks.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_hook_files_are_current_with_the_registry():
    """`python scripts/generate_hooks.py` has been run: both hook files say what the registry says."""
    assert _generator().main(["--check"]) == 0


def test_a_new_format_row_reaches_both_hook_files(monkeypatch):
    """Adding a format is one row: the generator carries its extension and file name into the pre-commit
    manifest's `files:` and the plain hook's pathspecs, and `--check` notices until it is run."""
    import linter.formats as formats

    gen = _generator()
    row = formats.Format(name="toy", module="linter.extract.toy", summary="a toy format",
                         extensions=(".toy",), filenames=("Toyfile",))
    manifest = (ROOT / ".pre-commit-hooks.yaml").read_text("utf-8")
    plain = (ROOT / "hooks" / "pre-commit").read_text("utf-8")
    assert ".toy" not in manifest and "Toyfile" not in plain
    monkeypatch.setattr(formats, "REGISTRY", formats.REGISTRY + (row,))
    new_manifest = gen.render_manifest(manifest)
    new_plain = gen.render_plain_hook(plain)
    hooks = YAML(typ="safe").load(new_manifest)
    assert [bool(re.search(h["files"], "deploy/x.toy")) for h in hooks] == [True, True]
    assert [bool(re.search(h["files"], "deploy/Toyfile")) for h in hooks] == [True, True]
    assert "'*.toy'" in new_plain and "'Toyfile' '*/Toyfile'" in new_plain
    # only the generated lines change
    changed = [(a, b) for a, b in zip(plain.splitlines(), new_plain.splitlines()) if a != b]
    assert len(changed) == 1 and changed[0][1].startswith('PATTERNS="')
    assert gen.main(["--check"]) == 1
