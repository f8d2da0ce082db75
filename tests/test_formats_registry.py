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
