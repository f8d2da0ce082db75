"""No printed address that does not resolve: lint-configs prints a web address only when the installed
package's metadata declares where its documentation is published (``[project.urls]``,
``linter/rules/links.py``), and then every address it prints names a file of this repository's
``docs/`` folder under that base. The text output's help names ``lint-configs --show-rule CODE``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from linter.rules import links
from tests.helpers import FOLDED_H100, run, write_tree

ROOT = Path(__file__).resolve().parent.parent
BASE = "https://docs.example.org/lint-configs/docs"
HOME = "https://example.org/lint-configs"
URL = re.compile(r"https?://[^\s\"'<>)\]]+")
FORMATS = ("text", "full", "concise", "json", "sarif", "github", "gitlab")


@pytest.fixture(autouse=True)
def _plain(monkeypatch):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")


def _outputs(tmp_path, capsys) -> dict[str, str]:
    write_tree(tmp_path, {"deploy/compose.yaml": FOLDED_H100, "serve.sh": "#!/bin/sh\n# lint-configs: target-gpu=H900\n"
                          "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --bogus 1\n"})
    return {fmt: run(tmp_path, capsys, "--output-format", fmt, ".")[1] for fmt in FORMATS}


def test_without_a_documentation_address_no_address_is_printed(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(links, "project_urls", lambda: {})
    out = _outputs(tmp_path, capsys)
    for fmt, text in out.items():
        assert URL.findall(text) == ([] if fmt != "sarif" else ["https://json.schemastore.org/sarif-2.1.0.json"]), fmt
    assert "= help: lint-configs --show-rule SGL101" in out["text"]
    assert {d["url"] for d in json.loads(out["json"])} == {None}
    driver = json.loads(out["sarif"])["runs"][0]["tool"]["driver"]
    assert "informationUri" not in driver and all("helpUri" not in r for r in driver["rules"])


def test_with_a_documentation_address_every_printed_address_names_a_page_of_the_repository(tmp_path, capsys,
                                                                                          monkeypatch):
    monkeypatch.setattr(links, "project_urls", lambda: {"documentation": BASE + "/", "homepage": HOME})
    out = _outputs(tmp_path, capsys)
    printed = {u for text in out.values() for u in URL.findall(text)}
    printed.discard("https://json.schemastore.org/sarif-2.1.0.json")  # SARIF's own schema, published by OASIS
    assert HOME in printed
    pages = printed - {HOME}
    assert pages >= {f"{BASE}/rules/SGL101.md", f"{BASE}/rules/SGL201.md"}
    for url in pages:
        assert url.startswith(BASE + "/")
        assert (ROOT / "docs" / url[len(BASE) + 1:]).is_file(), url  # the file the address names exists
    assert "--show-rule SGL101" in out["text"] and BASE not in out["text"]  # text: the command, not a link
    assert json.loads(out["json"])[0]["url"] == f"{BASE}/rules/SGL101.md"
    sarif = json.loads(out["sarif"])["runs"][0]["tool"]["driver"]
    assert sarif["informationUri"] == HOME
    assert {r["helpUri"] for r in sarif["rules"]} == {f"{BASE}/rules/{r['id']}.md" for r in sarif["rules"]}


def test_the_editor_links_a_code_only_where_an_address_is_declared(tmp_path, monkeypatch):
    pytest.importorskip("lsprotocol")
    from linter.rules.base import Diagnostic
    from linter.server import to_lsp_diagnostic
    from linter.source import SourceFile, Span

    src = SourceFile(path=tmp_path / "s.sh", display="s.sh", text="x\n")
    d = Diagnostic("SGL201", "unknown-option", "error", "m", Span(src, 0, 1))
    monkeypatch.setattr(links, "project_urls", lambda: {})
    assert to_lsp_diagnostic(d).code_description is None
    monkeypatch.setattr(links, "project_urls", lambda: {"documentation": BASE})
    assert to_lsp_diagnostic(d).code_description.href == f"{BASE}/rules/SGL201.md"


def test_the_address_comes_from_the_installed_metadata(tmp_path):
    """A distribution whose METADATA declares ``Project-URL: Documentation`` (what ``[project.urls]``
    becomes when the package is built) gives the address, read by the real importlib.metadata."""
    dist = tmp_path / "site" / "lint_configs-0.1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: lint-configs\nVersion: 0.1.0\n"
                                   f"Project-URL: Documentation, {BASE}\nProject-URL: Homepage, {HOME}\n")
    code = ("from linter.rules import links; print(links.rule_url('SGL101')); print(links.home_url())")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(ROOT)])}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60,
                          cwd=tmp_path)
    assert proc.stdout.split() == [f"{BASE}/rules/SGL101.md", HOME], proc.stderr
    # this checkout declares none: nothing is printed
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.stdout.split() == ["None", "None"], proc.stderr
