"""Rewrite the rule table of README.md (between <!-- rules:start --> and <!-- rules:end -->) from
the rules' own metadata, so README, ``--list-rules`` and the SARIF rule descriptions agree; and the
configuration key table (between <!-- config:start --> and <!-- config:end -->) from ``linter.config.KEYS``;
and the launch inventory of examples/ (between <!-- inventory:start --> and <!-- inventory:end -->)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from linter.config import markdown_table as config_table  # noqa: E402
from linter.rules import markdown_table  # noqa: E402

PATTERN = re.compile(r"(<!-- rules:start -->\n).*?(<!-- rules:end -->)", re.S)
CONFIG = re.compile(r"(<!-- config:start -->\n).*?(<!-- config:end -->)", re.S)
INVENTORY = re.compile(r"(<!-- inventory:start -->\n).*?(<!-- inventory:end -->)", re.S)


def inventory_example() -> str:
    """``COLUMNS=160 lint-configs --list-launches examples/`` run from the repository's top, fenced."""
    import io
    import os

    from linter.cli import main as cli

    out = io.StringIO()
    old_cwd, old_stdout = os.getcwd(), sys.stdout
    os.chdir(ROOT)
    sys.stdout = out
    try:
        os.environ["COLUMNS"] = "160"
        cli(["--list-launches", "--color", "never", "examples/"])
    finally:
        sys.stdout = old_stdout
        os.chdir(old_cwd)
    return "```\n" + out.getvalue() + "```\n"


def main(argv: list[str] | None = None) -> int:
    readme = ROOT / "README.md"
    text = readme.read_text("utf-8")
    new = PATTERN.sub(lambda m: m.group(1) + markdown_table() + m.group(2), text)
    new = CONFIG.sub(lambda m: m.group(1) + config_table() + m.group(2), new)
    new = INVENTORY.sub(lambda m: m.group(1) + inventory_example() + m.group(2), new)
    if new != text:
        readme.write_text(new, "utf-8")
        print("README.md: rule and configuration tables and the inventory example updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
