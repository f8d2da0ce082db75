"""README's rule table is generated from the rules (scripts/update_readme.py) and must stay in step."""

from __future__ import annotations

import re
from pathlib import Path

from linter.rules import ALL_RULES, markdown_table

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_rule_table_matches_the_rules():
    text = README.read_text("utf-8")
    table = re.search(r"<!-- rules:start -->\n(.*?)<!-- rules:end -->", text, re.S).group(1)
    assert table == markdown_table(), "run: python scripts/update_readme.py"
    for rule in ALL_RULES:
        assert f"| [{rule.code}](docs/rules/{rule.code}.md) | {rule.name} |" in table


def test_readme_commands_name_the_examples_and_the_tests():
    text = README.read_text("utf-8")
    assert "lint-configs examples/" in text
    assert "pytest" in text
