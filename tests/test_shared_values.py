"""One rule for fixes that touch shared values: an edit to a value other launches also read (here a
compose ``.env``) is safe only when every reader needs the same edit — found by looking for the
readers beside the shared file, so linting one file alone (as pre-commit does) gives the same
applicability as linting them all."""

from __future__ import annotations

import json

import pytest

from linter.cli import main
from tests.helpers import chdir, lint_json, run, write_tree

ENV = "ATTN=fa4\n"


def compose(target: str) -> str:
    return (f"# lint-configs: target-gpu={target}\nservices:\n  sglang:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
            "    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3\n"
            "      --attention-backend ${ATTN} --enable-deterministic-inference\n")


def sgl101_fixes(diags):
    """The fixes of the SGL101 findings (all located at the shared value in .env)."""
    found = [d for d in diags if d["code"] == "SGL101"]
    assert found and all(d["path"] == ".env" for d in found)
    return {d["fix"] and (d["fix"]["applicability"], d["fix"]["edits"][0]["content"], d["fix"]["edits"][0]["path"])
            for d in found}


@pytest.mark.parametrize("other,expected", [
    ("H100", ("safe", "fa3", ".env")),      # both readers need fa3 there
    ("B200", ("unsafe", "fa3", ".env")),    # the B200 reader runs fa4: changing it is unsafe
    ("A100", None),                          # the readers need different replacements (fa3, triton)
])
def test_two_compose_files_reading_one_env_together_and_alone(tmp_path, capsys, other, expected):
    write_tree(tmp_path, {".env": ENV, "a.yml": compose("H100"), "b.yml": compose(other)})
    _, together = lint_json(tmp_path, capsys)
    capsys.readouterr()
    with chdir(tmp_path):
        main(["--format", "json", "a.yml"])
    alone = json.loads(capsys.readouterr().out)
    assert sgl101_fixes(together) == {expected}
    assert sgl101_fixes(alone) == {expected}


def test_fix_of_one_file_does_not_break_a_sibling_reader(tmp_path, capsys):
    write_tree(tmp_path, {".env": ENV, "a.yml": compose("H100"), "b.yml": compose("B200")})
    run(tmp_path, capsys, "--fix", "a.yml")
    assert (tmp_path / ".env").read_text() == ENV  # the unsafe fix is not applied by --fix
