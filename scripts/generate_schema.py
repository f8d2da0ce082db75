"""Write ``linter/lint-configs.schema.json`` from the configuration code (``linter/config_schema.py``).

Usage: ``python scripts/generate_schema.py`` (rewrite) or ``--check`` (exit 1 when the file is stale).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from linter.config_schema import SHIPPED, render  # noqa: E402


def main(argv: list[str]) -> int:
    target = ROOT / "linter" / SHIPPED
    text = render()
    if "--check" in argv:
        current = target.read_text("utf-8") if target.is_file() else ""
        if current != text:
            print(f"{target.relative_to(ROOT)} is stale: run python scripts/generate_schema.py", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
