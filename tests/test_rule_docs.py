"""The rule pages ``docs/rules/*.md`` are generated from the rules (``scripts/update_readme.py``) and
must be current; the README, the text output and SARIF link to them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from linter.rules.links import DOCS_PATH, rule_doc_path
from linter.rules import ALL_RULES
from linter.rules.docs import pages, rule_page
from tests.helpers import run, write_tree

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / DOCS_PATH


def test_rule_pages_are_current_and_complete():
    wanted = pages()
    on_disk = {p.name: p.read_text("utf-8") for p in FOLDER.glob("*.md")}
    assert sorted(on_disk) == sorted(wanted), "run: python scripts/update_readme.py"
    for name, text in wanted.items():
        assert on_disk[name] == text, f"{DOCS_PATH}/{name} is out of date: run python scripts/update_readme.py"


def test_update_script_check_mode_agrees():
    spec = importlib.util.spec_from_file_location("update_readme", ROOT / "scripts" / "update_readme.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    files, stale = module.planned()
    assert stale == []
    assert {p: t for p, t in files.items() if p.read_text("utf-8") != t} == {}


def test_a_page_holds_the_docstring_and_the_examples():
    from linter.rules import BY_CODE

    rule = BY_CODE["SGL101"]
    page = rule_page(rule)
    assert page.startswith("# SGL101: fa4-deterministic-mla-needs-sm100\n\nSeverity: **error**.")
    assert rule.docs() in page
    assert "## Why it fails" in page and "## Examples from the tests" in page
    assert "  --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3 --enable-deterministic-inference" in page
    assert "`linter/rules/deterministic.py`" in page


def test_the_readme_table_links_every_page(tmp_path, capsys, monkeypatch):
    readme = (ROOT / "README.md").read_text("utf-8")
    for rule in ALL_RULES:
        assert f"| [{rule.code}](docs/rules/{rule.code}.md) | {rule.name} |" in readme
        assert (ROOT / "docs" / "rules" / f"{rule.code}.md").is_file()
        assert (ROOT / rule_doc_path(rule.code)).is_file()
    write_tree(tmp_path, {"compose.yaml": "# lint-configs: target-gpu=H100\nservices:\n  s:\n    command: python3 -m "
                          "sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
                          "--enable-deterministic-inference\n"})
    monkeypatch.setenv("NO_COLOR", "1")
    out = run(tmp_path, capsys, ".")[1]
    assert "  = help: lint-configs --show-rule SGL101" in out.splitlines()  # a command that works anywhere
