"""Rewrite what is generated from the rules' own metadata and docstrings, so that README, the rule
pages, ``--list-rules``, ``--show-rule`` and the SARIF rule descriptions agree:

* the rule table of README.md (between ``<!-- rules:start -->`` and ``<!-- rules:end -->``);
* README's configuration key table (``<!-- config:start -->`` … ``<!-- config:end -->``), from
  ``linter.config.KEY_TABLE``;
* README's launch inventory of examples/ (``<!-- inventory:start -->`` … ``<!-- inventory:end -->``),
  the output of ``lint-configs --list-launches examples/``;
* ``docs/rules/SGLxxx.md``, one page per rule, and ``docs/rules/README.md`` (pages of rules that no
  longer exist are removed);
* ``linter/data/rule_codes.json``, every rule's code and name (:mod:`linter.codes`).

``--check`` changes nothing and exits 1 when something is out of date (``tests/test_rule_docs.py``
runs the same comparison).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from linter.config import markdown_table as config_table  # noqa: E402
from linter.rules.links import DOCS_PATH  # noqa: E402
from linter.codes import render_catalog  # noqa: E402
from linter.rules import markdown_table  # noqa: E402
from linter.rules.docs import pages  # noqa: E402

PATTERN = re.compile(r"(<!-- rules:start -->\n).*?(<!-- rules:end -->)", re.S)
CONFIG = re.compile(r"(<!-- config:start -->\n).*?(<!-- config:end -->)", re.S)
INVENTORY = re.compile(r"(<!-- inventory:start -->\n).*?(<!-- inventory:end -->)", re.S)


def inventory_example() -> str:
    """``lint-configs --list-launches examples/`` run from the repository's top, fenced."""
    import io
    import os

    from linter.cli import main as cli

    out = io.StringIO()
    old_cwd, old_stdout = os.getcwd(), sys.stdout
    os.chdir(ROOT)
    sys.stdout = out
    try:
        os.environ["COLUMNS"] = "100"
        cli(["--list-launches", "--color", "never", "examples/"])
    finally:
        sys.stdout = old_stdout
        os.chdir(old_cwd)
    return "```\n" + out.getvalue() + "```\n"


def planned() -> tuple[dict[Path, str], list[Path]]:
    """(files to write with their text, stale rule pages to remove)."""
    readme = ROOT / "README.md"
    text = readme.read_text("utf-8")
    new = PATTERN.sub(lambda m: m.group(1) + markdown_table() + m.group(2), text)
    new = CONFIG.sub(lambda m: m.group(1) + config_table() + m.group(2), new)
    new = INVENTORY.sub(lambda m: m.group(1) + inventory_example() + m.group(2), new)
    from linter.rules import ALL_RULES

    out = {readme: new, ROOT / "linter" / "data" / "rule_codes.json": render_catalog(ALL_RULES)}
    folder = ROOT / DOCS_PATH
    wanted = pages()
    for name, page in wanted.items():
        out[folder / name] = page
    stale = [p for p in sorted(folder.glob("SGL*.md")) if p.name not in wanted] if folder.is_dir() else []
    return out, stale


def main(argv: list[str] | None = None) -> int:
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    files, stale = planned()
    return sync(files, stale, check)


def sync(files: dict[Path, str], stale: list[Path], check: bool) -> int:
    """Write each of ``files`` whose text differs and remove ``stale`` (``check``: only say which), one
    line per file; 1 when ``check`` found something out of date. Shared by ``update_snapshots.py``."""
    outdated = [p for p, text in files.items() if not p.is_file() or p.read_text("utf-8") != text]
    for p in outdated:
        print(f"{p.relative_to(ROOT)}: {'out of date' if check else 'updated'}")
        if not check:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(files[p], "utf-8")
    for p in stale:
        print(f"{p.relative_to(ROOT)}: {'stale' if check else 'removed'}")
        if not check:
            p.unlink()
    return 1 if check and (outdated or stale) else 0


if __name__ == "__main__":
    sys.exit(main())
