"""Adding a format touches only the registry row, its module and the regenerated hook files: a toy
format, registered in a test with a module outside the package, is discovered, linted, fixed, has
its companion files stand for it, its size limit applied and its unsaved editor documents named,
with no other file of the product knowing it."""

from __future__ import annotations

import json
import re

import pytest

import linter.formats as formats
from linter.cli import main

TOY_MODULE = '''"""A toy format: a file of shell command lines (``*.toyrun``)."""
from linter.extract.shell import extract as _shell


def extract(source, ws):
    return _shell(source, ws)
'''

LAUNCH = ("# lint-configs: target-gpu=H100\n"
          "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
          "--enable-deterministic-inference --attention-backend fa4\n")


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy row in the registry and its module on the import path."""
    pkg = tmp_path / "toypkg"
    pkg.mkdir()
    (pkg / "toyrun.py").write_text(TOY_MODULE)
    monkeypatch.syspath_prepend(str(pkg))
    row = formats.Format(name="toy", module="toyrun", summary="toy run files", extensions=(".toyrun",),
                         companions=("toy.vars",), size_limit="MAX_LINE_CHARS", languages=("toylang",))
    monkeypatch.setattr(formats, "REGISTRY", formats.REGISTRY + (row,))
    monkeypatch.setattr(formats, "BY_NAME", {**formats.BY_NAME, "toy": row})
    formats._named.cache_clear()
    yield row
    formats._named.cache_clear()


def _run(capsys, *argv) -> tuple[int, list[dict]]:
    code = main(["--output-format", "json", "-j", "1", *argv])
    return code, json.loads(capsys.readouterr().out)


def test_a_registered_format_is_discovered_linted_and_fixed(toy, tmp_path, capsys, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "serve.toyrun").write_text(LAUNCH)
    (repo / "notes.txt").write_text(LAUNCH)  # no format claims it
    monkeypatch.chdir(repo)
    code, found = _run(capsys, ".")
    assert code == 1
    assert [(d["path"].rsplit("/", 1)[-1], d["code"]) for d in found] == [("serve.toyrun", "SGL101")]
    assert main(["--fix", "-j", "1", "serve.toyrun"]) == 0
    assert "--attention-backend fa3" in (repo / "serve.toyrun").read_text()


def test_its_companion_stands_for_the_files_of_the_format_beside_it(toy, tmp_path, capsys, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "serve.toyrun").write_text(LAUNCH)
    (repo / "toy.vars").write_text("X=1\n")
    monkeypatch.chdir(repo)
    code, found = _run(capsys, "toy.vars")
    assert code == 1 and [d["code"] for d in found] == ["SGL101"]
    assert formats.companion_of(repo / "toy.vars") is toy
    assert re.search(formats.precommit_files_pattern(), "deploy/toy.vars")
    assert "toy.vars" in formats.git_pathspecs()


def test_its_size_limit_is_the_one_its_row_names(toy, tmp_path, capsys, monkeypatch):
    from linter import limits

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    # longer than MAX_LINE_CHARS (the toy row's limit) and than MAX_PARSED_CHARS in lines of 60
    line = "# sglang " + "x" * 50 + "\n"
    (repo / "big.toyrun").write_text(LAUNCH + line * (limits.MAX_PARSED_CHARS // len(line) + 1))
    monkeypatch.chdir(repo)
    _, found = _run(capsys, "big.toyrun")
    assert [d["code"] for d in found] == ["SGL004"]
    assert "MAX_LINE_CHARS" in found[0]["message"]


def test_its_unsaved_editor_documents_are_named_for_it(toy):
    assert formats.untitled_name("toylang") == "untitled.toyrun"
    assert formats.untitled_name("no-such-language") == "untitled.yaml"
