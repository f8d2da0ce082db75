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


def test_readme_configuration_table_matches_the_keys():
    from linter.config import KEY_TABLE
    from linter.config import markdown_table as config_table

    text = README.read_text("utf-8")
    table = re.search(r"<!-- config:start -->\n(.*?)<!-- config:end -->", text, re.S).group(1)
    assert table == config_table(), "run: python scripts/update_readme.py"
    for key in KEY_TABLE:
        assert f"| `{key.name}` |" in table


def test_readme_names_every_command_line_option():
    from linter.cli import build_parser

    text = README.read_text("utf-8")
    for action in build_parser()._actions:
        for flag in action.option_strings:
            if flag.startswith("--") and flag not in ("--help", "--version"):
                assert re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text), f"README does not document {flag}"


def test_readme_configuration_example_is_valid(tmp_path):
    from linter.config import load

    block = re.search(r"### Configuration\n.*?```toml\n(.*?)```", README.read_text("utf-8"), re.S).group(1)
    (tmp_path / "pyproject.toml").write_text(block, "utf-8")
    cfg = load(tmp_path / "pyproject.toml")
    mixed = cfg.settings_for(tmp_path / "clusters/mixed/compose.yaml")
    assert mixed.target_gpus == ["H100", "B200"]
    assert cfg.settings_for(tmp_path / "clusters/b200/compose.yaml").target_gpus == ["B200"]
    assert cfg.settings_for(tmp_path / "bench/compose.yaml").per_file_ignores == ["SGL901"]
    assert cfg.baseline == tmp_path.resolve() / ".lint-configs-baseline.json"


def test_readme_inventory_example_is_the_real_output(monkeypatch):
    import sys

    sys.path.insert(0, str(README.parent / "scripts"))
    try:
        from update_readme import inventory_example
    finally:
        sys.path.pop(0)
    monkeypatch.setenv("COLUMNS", "100")
    text = README.read_text("utf-8")
    block = re.search(r"<!-- inventory:start -->\n(.*?)<!-- inventory:end -->", text, re.S).group(1)
    assert block == inventory_example(), "run: python scripts/update_readme.py"
    assert "14 launches in 11 files" in block and "p5.48xlarge (SM90): fa4 (user) -> refused" in block
